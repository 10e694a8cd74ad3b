"""Links agents follow: relative Markdown links in guidance files, skills and memory
files, and ``[[wiki]]`` links between the memories of one store.

Both are read from prose only (code spans, fences and HTML comments masked, as for
@-mentions), worked out once per document.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Iterator

from memcheck.paths import parent
from memcheck.text import blocks, mentions

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace


def prose(ws: Workspace, doc: Document) -> list[tuple[int, str]]:
    """(line number, prose) of the body: read once for mentions and links alike."""
    return ws.derived(doc, _prose)


def _prose(ws: Workspace, doc: Document) -> list[tuple[int, str]]:
    return list(mentions.body_lines(doc.lines, doc.body_line))


def dead_links(ws: Workspace, doc: Document, from_root_too: bool = False) -> Iterator[tuple[int, int, str]]:
    """(line, column, message) for each relative Markdown link of ``doc`` that points
    at nothing, resolved from its folder (and, with ``from_root_too``, accepted when
    it names a file from the repository root). Reference definitions count where
    CommonMark reads them (``blocks.definitions``): never inside a paragraph."""
    if doc.error is not None or "[" not in doc.body:
        return
    start = max(doc.body_line, 1)
    defined = blocks.definitions(doc.lines[start - 1 :], start) if "]:" in doc.body else {}
    for line, col, target, where in _dead(ws, mentions.links(prose(ws, doc), defined), parent(doc.path), from_root_too):
        yield line, col, _dead_message(target, where)


def description_dead_links(ws: Workspace, doc: Document, from_root_too: bool = False) -> Iterator[tuple[int, int, str]]:
    """As ``dead_links``, for the links in a memory's frontmatter ``description``:
    the store's index shows the description, so each is a dead link there too."""
    fm = doc.frontmatter
    first = fm.key_lines.get("description") if fm is not None else None
    if fm is None or first is None or "](" not in (fm.display("description") or ""):
        return
    # The key's line and the lines that continue its value, up to the next key.
    last = min((line for line in fm.key_lines.values() if line > first), default=fm.end_line) - 1
    numbered = list(zip(range(first, last + 1), mentions.prose(doc.lines[first - 1 : last])))
    # The index shows the description on one line: nothing in it is a definition.
    for line, col, target, where in _dead(ws, mentions.links(numbered, {}), parent(doc.path), from_root_too):
        yield line, col, f"the description's {_dead_message(target, where)} (the index shows the description too)"


def _dead(ws: Workspace, found: Iterable[mentions.Token], folder: str, from_root_too: bool) -> Iterator[tuple[int, int, str, str]]:
    for link in found:
        target = mentions.link_path(link.text, folder)
        if target is None:
            continue
        if from_root_too and folder:
            from_root = mentions.link_path(link.text, "")
            if from_root is not None and from_root != ".." and not from_root.startswith("../") and ws.exists(from_root):
                continue
        if target == ".." or target.startswith("../") or not ws.exists(target):
            yield link.line, link.col, link.text, target


def _dead_message(text: str, target: str) -> str:
    if target == ".." or target.startswith("../"):
        return f"link {text!r} climbs above the repository root; link to a file inside the repository or use a URL"
    hint = "use '/' between folders, not '\\'" if "\\" in target else "fix the path or remove the link"
    return f"link {text!r} points at {target}, which does not exist; {hint}"


def wiki_links(ws: Workspace, doc: Document) -> list[mentions.Token]:
    """The ``[[target]]`` links of ``doc`` (target without ``|alias`` or ``#heading``)."""
    if doc.error is not None or "[[" not in doc.body:
        return []
    return list(mentions.wiki_links(prose(ws, doc)))
