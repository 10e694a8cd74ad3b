"""What a part of a check read: the files and the questions about the tree that its
findings depend on, so that a cache can tell later whether they still hold.

A ``Tracker`` sits on a ``Workspace`` while the cache is on. Every document a check
reads through the workspace, and every question it asks the source beyond reading
(is there a file here, is it a link out, does git ignore it), is noted in the frame of
the work under way: a part, or a value the workspace works out once (``once``,
``derived``) and hands to every part that asks after. A value's own reads are kept with
it, so a part that takes it over from an earlier part still depends on what it read
(``closure``). What is read before any part starts (finding the stores, the guidance
files and the skills) is every part's.

This is ruff's cache with the dependencies found by watching rather than declared: a
rule that reads one more file is tracked without anyone listing it.
"""

from __future__ import annotations

import datetime
import os
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Collection, Iterator, Protocol, Sequence, TypeVar, Union

from memcheck.digests import sha1

if TYPE_CHECKING:
    from memcheck.text.document import Document, OfContent
    from memcheck.workspace.source import Entry, Listing, Source
    from memcheck.workspace.staged import StagedFiles

T = TypeVar("T")
W = TypeVar("W")  # the workspace an OfContent value is worked out in

# A question to the source: (method, argument); its answer is a string, a bool, None
# or a tuple of them, so that it can be written down and asked again.
Question = tuple[str, str]


class Frame:
    """What one part read and asked while it was checked."""

    __slots__ = ("reads", "questions", "own")

    def __init__(self, own: frozenset[str] = frozenset()) -> None:
        self.reads: dict[str, str | None] = {}  # path -> the content key of what was read (None: not known)
        self.questions: dict[Question, object] = {}
        self.own = own  # the part's own files: no other part depends on its reading them


class KeptValues(Protocol):
    keeps_pieces: bool  # whether ``remembered`` and ``of_file`` keep anything this run

    def value(self, compute: OfContent[W, T], doc: Document, work: Callable[[], T]) -> T:
        """``compute``'s value for ``doc``: kept from an earlier run, else ``work()``, kept."""

    def remembered(
        self,
        key: Callable[[], str],
        work: Callable[[], T],
        encode: Callable[[T], object],
        decode: Callable[[object], T],
        covers: Collection[str] = (),
    ) -> T:
        """``work()``, kept from an earlier run where ``key()`` was the same and every
        question it asked the tree has the same answer; else worked out, and kept."""

    def of_file(
        self, name: str | Callable[[], str], path: str, work: Callable[[], T], encode: Callable[[T], object], decode: Callable[[object], T]
    ) -> T:
        """``remembered``, keyed by the content of the file at ``path`` (not read to know it)."""


