"""Links agents follow: relative Markdown links in guidance files, skills and memory
files, and ``[[wiki]]`` links between the memories of one store.

Both are read from prose only (code spans, fences and HTML comments masked, as for
@-mentions), worked out once per document.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import mentions

if TYPE_CHECKING:
    from memcheck.discover import Workspace
    from memcheck.document import Document


def prose(ws: Workspace, doc: Document) -> list[tuple[int, str]]:
    """(line number, prose) of the body: read once for mentions and links alike."""
    return ws.derived(doc, "prose", lambda doc: list(mentions.body_lines(doc.lines, doc.body_line)))


def dead_links(ws: Workspace, doc: Document, from_root_too: bool = False) -> Iterator[tuple[int, int, str]]:
    """(line, column, message) for each relative Markdown link of ``doc`` that points
    at nothing, resolved from its folder (and, with ``from_root_too``, accepted when
    it names a file from the repository root)."""
    if doc.error is not None or "[" not in doc.body:
        return
    folder = doc.path.rpartition("/")[0]
    for link in mentions.links(prose(ws, doc)):
        target = mentions.link_path(link.text, folder)
        if target is None:
            continue
        if from_root_too and folder:
            from_root = mentions.link_path(link.text, "")
            if from_root is not None and from_root != ".." and not from_root.startswith("../") and ws.exists(from_root):
                continue
        if target == ".." or target.startswith("../"):
            yield link.line, link.col, f"link {link.text!r} climbs above the repository root; link to a file inside the repository or use a URL"
        elif not ws.exists(target):
            hint = "use '/' between folders, not '\\'" if "\\" in target else "fix the path or remove the link"
            yield link.line, link.col, f"link {link.text!r} points at {target}, which does not exist; {hint}"


def wiki_links(ws: Workspace, doc: Document) -> list[mentions.Token]:
    """The ``[[target]]`` links of ``doc`` (target without ``|alias`` or ``#heading``)."""
    if doc.error is not None or "[[" not in doc.body:
        return []
    return list(mentions.wiki_links(prose(ws, doc)))
