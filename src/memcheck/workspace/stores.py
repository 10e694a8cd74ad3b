"""Memory stores: folders of memory files, found by a ``memory.stores`` glob or by
their MEMORY.md beside files whose frontmatter makes them memories."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from memcheck.paths import basename, join
from memcheck.records import NamedTuple

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.workspace.files import Files

INDEX_NAME = "MEMORY.md"
# Never memory files, even inside a store folder.
NOT_MEMORY = frozenset({INDEX_NAME, "README.md"})


# A file named in capitals (SOUL.md, USER.md, LAST_SESSION.md) without any memory
# field is, like README.md, the store's own document: a harness's identity file or
# session log, which agents load by name, not through the index (on real
# repositories, 7 of 7 findings on such files were judged unwanted). The memory
# rules and the index leave it alone; the secret and hidden-text rules read it, as
# the agents that load it do (``Store.own``).
def _own_document_name(name: str) -> bool:
    # Capitals in any script (ÉTÉ.md as SOUL.md), digits, `_` and `-`. Most memories'
    # names start with a small ASCII letter: told by that alone (10,000 names on M).
    if "a" <= name[:1] <= "z":
        return False
    if is_index_archive_name(name):
        return True
    stem = name[:-3] if name.endswith(".md") else ""
    return (
        bool(stem) and stem[0].isalpha() and stem == stem.upper() and stem != stem.lower() and all(c.isalnum() or c in "_-" for c in stem)
    )


def is_index_archive_name(name: str) -> bool:
    """A name made of the index's and a word that says archive (``MEMORY-archive.md``,
    ``MEMORY_2025.md``, ``MEMORY.old.md``, ``MEMORY-history.md``): where a curator keeps
    entries moved out of MEMORY.md to keep it under its caps. Without memory fields it
    is the store's own document, an index of its own (see index/store.archived), never
    a memory. Not another word (``MEMORY-draft.md``, ``MEMORY_deploy.md``: a draft, a
    topic file), and not the index's name in another case (``memory-archive.md``)."""
    if not (name.startswith("MEMORY") and name[6:7] in ("-", "_", ".") and name.endswith(".md")):
        return False
    rest = name[7:-3].lower()
    return rest[:1].isdigit() or rest.startswith(_ARCHIVE_WORDS)


# What the name of an archive of the index says after MEMORY and a separator.
_ARCHIVE_WORDS = ("archive", "old", "history", "past", "previous", "backup")


def names_index_archive(path: str) -> bool:
    """Whether a link's target names an archive of the index, in any case
    (``memory-archive.md``: the archive on a checkout that ignores case)."""
    return "/" not in path and path[:6].upper() == "MEMORY" and is_index_archive_name("MEMORY" + path[6:])


class Store(NamedTuple):
    folder: str  # repository-relative; "" for the root
    files: tuple[str, ...]  # memory files, sorted
    has_index: bool
    by_glob: bool  # named by memory.stores, rather than found by its frontmatter
    # False for a folder found by its MEMORY.md whose files have not been read yet to
    # tell whether they are memories (see stores_among and is_store).
    judged: bool = True
    # Would-be memory files that are symlinks out of the root: never read, not in
    # ``files`` (so never listed by fix), each reported. Sorted.
    outside: tuple[str, ...] = ()
    # The store's own documents (see _own_document_name), regular files: no memory
    # rule reads them and fix never lists them, but agents load them by name, so they
    # are agent files all the same (``Targets.agent_files``). Sorted.
    own: tuple[str, ...] = ()

    @property
    def index(self) -> str:  # type: ignore[override]  # (in place of tuple's index(): never called on a Store)
        return join(self.folder, INDEX_NAME)

    @property
    def all_files(self) -> tuple[str, ...]:
        """Every file of the store that its check reads: its memories, its index and
        its own documents (a path may name no file: a store without an index)."""
        return (*self.files, self.index, *self.own)