class Tracker:
    """What this process read and asked, for the parts it checks.

    A part's findings depend on what it reads and asks itself, and on what it takes
    over from the values the workspace works out once (``once``, ``derived``) and
    from memos that earlier parts of the same process filled. Which part filled which
    memo is not followed: each part is taken to depend on everything this process
    read and asked (its ``context``) but the files that other stores' checks read as
    their own (a store's memories and index are read for that store only; what is
    worked out once from them, as every memory's name, is read in a value's frame and
    so stays in the context). A superset of what a part needs: a cache keyed by it
    never answers wrongly, and only misses a little more often."""

    def __init__(self) -> None:
        self.context_reads: dict[str, str | None] = {}
        # A file read twice in the run, with different content the second time (written
        # while memcheck ran): nothing this process found is kept.
        self.unsteady = False
        self.context_questions: dict[Question, object] = {}
        self._parts: list[Frame] = []  # the part under way (one at a time)
        self._values = 0  # how deep in working out a remembered value
        # The reads that reading a path again would leave as they are (path -> its key):
        # the frame under way's, or the context's outside any part; none while a value is
        # worked out in a part (its reads go to the context too: see ``read``). A check
        # asks for each document several times (73,650 asks of 11,550 documents on
        # bench/'s M tree): the Workspace looks here before noting a read again.
        self.settled: dict[str, str | None] = self.context_reads
        # Whether the cache held nothing when this workspace's run began (see Cache.empty).
        self.cache_was_empty: bool | None = None
        # Whether a store's pieces are kept even then: where another workspace of the
        # same run checks the same stores next (see engine/since.py).
        self.pieces_serve_this_run = False
        # While a store is checked: the values of its files' content kept from earlier
        # runs (see Workspace.derived and document.OfContent).
        self.kept: KeptValues | None = None

    def read(self, path: str, key: str | None) -> None:
        """A file was read; ``key``: its content's (see document.content_key). Called
        on every document a check asks for, so written out rather than factored."""
        if self._parts:
            reads = self._parts[-1].reads
            known = reads.get(path)
            if known is None:
                reads[path] = key
            elif key is not None and key != known:
                self.unsteady = True
            if self._values == 0 and path in self._parts[-1].own:
                return
        known = self.context_reads.get(path)
        if known is None:
            self.context_reads[path] = key
        elif key is not None and key != known:
            self.unsteady = True

    def asked(self, method: str, argument: str, answer: object) -> None:
        question = (method, argument)
        if self._parts:
            self._parts[-1].questions[question] = answer
        self.context_questions[question] = answer

    # Work whose result is remembered for later parts (``Workspace.once`` and
    # ``derived``): what it reads is the context's. Counted in and out by the caller
    # rather than through a context manager: thousands of values a run.
    def start_value(self) -> None:
        self._values += 1
        if self._parts:
            self.settled = _NONE_SETTLED

    def end_value(self) -> None:
        self._values -= 1
        self._settle()

    def _settle(self) -> None:
        """``settled`` for the frame under way (see __init__)."""
        if not self._parts:
            self.settled = self.context_reads
        else:
            self.settled = self._parts[-1].reads if self._values == 0 else _NONE_SETTLED

    @contextmanager
    def part(self, own: Sequence[str] = ()) -> Iterator[Frame]:
        frame = Frame(frozenset(own))
        self._parts.append(frame)
        self._settle()
        try:
            yield frame
        finally:
            self._parts.pop()
            self._settle()

    @contextmanager
    def piece(self) -> Iterator[Frame]:
        """A piece of the part under way (one memory's links, say) whose result is kept
        on its own (see engine/store_values.StoreValues.remembered): what it reads and asks is
        noted in a frame of its own, and the part's too, as if asked there."""
        outer = self._parts[-1] if self._parts else None
        frame = Frame(outer.own if outer is not None else frozenset())
        self._parts.append(frame)
        self._settle()
        try:
            yield frame
        finally:
            self._parts.pop()
            self._settle()
            if outer is not None:
                for path, key in frame.reads.items():
                    known = outer.reads.get(path)
                    if known is None:
                        outer.reads[path] = key
                    elif key is not None and key != known:
                        self.unsteady = True
                outer.questions.update(frame.questions)


# ``Tracker.settled`` where every read must be noted (never written to).
_NONE_SETTLED: dict[str, str | None] = {}


def listing_digest(files: Sequence[str]) -> str:
    """One string for a list of paths, to compare listings by."""
    return sha1("\0".join(files).encode("utf-8", "surrogateescape")).hexdigest()


def names_digest(names: frozenset[str]) -> str:
    """The answer noted for ``regular_files_in``: the digest of the names, not the names.
    Every store's folder is asked during discovery, so every process's context holds
    the answer for each (on bench/'s M tree 300 folders of 100 names: 0.6 of the 0.7 MB
    of JSON the run's last write makes, at its peak memory)."""
    return listing_digest(sorted(names))


def _plain(answer: object) -> object:
    """An answer as the cache writes it down: sets as sorted tuples, an entry as a tuple."""
    if isinstance(answer, (set, frozenset)):
        return tuple(sorted(answer))
    if isinstance(answer, tuple):
        return tuple(_plain(a) for a in answer)
    if isinstance(answer, list):
        return tuple(answer)
    return answer


