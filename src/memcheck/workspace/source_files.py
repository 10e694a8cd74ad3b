"""The files of a source (``SourceFiles``): what the listing holds, each file read at
most once per run, and what the disk says of a path, each read and question noted
where a cache keeps a part's findings (``track``).

The tree is what the source lists (see source.py): on disk, what git sees (tracked
files plus untracked ones it does not ignore), outside a repository every file below
the root; ``.git`` is skipped and no symlink is followed out of the root. This class
knows no store, guidance file or skill: those are found among its files
(workspace/found.py), and what is worked out from them is kept by
workspace/derived.py; ``discover.Workspace`` is all three.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Callable, Iterable, Literal, Sequence

from memcheck.paths import split
from memcheck.text import patterns
from memcheck.text.document import Document
from memcheck.workspace.disk import DiskSource
from memcheck.workspace.source import OUTSIDE_LINK, Source
from memcheck.workspace.tracking import Answer, TrackedSource, Tracker, listing_digest, on_disk, untracked

if TYPE_CHECKING:
    from memcheck.config import Config
    from memcheck.workspace.staged import StagedFiles


class SourceFiles:
    """The files of one run's tree, and what has been read of them."""

    user: bool = False  # the user-level locations under $HOME, not a repository
    cut_short: tuple[str, ...] = ()  # (--user) the folders walked only in part, each a line saying so
    # Paths never read: symlinks out of the root that finding the files' kinds found
    # among them (see found.FoundFiles); a document of one is an error.
    _outside: frozenset[str] = frozenset()

    def __init__(self, config: Config, source: Source | None = None) -> None:
        """``source``: what the files are read from; by default the work tree at the
        config's root (``DiskSource``)."""
        self.config = config
        self.root = config.root
        self.source: Source = source if source is not None else DiskSource(config.root)
        listing = self.source.listing()
        self.in_git = listing.in_git
        self.partial = listing.partial  # files of some folders only (a hook run on memory files)
        # Files of the tree that git's listing leaves out are ones it ignores (only
        # when the listing is git's own: given files, or a walk, leave nothing out).
        self.listed_by_git = listing.by_git
        listed = self._listed = listing.files
        self._excluded: Callable[[str], bool] | None = None
        if config.exclude:
            excluded = patterns.gitignore(config.exclude).match
            listed = [p for p in listed if not excluded(p)]
            self._excluded = excluded
        self.files: list[str] = listed
        self._documents: dict[str, Document] = {}
        self._git_ignored: dict[str, bool] = {}  # path -> git ignores it (see ignored_by_git)
        # Paths ``forget`` leaves in memory: the language server keeps the documents of
        # the stores its edits check (the next edit would read and parse them again).
        self.kept: set[str] | frozenset[str] = frozenset()
        self.tracker: Tracker | None = None  # what each part reads, while a cache is kept (see track)

    def track(self, tracker: Tracker) -> None:
        """From now on, note what is read and asked in ``tracker`` (see
        workspace/tracking.py): the cache keeps each part's findings with it."""
        self.tracker = tracker
        self.source = TrackedSource(self.source, tracker)

    @property
    def staged(self) -> StagedFiles | None:
        """git's index, when the tree judged is the one a commit made now would hold."""
        staged = self.source.staged
        if self.tracker is not None:  # a commit's tree and the same tree at HEAD differ only by this
            self.tracker.asked("staged", "", staged is not None)
        return staged

    def take_listing(self, other: SourceFiles) -> None:
        """Take over which folders hold which files from ``other``, on the same listing
        (see discover.Workspace.reuse_listing)."""
        take_cached(self, other, ("file_set", "_names_by_folder", "markdown_by_folder"))

    def take_documents(self, other: SourceFiles, dropped: set[str]) -> None:
        """Take over the documents ``other`` read but for the ``dropped`` paths (see
        discover.Workspace.reuse_documents)."""
        # Built whole, then merged: one pass in C over a tree's thousands of documents
        # (a setdefault per entry cost an edit a millisecond on the M tree).
        documents = {path: doc for path, doc in other._documents.items() if path not in dropped}
        documents.update(self._documents)
        self._documents = documents

    @cached_property
    def file_set(self) -> frozenset[str]:
        """The files, for membership tests (built once, not once per store)."""
        return frozenset(self.files)

    @cached_property
    def tree_files(self) -> Sequence[str]:
        """Every file of the tree, those the config excludes from checking included:
        what a link may name. Where the run listed some folders only (a hook run on
        memory files), git lists the rest, once, when this is first asked. Where the
        run's cache key does not tell them (see ``tree_files_key``), asking for them is
        a question of its own."""
        if self.tracker is not None and self.tree_files_key:
            self.tracker.asked("tree_files", "", self.tree_files_key)
        return self._tree_listing

    @cached_property
    def tree_files_key(self) -> str:
        """A digest of ``tree_files`` where the run's cache key, which holds ``files``,
        does not tell them: a run that listed some folders only, or a config that
        excludes some files (whatever a link finds among those); else "". Work kept
        by a memory's content alone that looks names up in them holds it in its key."""
        if not self.partial and self._excluded is None:
            return ""
        return listing_digest(self._tree_listing)

    @cached_property
    def _tree_listing(self) -> Sequence[str]:
        source = untracked(self.source)
        whole: Callable[[], list[str]] | None = getattr(source, "whole_listing", None)  # the disk's and a commit's
        return whole() if self.partial and whole is not None else self._listed

    def document(self, path: str) -> Document:
        doc = self._documents.get(path)
        if doc is None:
            if path not in self._outside:
                # (Tracked, the source notes the read itself: not noted twice.)
                doc = self._documents[path] = self.source.read(path)
                return doc
            doc = self._documents[path] = Document(path, error=OUTSIDE_LINK)  # a symlink out of the root is never followed
        tracker = self.tracker
        if tracker is not None:
            key = doc.key
            # (Noted already in the frame under way, this very content: nothing to note.)
            if tracker.settled.get(path) is not key:
                tracker.read(path, key)
        return doc

    def forget(self, paths: Iterable[str]) -> None:
        """Drop documents no check will read again (read again if one does)."""
        for path in set(paths).difference(self.kept):
            self._documents.pop(path, None)

    def forget_all(self) -> None:
        """Drop every document read so far (see ``forget``)."""
        self.forget(list(self._documents))

    def on_disk(self, kind: Literal["is_file", "exists", "isdir", "islink"], path: str) -> bool:
        """What the disk itself says of ``path``, past the source (is it a file, a
        link, a folder): noted as a question, so that a cache knows the answer is part
        of what a part depends on."""
        return bool(self._ask_disk(kind, path))

    def link_target(self, path: str) -> str | None:
        """What the symlink at ``path`` names, as it names it (None: no symlink there)."""
        found = self._ask_disk("readlink", path)
        return found if isinstance(found, str) else None

    def real_path(self, path: str) -> str:
        """``os.path.realpath`` of ``path``, from the root."""
        return str(self._ask_disk("realpath", path))

    def _ask_disk(self, kind: str, path: str) -> Answer:
        answer = on_disk(self.root, kind, path)
        if self.tracker is not None:
            self.tracker.asked("disk_" + kind, path, answer)
        return answer

    def is_inside_root(self, path: str) -> bool:
        """False for a path whose symlinks lead out of the root (never followed)."""
        return self.source.is_inside_root(path)

    def link_out(self, path: str) -> str | None:
        """The target of a symlink at ``path`` that leads out of the root (never
        followed), as the link names it. In the user's home folder (``--user``) the
        links are the user's own: none is reported, though none is followed either."""
        return None if self.user else self.source.link_out(path)

    def ignores(self, path: str) -> bool:
        """A file that is on disk but that git's listing leaves out: git ignores it.
        (The staged view lists no untracked file at all, ignored or not.)"""
        # Whether the view is staged is asked last: only a file on disk that the listing
        # leaves out gets that far (a commit's tree and HEAD's answer alike before it).
        return self.listed_by_git and path not in self.file_set and self.is_file(path) and self.staged is None

    def excludes(self, path: str) -> bool:
        """The config's ``exclude`` names ``path``."""
        return self._excluded is not None and self._excluded(path)

    def special_kind(self, path: str) -> str | None:
        """ "a FIFO", "a socket" or "a device" for such a file (or a link to one)
        inside the root: git lists none of them, and reading one could block."""
        return self.source.special_kind(path)

    def ignored_by_git(self, paths: Iterable[str]) -> set[str]:
        """Of these paths (on disk or not), the ones git ignores: asked once per set of
        paths not asked before, never once per path."""
        if not self.listed_by_git:
            return set()
        known = self._git_ignored
        wanted = sorted(p for p in set(paths) if p not in known)
        if wanted:
            hits = self.source.git_ignored(wanted)
            known.update((p, p in hits) for p in wanted)
        return {p for p in paths if known[p]}

    def exists(self, path: str) -> bool:
        """A file or folder inside the root (a link to a folder names one); in the
        staged view, one the commit holds."""
        return self.source.exists(path)

    def is_file(self, path: str) -> bool:
        return self.source.is_file(path)

    @property
    def folders_with_markdown(self) -> Iterable[str]:
        return self.markdown_by_folder.keys()

    @cached_property
    def markdown_by_folder(self) -> dict[str, list[str]]:
        """Folder -> the names of the Markdown files directly in it (folders with none left out)."""
        return {folder: md for folder, names in self._names_by_folder.items() if (md := [n for n in names if n.endswith(".md")])}

    @property
    def listed_folders(self) -> Iterable[str]:
        """The folders that hold a listed file directly."""
        return self._names_by_folder.keys()

    def names_in(self, folder: str) -> set[str]:
        """Names of the files directly inside ``folder``."""
        return set(self._names_by_folder.get(folder, ()))

    @cached_property
    def _names_by_folder(self) -> dict[str, list[str]]:
        folders: dict[str, list[str]] = {}
        for path in self.files:
            folder, name = split(path)
            folders.setdefault(folder, []).append(name)
        return folders


def take_cached(into: object, other: object, names: Iterable[str]) -> None:
    """Copy the ``cached_property`` values ``other`` has worked out and ``into`` has not."""
    mine, theirs = into.__dict__, other.__dict__
    for name in names:
        if name in theirs and name not in mine:
            mine[name] = theirs[name]
