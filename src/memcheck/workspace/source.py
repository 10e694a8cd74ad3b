"""What a Workspace reads its files through: a ``Source``.

The checks ask the Workspace which files there are, what they hold, and what is at
a path; the Workspace asks its source. There are four: the work tree on disk
(``disk.DiskSource``), the tree the next commit would hold (``disk.StagedSource``,
what the hooks judge), a commit's tree (``tree.TreeSource``: what ``--new-since``
compares with) and files held in memory (``memory.MemorySource``: tests, and an
editor's unsaved buffers). Paths are repository-relative POSIX paths.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol, Sequence

from memcheck.records import NamedTuple

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.workspace.staged import StagedFiles

# The error of a file that is a symlink out of the root: never read (see Source.read).
OUTSIDE_LINK = "is a symlink out of the repository; memcheck does not follow it"


class Listing(NamedTuple):
    """The files of a source, and what the listing says about the ones it leaves out."""

    files: list[str]  # sorted
    # Listed by git itself: a file of the tree it leaves out is one git ignores (or,
    # for the staged tree, one the commit does not hold).
    by_git: bool
    # git can be asked about these files (which are symlinks in its index).
    in_git: bool
    # The files of some folders only (see selection.hook_folders).
    partial: bool = False


class Entry(NamedTuple):
    """What is at a path, for finding guidance files among the listed ones."""

    # "file": a regular file inside the root; "link": a symlink to one; "outside": a
    # symlink, in a folder inside the root, to a file outside it (agents read it,
    # memcheck does not).
    kind: Literal["file", "link", "outside"]
    # Of a regular file; 0 for a link. None where the source does not say: a commit's
    # tree, whose symlinks git's modes tell, so that none of its files can be a link
    # checked out as text (the one question a size answers, see workspace/guidance).
    size: int | None
    real: str  # where the file really is: symlinked twins share it


class Source(Protocol):
    """The files a Workspace reads and what is at each path."""

    @property
    def staged(self) -> StagedFiles | None:
        """git's index, when the source is the tree a commit made now would hold."""

    def listing(self) -> Listing:
        """The files: asked once, by the Workspace."""

    def read(self, path: str) -> Document:
        """The file at ``path``, read; never raises (a ``Document`` says what went wrong).
        A symlink out of the root is not followed: its error is ``OUTSIDE_LINK``."""

    def is_file(self, path: str) -> bool:
        """A regular file (or a symlink to one) inside the root."""

    def exists(self, path: str) -> bool:
        """A file or a folder inside the root."""

    def is_inside_root(self, path: str) -> bool:
        """False for a path that leaves the root, or whose symlinks lead out of it."""

    def special_kind(self, path: str) -> str | None:
        """ "a FIFO", "a socket" or "a device" for such a file inside the root."""

    def link_out(self, path: str) -> str | None:
        """The target, as the link names it, of a symlink at ``path`` that leads out
        of the root (whether or not anything is there); None for anything else."""

    def entry(self, path: str) -> Entry | None:
        """What is at ``path``; None for anything but a file or a symlink to one."""

    def regular_files_in(self, folder: str) -> frozenset[str]:
        """Names of the regular files (not symlinks) directly inside ``folder``."""

    def entries_in(self, folder: str) -> tuple[list[str], list[str]]:
        """What is directly inside ``folder`` in the checkout, listed or not (ignored
        files too), ``.git`` aside: (its folders, its other entries), names sorted. A
        symlink is an entry, never a folder to enter."""

    def git_ignored(self, paths: Sequence[str]) -> set[str]:
        """Of these paths (which need not exist), the ones git ignores."""

    def git_symlinks(self, paths: Sequence[str]) -> set[str]:
        """Of these paths, the ones git's index records as symlinks."""
