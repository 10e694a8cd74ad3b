"""Links agents follow: relative Markdown links in guidance files, skills and memory
files, and ``[[wiki]]`` links in memory files, which name a memory of their store or,
as in a note vault, a file of the repository (``names_a_note``).

Both are read from prose only (code spans, fences and HTML comments masked, as for
@-mentions), worked out once per document.
"""

from __future__ import annotations

import posixpath
from itertools import count
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

from memcheck.paths import basename, join, parent
from memcheck.text import blocks, mentions

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace


class Prose:
    """(line number, prose) of each line of a body, made as it is walked: the masked
    lines are kept, the pairs are not. A list of pairs, kept for every guidance file
    and skill while they are checked together, was 2.2 MiB of the peak on bench/'s
    M tree (a tuple and, past line 256, an int per line), for values that every
    reader walks once and mostly passes over (no `@` or `[` on the line)."""

    __slots__ = ("first", "lines")

    def __init__(self, first: int, lines: tuple[str, ...]) -> None:
        self.first = first  # the number of the first line
        self.lines = lines

    def __iter__(self) -> Iterator[tuple[int, str]]:
        return zip(count(self.first), self.lines)


def prose(ws: Workspace, doc: Document) -> Prose:
    """(line number, prose) of the body: read once for mentions and links alike."""
    return ws.derived(doc, _prose)


def _prose(ws: Workspace, doc: Document) -> Prose:
    start = max(doc.body_line, 1) - 1  # as mentions.body_lines numbers them
    return Prose(start + 1, mentions.body_prose(doc.lines[start:], doc.body))


def dead_links(
    ws: Workspace, doc: Document, from_root_too: bool = False, skill_folder: str | None = None, ignored_too: bool = True
) -> Iterator[tuple[int, int, str]]:
    """(line, column, message) for each relative Markdown link of ``doc`` that points
    at nothing, resolved from its folder (and, with ``from_root_too``, accepted when
    it names a file from the repository root). Reference definitions count where
    CommonMark reads them (``blocks.definitions``): never inside a paragraph. Given the
    folder of the skill ``doc`` belongs to, a link written ``{baseDir}/x`` is resolved
    from that folder (see ``BASE_DIR``); without one it is left alone, as a template.
    Without ``ignored_too``, a link to a path git ignores is left out: the file is kept
    out of the repository on purpose (a private note, a folder synced from elsewhere),
    on the machines that have it, and no clone can hold it."""
    dead = list(_dead(ws, link_tokens(ws, doc), parent(doc.path), from_root_too, skill_folder))
    if dead and not ignored_too:
        # One question to git for the file's dead links together.
        ignored = ws.ignored_by_git({where for *_, where in dead if not _climbs(where)})
        dead = [found for found in dead if found[3] not in ignored]
    for line, col, target, where in dead:
        yield line, col, _dead_message(target, where)


def ask_ignored_ahead(ws: Workspace, docs: Iterable[Document]) -> None:
    """Ask git once which of the dead links of ``docs`` (see ``dead_links``) lead to
    paths it ignores, for each file's ``dead_links(ignored_too=False)`` to find the
    answer kept: asked file by file, a tree of a thousand guidance files with dead
    links started a thousand git processes (3.1 s against 0.5 s)."""
    wanted = {where for doc in docs for *_, where in _dead(ws, link_tokens(ws, doc), parent(doc.path), False) if not _climbs(where)}
    if wanted:
        ws.ignored_by_git(wanted)


def _climbs(target: str) -> bool:
    return target == ".." or target.startswith("../")


# The skill-folder placeholder: OpenClaw's skills reference says "Use {baseDir} to
# reference the skill folder path" (docs/tools/skills.md). Outside a skill nothing
# says what it stands for, so such a link is left alone there.
BASE_DIR = "{baseDir}/"


def link_tokens(ws: Workspace, doc: Document) -> list[mentions.Token]:
    """Every Markdown link, image and reference definition target of ``doc``'s prose,
    as written; read once per document (MEM021, GDN002 and GDN023 each ask)."""
    if doc.error is not None or "[" not in doc.body:
        return []
    return ws.derived(doc, _link_tokens)


def _link_tokens(ws: Workspace, doc: Document) -> list[mentions.Token]:
    start = max(doc.body_line, 1)
    defined = blocks.definitions(doc.lines[start - 1 :], start) if "]:" in doc.body else {}
    return list(mentions.links(prose(ws, doc), defined))


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


def _dead(
    ws: Workspace, found: Iterable[mentions.Token], folder: str, from_root_too: bool, skill_folder: str | None = None
) -> Iterator[tuple[int, int, str, str]]:
    for link in found:
        if link.text.startswith(BASE_DIR):
            if skill_folder is None:
                continue
            target = mentions.link_path(link.text[len(BASE_DIR) :], skill_folder)
        else:
            target = mentions.link_path(link.text, folder)
        if target is None:
            continue
        if from_root_too and folder:
            from_root = mentions.link_path(link.text, "")
            if from_root is not None and from_root != ".." and not from_root.startswith("../") and ws.exists(from_root):
                continue
        if _climbs(target) or not ws.exists(target):
            yield link.line, link.col, link.text, target