def stores_among(
    ws: Files,
    folders: Iterable[str],
    judge: bool = True,
    lost_index: frozenset[str] = frozenset(),
    were_stores: frozenset[str] = frozenset(),
) -> tuple[Store, ...]:
    """The stores among ``folders``, sorted. Each folder is judged on its own files,
    so judging a few folders gives what judging the whole tree would give for them.

    With ``judge`` False, a folder that only its MEMORY.md makes a candidate comes
    back unjudged (``judged`` False) and ``is_store`` decides later: the reading
    that takes can then be shared out between processes with the checking.
    ``lost_index``: folders whose MEMORY.md the change deletes, judged as if it
    were still there (a store it alone made is still one, now without an index).
    ``were_stores``: folders that the tree a change is compared with has as stores,
    each one still, whatever share of its files the change leaves memories."""
    found: list[Store] = []
    markdown = ws.markdown_by_folder
    for folder in sorted(folders):
        names = markdown.get(folder)
        if names is None:
            continue
        has_index = INDEX_NAME in names
        by_glob = ws.is_named_store(folder)
        if not by_glob and not has_index and folder not in lost_index and folder not in were_stores:
            continue  # cheap test first: most folders with Markdown are not stores
        if not has_index and ws.listed_by_git:
            # A store in a folder git ignores, its memories committed with `git add
            # -f`: its MEMORY.md is on disk even though git does not list it (and
            # agents read it), or `fix` would write it on every run.
            index = join(folder, INDEX_NAME)
            has_index = not ws.excludes(index) and ws.is_file(index)
        regular = ws.source.regular_files_in(folder)
        md: list[str] = []
        outside: list[str] = []
        own: list[str] = []
        for name in sorted(names):
            if name in NOT_MEMORY:
                continue
            path = join(folder, name)
            if name in regular or ws.is_file(path):
                if _own_document_name(name) and not _memory_fields(ws.document(path)):
                    own.append(path)
                else:
                    md.append(path)
            elif ws.link_out(path) is not None:
                # A name in capitals too: whether the file is a memory or the store's own
                # document cannot be told without following the link, and the agent
                # that loads it reads what the link names either way.
                outside.append(path)
        kept = folder in were_stores
        if not by_glob and judge and not kept and not _memory_siblings(ws, md):
            continue
        found.append(
            Store(
                folder,
                tuple(md),
                has_index and ws.is_file(join(folder, INDEX_NAME)),
                by_glob,
                by_glob or judge or kept,
                tuple(outside),
                tuple(own),
            )
        )
    return tuple(found)


def is_store(ws: Files, store: Store) -> bool:
    """Whether a store from ``stores_among`` is one (only unjudged ones can be not)."""
    return store.judged or _memory_siblings(ws, list(store.files))


def _memory_siblings(ws: Files, md: list[str]) -> bool:
    # A MEMORY.md beside ordinary documents is not a store: most siblings must be memories.
    candidates = [p for p in md if basename(p) not in ws.config.guidance.filenames]
    if not candidates:
        return False
    # Stop reading once half are memories: on large trees the documents read here
    # wait in memory until their store is checked.
    need = (len(candidates) + 1) // 2
    hits = 0
    for p in candidates:
        hits += _looks_like_memory(ws.document(p), ws.config.memory.types)
        if hits >= need:
            return True
    return False


def _memory_fields(doc: Document) -> bool:
    """Whether the frontmatter holds any of a memory's fields."""
    fm = doc.frontmatter
    return fm is not None and any(key in fm.data for key in ("name", "description", "type", "metadata"))


def _looks_like_memory(doc: Document, types: Iterable[str]) -> bool:
    fm = doc.frontmatter
    if fm is None:
        return False
    data = fm.data
    kind = data.get("type")
    if kind is None and isinstance(data.get("metadata"), dict):
        kind = data["metadata"].get("type")
    return kind in set(types) or ("name" in data and "description" in data and "type" in data)