class TrackedSource:
    """A source that tells the tracker what is read and asked of it. Reads are noted
    by the workspace (which keeps the documents); the questions here."""

    def __init__(self, source: Source, tracker: Tracker) -> None:
        self.inner = source
        self._tracker = tracker

    @property
    def staged(self) -> StagedFiles | None:
        return self.inner.staged

    def listing(self) -> Listing:
        return self.inner.listing()

    def read(self, path: str) -> Document:
        doc = self.inner.read(path)
        self._tracker.read(path, doc.key)
        return doc

    def _ask(self, method: str, path: str, answer: object) -> object:
        self._tracker.asked(method, path, _plain(answer))
        return answer

    def is_file(self, path: str) -> bool:
        found = self.inner.is_file(path)
        self._ask("is_file", path, found)
        return found

    def exists(self, path: str) -> bool:
        found = self.inner.exists(path)
        self._ask("exists", path, found)
        return found

    def is_inside_root(self, path: str) -> bool:
        found = self.inner.is_inside_root(path)
        self._ask("is_inside_root", path, found)
        return found

    def special_kind(self, path: str) -> str | None:
        found = self.inner.special_kind(path)
        self._ask("special_kind", path, found)
        return found

    def link_out(self, path: str) -> str | None:
        found = self.inner.link_out(path)
        self._ask("link_out", path, found)
        return found

    def entry(self, path: str) -> Entry | None:
        found = self.inner.entry(path)
        self._ask("entry", path, found)
        return found

    def regular_files_in(self, folder: str) -> frozenset[str]:
        found = self.inner.regular_files_in(folder)
        self._tracker.asked("regular_files_in", folder, names_digest(found))
        return found

    def entries_in(self, folder: str) -> tuple[list[str], list[str]]:
        found = self.inner.entries_in(folder)
        self._ask("entries_in", folder, found)
        return found

    def git_ignored(self, paths: Sequence[str]) -> set[str]:
        found = self.inner.git_ignored(paths)
        for path in paths:
            self._tracker.asked("git_ignored", path, path in found)
        return found

    def git_symlinks(self, paths: Sequence[str]) -> set[str]:
        found = self.inner.git_symlinks(paths)
        for path in paths:
            self._tracker.asked("git_symlinks", path, path in found)
        return found

    def __getattr__(self, name: str) -> object:
        # What a particular source has beyond the protocol (a tree's blob_at, the
        # disk's whole_listing): the caller's own business, as untracked as before.
        return getattr(self.inner, name)


# What a few checks ask of the disk itself, past the source: whether the index is a
# symlink and to what, whether a staged file is also on disk, where a folder really is.
Answer = Union[bool, str, None]
_DISK: dict[str, Callable[[str], Answer]] = {
    "is_file": os.path.isfile,
    "exists": os.path.exists,
    "isdir": os.path.isdir,
    "islink": os.path.islink,
    "readlink": lambda full: _or_none(os.readlink, full),
    "realpath": os.path.realpath,
}


def _or_none(ask: Callable[[str], str], full: str) -> str | None:
    try:
        return ask(full)
    except (OSError, ValueError):
        return None


def on_disk(root: Path, kind: str, path: str) -> Answer:
    """What the disk says of ``path`` (relative to ``root``): see _DISK."""
    return _DISK[kind](os.path.join(root, path))


def today() -> datetime.date:
    """Today's date (one place, so that a test can move it)."""
    return datetime.date.today()


def untracked(source: Source) -> Source:
    """The source a tracked one reads from."""
    while isinstance(source, TrackedSource):
        source = source.inner
    return source


def answerer(source: Source, root: Path, method: str) -> Callable[[str], object] | None:
    """What asks ``source`` (or the disk, for ``disk_`` questions) again a question a
    part asked before, of one path at a time; None for a method there is no such
    question of (git's, asked of many paths at once, are the caller's)."""
    if method.startswith("disk_") and method[5:] in _DISK:
        ask = _DISK[method[5:]]
        return lambda path: ask(os.path.join(root, path))
    if method == "regular_files_in":
        return lambda folder: names_digest(source.regular_files_in(folder))
    if method in _METHODS:
        found: Callable[[str], object] = getattr(source, method)
        return found
    if method == "staged":
        return lambda _: source.staged is not None
    if method == "today":
        return lambda _: today().isoformat()
    return None


_METHODS = frozenset({"is_file", "exists", "is_inside_root", "special_kind", "link_out", "entry", "entries_in"})
