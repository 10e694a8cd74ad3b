"""The index engine applied to one store of a workspace: its memories, its disk, its plan.

The engine's functions take a store's memories and callbacks for the disk and git;
these build them from a ``Workspace``, the same way for ``memcheck check``, ``fix``
and ``memcheck index``, so each command judges a store as the others do.
"""

from __future__ import annotations

import functools
import posixpath
import re
import shlex
from typing import TYPE_CHECKING, Sequence
from urllib.parse import unquote

from memcheck import lazy_regex
from memcheck.digests import sha1
from memcheck.index.memory import memory_of, reads_sentence
from memcheck.paths import basename, join, parent
from memcheck.records import NamedTuple
from memcheck.text import mentions
from memcheck.workspace.stores import INDEX_NAME, NOT_MEMORY, is_index_archive_name

if TYPE_CHECKING:
    from memcheck.index.memory import Exists, Ignored, Memory
    from memcheck.index.plan import Plan
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.stores import Store


def store_memories(ws: Workspace, store: Store) -> list[Memory]:
    return [memory_of(basename(p), ws.document(p)) for p in store.files]


def memories_key(ws: Workspace, store: Store) -> str:
    """One digest of what the index engine reads of each memory of ``store`` (see
    Memory): a memory's body changed past its first heading and sentence leaves it as
    it was, and an index judged before is judged the same (see checks/index/). Each
    memory's part is kept between runs: an unchanged memory is not read for it."""
    h = sha1()
    # Its own documents too: an archive of the index's entries (see archived) is one.
    for path in (*store.files, *store.own):
        facts = ws.of_file("index facts", path, lambda: _memory_facts(ws.document(path)), str, str)  # noqa: B023 (called at once)
        h.update(f"{path}\0{facts}\0".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _memory_facts(doc: Document) -> str:
    """The digest of what the index engine reads of a memory, then ``|`` and how many
    index entries its body holds (see listed_by_linked_indexes, which reads the count
    from here: a store's other memories are not read for it on a commit)."""
    memory = memory_of(basename(doc.path), doc)
    entries = _entries_in(doc.text)
    # The first sentence only where an entry can show it: most memories have a
    # description, and working out every memory's sentence was a tenth of a first run
    # of bench S's check (cachegrind, 1,114.5 M instructions with it, 1,015.5 M without).
    sentence = memory.sentence if reads_sentence(memory) else None
    seen = (memory._replace(body=""), memory.title, sentence, entries)
    return f"{sha1(repr(seen).encode('utf-8', 'surrogatepass')).hexdigest()}|{len(entries)}"


def store_exists(ws: Workspace, store: Store) -> Exists:
    """Whether a path relative to the store's folder names a file or folder on disk:
    git's listing first, then the disk (a folder, a file git ignores). A symlink git
    lists names something only when what it points at exists."""
    folder, files = store.folder, ws.file_set

    def exists(path: str) -> bool:
        full = join(folder, path) if path != "." else folder
        if full in files:
            # As the tree judged holds it (the disk, the commit, an older commit's
            # tree); a symlink out of the root, which the source never follows, as
            # the disk has it.
            return ws.exists(full) or (ws.source.link_out(full) is not None and bool(ws.on_disk("exists", full)))
        return ws.exists(full or ".")

    return exists


def store_ignored(ws: Workspace, store: Store) -> Ignored:
    """Of some paths relative to the store's folder, the ones git ignores."""

    def ignored(paths: Sequence[str]) -> set[str]:
        full = {join(store.folder, p): p for p in paths}
        return {full[p] for p in ws.ignored_by_git(full)}

    return ignored


def store_unstaged(ws: Workspace, store: Store) -> Ignored:
    """Of some paths relative to the store's folder that the tree judged does not hold,
    the ones on disk all the same, judging what is staged (a commit's hooks); none
    judging anything else. Whether the view is staged is asked only then: it is a
    question the cache notes, and a commit hook's check judges HEAD's tree and then
    the commit's, whose index findings are otherwise the same."""

    def unstaged(paths: Sequence[str]) -> set[str]:
        if not paths or ws.staged is None:
            return set()
        return {p for p in paths if ws.on_disk("exists", join(store.folder, p))}

    return unstaged


def store_plan(
    ws: Workspace, store: Store, existing: str | None, memories: list[Memory] | None = None, exists: Exists | None = None
) -> Plan:
    # The index engine, imported where a plan is made (not where a kept index is found).
    from memcheck.index.plan import plan

    if memories is None:
        memories = store_memories(ws, store)
    cfg = ws.config
    elsewhere = listed_by_linked_indexes(ws, store, existing, memories) if existing else frozenset()
    elsewhere |= archived(ws, store, existing, memories) | superseded(store, existing, memories)
    return plan(
        existing,
        memories,
        store_exists(ws, store) if exists is None else exists,
        cfg.memory.types,
        cfg.index.mode,
        cfg.index.style,
        store_folder=store.folder,
        ignored=store_ignored(ws, store),
        unstaged=store_unstaged(ws, store),
        caps=(cfg.index.max_lines, cfg.index.max_bytes),
        listed_elsewhere=elsewhere,
    )


# A link to a Markdown file anywhere in the index, and a list item that starts with one
# (an index's entry: `- [x](x.md) - ...`, `* **[x](x.md)**`).
_MD_LINK = lazy_regex.compile(r"\]\(<?([^()\s<>]+\.md)>?(?:\s[^)]*)?\)")
_ENTRY_LINK = lazy_regex.compile(r"^[ \t]*(?:[-*+]|\d+[.)]) +(?:\*\*|__)?\[[^\]\n]*\]\(<?([^()\s<>]+\.md)>?(?:\s[^)\n]*)?\)", re.MULTILINE)
# How many entries make a file an index of its own, rather than a memory that links a
# related one or two.
LINKED_INDEX_ENTRIES = 3


def listed_by_linked_indexes(ws: Workspace, store: Store, text: str, memories: Sequence[Memory]) -> frozenset[str]:
    """The memories that an index of the store's own, which the index links, lists: a
    curator who moves old entries out of MEMORY.md to keep it under the caps keeps them
    in an archive file and links it (`- [archive](memory_archive.md) - entries moved out
    ...`). An agent reading the index reaches them there, so they are listed, and `fix`
    does not pull them back. A linked file is such an index when it holds three or more
    entries linking Markdown files; one hop only, as an agent reading the index follows it."""
    names = {m.filename for m in memories}
    in_store = {*store.files, *store.own}
    found: set[str] = set()
    for target in sorted(set(_MD_LINK.findall(_prose(text)))):
        name = _store_relative(unquote(target))
        path = join(store.folder, name) if name is not None else ""
        # Files of the store only: their facts are what a kept judgment of the index is
        # keyed by (memories_key), so an archive edited is judged afresh.
        if name is None or name == INDEX_NAME or path not in in_store:
            continue
        found.update(_listed_by(name, _index_entries(ws, path), names))
    return frozenset(found)


def superseded(store: Store, text: str | None, memories: Sequence[Memory]) -> frozenset[str]:
    """The memories whose frontmatter names another memory of the store that supersedes
    them (``superseded_by: newer.md``, its stem, or its path from the repository's root),
    where that one is itself current or superseded in turn by a current one: history
    carried forward, which the index need not list and ``fix`` does not add. Not one
    the index links (``fix`` keeps its entry), nor one whose chain of successors ends
    nowhere: at a file the store does not hold (gone, a placeholder, another folder's),
    or back at itself (a cycle: no memory of it is current, and none reachable)."""
    names = {m.filename for m in memories}
    successor_of: dict[str, str] = {}
    for m in memories:
        successor = _successor(store, m.superseded_by)
        if successor is not None and successor in names and successor != m.filename:
            successor_of[m.filename] = successor
    if not successor_of:
        return frozenset()
    linked = _linked_from(text)
    known: dict[str, bool] = {}
    return frozenset(name for name in successor_of if name not in linked and _ends_current(name, successor_of, known))


def _ends_current(name: str, successor_of: dict[str, str], known: dict[str, bool]) -> bool:
    """Whether the chain of successors from ``name`` ends at a current memory (one no
    other supersedes) rather than in a cycle; each chain walked once (``known``)."""
    path: list[str] = []
    on_path: set[str] = set()
    current = name
    while current in successor_of and current not in known and current not in on_path:
        path.append(current)
        on_path.add(current)
        current = successor_of[current]
    ends = known.get(current, current not in successor_of)  # (on the path again: a cycle)
    for step in path:
        known[step] = ends
    return ends


def _successor(store: Store, value: str | None) -> str | None:
    """A ``superseded_by`` value as the file name of a memory of ``store``: a name, a
    stem, or a path from the repository's root into the store's folder."""
    value = (value or "").strip().strip("\"'")
    if value.startswith("./"):
        value = value[2:]
    folder, _, name = value.rpartition("/")
    if folder and folder != store.folder:
        return None
    if not name:
        return None
    return name if name.endswith(".md") else name + ".md"


def _listed_by(name: str, entries: Sequence[str], names: set[str]) -> set[str]:
    """Of ``names``, the memories that ``entries`` (the links of the store's file
    ``name``, relative to it) name."""
    here = parent(name)
    return {e for e in (_store_relative(unquote(join(here, t)) if here else unquote(t)) for t in entries) if e in names}


def archived(ws: Workspace, store: Store, text: str | None, memories: Sequence[Memory]) -> frozenset[str]:
    """The memories that the store's archives of its index list, linked from the index
    or not: its own documents named as the index's archive (``MEMORY-archive.md``, see
    stores.is_index_archive_name) that hold three entries or more. A curator moved
    those entries out of MEMORY.md on purpose, to keep it under its caps (unlinked, so
    that agents do not load the archive either): they are listed, and ``fix`` does not
    pull them back. Not a memory the index links itself: ``fix`` keeps its entry."""
    if not store.own:
        return frozenset()
    names = {m.filename for m in memories} - _linked_from(text)
    found: set[str] = set()
    for path in store.own:
        name = path[len(store.folder) + 1 :] if store.folder else path
        if is_index_archive_name(basename(path)):
            found |= _listed_by(name, _index_entries(ws, path), names)
    return frozenset(found)


def _linked_from(text: str | None) -> set[str | None]:
    """What the index links, as paths from the store's folder, outside code and HTML
    comments (which link nothing)."""
    return {_store_relative(unquote(t)) for t in _MD_LINK.findall(_prose(text or ""))}


@functools.lru_cache(maxsize=4)
def _prose(text: str) -> str:
    """``text`` with its code spans, fenced blocks and HTML comments blanked out (an
    index's text is asked for its links three times as it is judged: worked out once)."""
    return text if mentions.masks_nothing(text) else "\n".join(mentions.prose(text.split("\n")))


def _index_entries(ws: Workspace, path: str) -> tuple[str, ...]:
    """The entries of the store's file ``path`` where it is an index of its own (three
    entries or more), else none."""
    if _entry_count(ws, path) < LINKED_INDEX_ENTRIES:
        return ()  # most linked files are memories, not indexes: nothing more is read
    entries: tuple[str, ...] = ws.of_file("index-entries", path, lambda: _entries_in(ws.document(path).text), list, _entries_kept)
    return entries if len(entries) >= LINKED_INDEX_ENTRIES else ()


def _entry_count(ws: Workspace, path: str) -> int:
    """How many index entries the store's file ``path`` holds: from its kept facts where
    this run keeps them (a commit then reads no other memory for it), else counted in
    its text. A first run keeps no facts, and working out those of every memory an
    index links, for their count alone, was a tenth of a first run of bench S's check
    (cachegrind: 1,577.0 M instructions with them, see the commit that added this)."""
    if ws.keeps_pieces:
        facts = ws.of_file("index facts", path, lambda: _memory_facts(ws.document(path)), str, str)
        return int(facts.rpartition("|")[2] or 0)
    return len(_entries_in(ws.document(path).text))


def _entries_kept(kept: object) -> tuple[str, ...]:
    return tuple(str(entry) for entry in kept) if isinstance(kept, list) else ()


def _entries_in(text: str) -> tuple[str, ...]:
    return tuple(_ENTRY_LINK.findall(text)) if "](" in text else ()


def _store_relative(target: str) -> str | None:
    """A link's target as a path from the store's folder, or None for one that leaves it
    or is not a plain relative path (a URL, an absolute path)."""
    if "://" in target or target.startswith(("/", "#")):
        return None
    norm = posixpath.normpath(target)
    return None if norm.startswith("..") or norm == "." else norm


def odd_index(ws: Workspace, path: str) -> str | None:
    """What a store's MEMORY.md is, and what follows, when it is on disk but not a
    file memcheck reads and writes: a folder, a symlink that leaves the repository
    or points at nothing."""
    if ws.on_disk("islink", path):
        target = ws.link_target(path)
        if not ws.on_disk("exists", path):
            return f"a symlink to {target}, which does not exist: agents load no index from it"
        if not ws.is_inside_root(path):
            return f"a symlink to {target}, outside the repository: other clones get no index from it, and memcheck does not read it"
        if ws.on_disk("isdir", path):
            return f"a symlink to the folder {target}: agents load no index from it"
        return None
    if ws.on_disk("isdir", path):
        return "a folder, not a file: agents load no index from it"
    return None


class Elsewhere(NamedTuple):
    """A store's index found one folder away from it (see index_elsewhere)."""

    path: str
    through_folder: bool  # it names most of the memories by a path (`memory/a.md`), not by name alone


def index_elsewhere(ws: Workspace, store: Store) -> Elsewhere | None:
    """The MEMORY.md one folder up or one folder down from a store without one that
    is this store's index put in the wrong place: it names (links to, or writes out)
    the file names of more than half of the store's memories, and is no other store's
    own index. The one that names most, the folder up first on a tie.

    Linear in the tree: each candidate's names are read once (however many stores
    sit below it), and a store is matched against them by lookups."""
    if not store.files:
        return None
    candidates = ws.once(_indexes_by_folder).get(store.folder, [])
    up = join(parent(store.folder), INDEX_NAME) if store.folder else None
    if up is not None:
        if not ws.excludes(up) and ws.is_file(up):
            candidates = [up, *candidates]
    mine = {basename(p) for p in store.files}
    best, most = None, len(mine) // 2  # more than half
    for path in candidates:
        if ws.special_kind(path) is not None:
            continue  # a FIFO is never read: it could block
        doc = ws.document(path)
        if doc.error is not None:
            continue
        by_name, by_path = ws.derived(doc, _names_written)
        count = len(mine & (by_name | by_path))
        if count > most and not ws.derived(doc, _is_own_index) and not (path == up and _also_lists_a_sibling(ws, store, by_name | by_path)):
            best, most = Elsewhere(path, 2 * len(mine & by_name) <= len(mine)), count
    return best


def _also_lists_a_sibling(ws: Workspace, store: Store, names: frozenset[str] | set[str]) -> bool:
    """Whether the index one folder up lists most of another index-less folder beside
    the store too: it is then the index of both, and moving it into either leaves the
    other without one (two contradicting `git mv`). Worked out once per index above:
    asked afresh by each of its stores, it was work per pair of sibling stores."""
    listed = ws.once(_SiblingsListed)
    up = parent(store.folder)
    if up not in listed:
        markdown = ws.markdown_by_folder
        listed[up] = set()
        for folder in ws.once(_folders_by_parent).get(up, ()):
            found = markdown[folder]
            theirs = {n for n in found if n not in NOT_MEMORY}
            if INDEX_NAME not in found and theirs and 2 * len(theirs & names) > len(theirs):
                listed[up].add(folder)
    return bool(listed[up] - {store.folder})


class _SiblingsListed(dict[str, set[str]]):
    """Folder holding an index -> the index-less folders below it whose memories that
    index lists most of."""

    def __init__(self, ws: Workspace) -> None:
        super().__init__()


def move_advice(elsewhere: Elsewhere, index: str) -> str:
    """What to do with a store's index found in the wrong folder, and why ``fix``
    writes none in the store's."""
    move = f"`git mv {shlex.quote(elsewhere.path)} {shlex.quote(index)}`"
    relink = ", then make its links name the files beside it" if elsewhere.through_folder else ""
    return f"{elsewhere.path} lists its memories: agents load a store's index only from its own folder, so `memcheck fix` writes no second one; move it there: {move}{relink}"


def _folders_by_parent(ws: Workspace) -> dict[str, list[str]]:
    """Folder -> the folders with Markdown files directly below it (one pass over them)."""
    below: dict[str, list[str]] = {}
    for folder in sorted(ws.markdown_by_folder):
        if folder:
            below.setdefault(parent(folder), []).append(folder)
    return below


def _indexes_by_folder(ws: Workspace) -> dict[str, list[str]]:
    """Folder -> the MEMORY.md files one folder down from it, sorted."""
    below: dict[str, list[str]] = {}
    for folder, names in sorted(ws.markdown_by_folder.items()):
        if folder and INDEX_NAME in names:
            below.setdefault(parent(folder), []).append(join(folder, INDEX_NAME))
    return below


# What a file name can be part of: split at spaces, path separators and the
# characters Markdown puts around a link's target (`memory/a.md`, `(a.md#top)`).
_WORD = lazy_regex.compile(r"[^\s/\\()\[\]<>`'\"|*#?]+")


def _names_written(ws: Workspace, doc: Document) -> tuple[frozenset[str], frozenset[str]]:
    """The Markdown file names an index's text names anywhere: (by name alone, at
    the end of a path). `caf%C3%A9.md` reads as `café.md`; a sentence's last
    punctuation is not part of the name."""
    text = doc.text
    alone: set[str] = set()
    pathed: set[str] = set()
    for m in _WORD.finditer(text):
        word = m.group().rstrip(".,;:!")
        if word.endswith(".md") and len(word) > 3:
            start = m.start()
            into = pathed if start and text[start - 1] in "/\\" else alone
            into.add(unquote(word) if "%" in word else word)
    return frozenset(alone), frozenset(pathed)


def _is_own_index(ws: Workspace, doc: Document) -> bool:
    """The index of the store in its own folder (judged on that folder's files)."""
    return any(s.has_index for s in ws.stores_among([parent(doc.path)]))