def _dead_message(text: str, target: str) -> str:
    if _climbs(target):
        return f"link {text!r} climbs above the repository root; link to a file inside the repository or use a URL"
    hint = "use '/' between folders, not '\\'" if "\\" in target else "fix the path or remove the link"
    return f"link {text!r} points at {target}, which does not exist; {hint}"


def wiki_links(ws: Workspace, doc: Document) -> list[mentions.Token]:
    """The ``[[target]]`` links of ``doc`` (target without ``|alias`` or ``#heading``)."""
    if doc.error is not None or "[[" not in doc.body:
        return []
    return list(mentions.wiki_links(prose(ws, doc)))


def names_a_note(ws: Workspace, target: str, folder: str) -> bool:
    """Whether a [[wiki]] target names a file of the repository as a note vault
    (Obsidian's) resolves one: a Markdown file by its stem or by the end of its path
    (`[[Deploy Runbook]]`, `[[adr/0001-queue]]`, `[[notes/adr/0001-queue.md]]`),
    another file by its name (`![[diagram.png]]`), or a path from the linking file's
    folder (`[[../notes/x]]`).

    Case is folded: Obsidian takes the note whose path matches exactly, else one that
    matches but for case (vaults live on file systems that ignore case), so
    `[[deploy runbook]]` opens `Deploy Runbook.md`; whether some note matches is the
    same question with case folded. (A path from the linking file's folder is looked
    up as the file system has it.)"""
    if target.startswith(("./", "../")):
        path = posixpath.normpath(join(folder, target))
        return path != ".." and not path.startswith("../") and (ws.is_file(path) or ws.is_file(path + ".md"))
    wanted = target.strip("/").casefold()
    vault = ws.once(_vault)
    return vault.ends_a_note(f"{wanted}.md") or vault.ends_a_note(wanted) or wanted in vault.names


class _Vault:
    """The repository as a note vault, case folded: the names of its files that have
    an extension, and the endings of its Markdown files' paths (after a `/`), as a
    tree of their parts read from the end (`a/b/c.md`: `c.md`, then `b`, then `a`).

    The tree holds one entry per part, and only as many parts of each path as links
    have asked for (twice that, each time it grows): a file 1,500 folders deep adds a
    few entries for `[[adr/0001-queue]]`, not 1,500, nor its 1,500 endings as strings
    (a million characters)."""

    def __init__(self, paths: Sequence[str]) -> None:
        folded = [p.casefold() for p in paths]
        self._notes = [p for p in folded if p.endswith(".md")]
        self.names = frozenset(name for p in folded if not p.endswith(".md") and "." in (name := basename(p)).lstrip("."))
        self._endings: dict[
            tuple[int, str], int
        ] = {}  # (an ending's node, the part before it) -> the longer ending's node; 0: the empty one
        self._depth = 0  # how many parts of each path the tree holds

    def ends_a_note(self, wanted: str) -> bool:
        """Whether ``wanted`` (case folded) is the end of a Markdown file's path, after a `/`."""
        parts = wanted.split("/")
        if len(parts) > self._depth:
            self._grow(max(len(parts), 2 * self._depth))
        node = 0
        for part in reversed(parts):
            node = self._endings.get((node, part), 0)
            if not node:
                return False
        return True

    def _grow(self, depth: int) -> None:
        endings = self._endings
        for path in self._notes:
            node = 0
            for part in reversed(path.rsplit("/", depth)[-depth:]):  # the last parts only: split from the end
                node = endings.setdefault((node, part), len(endings) + 1)
        self._depth = depth


def _vault(ws: Workspace) -> _Vault:
    """The note vault, made once per run, when a link first names nothing in its store."""
    return _Vault(ws.tree_files)


def memory_elsewhere(ws: Workspace, folder: str, key: str) -> str | None:
    """A memory file of a store other than ``folder``'s whose ``name`` a link names (a
    file stem names a note of the repository, which the link may name: see
    ``names_a_note``)."""
    by_name = ws.once(_names_of_stores)
    return next((p for p in by_name.get(key, ()) if parent(p) != folder), None)


def _names_of_stores(ws: Workspace) -> dict[str, list[str]]:
    """Each memory ``name`` of the tree's stores, case folded -> its files (found once per run)."""
    found: dict[str, list[str]] = {}
    for store in ws.stores:
        for path in store.files:
            fm = ws.document(path).frontmatter
            name = fm.data.get("name") if fm is not None else None
            if isinstance(name, str) and name.strip():
                found.setdefault(name.strip().casefold(), []).append(path)
    return found


def loose(text: str) -> str:
    """A stem as a link probably meant it: '-', '_' and spaces ignored."""
    return text.replace("-", "").replace("_", "").replace(" ", "")


def nearest_stems(stems: dict[str, str]) -> dict[str, str]:
    """The stem a broken link probably meant, by the link's ``loose`` key: of the
    stems with that key, the first in the store's order."""
    nearest: dict[str, str] = {}
    for stem, path in stems.items():
        nearest.setdefault(loose(stem), basename(path)[:-3])
    return nearest
