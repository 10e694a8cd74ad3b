"""The work tree on disk as a ``Source`` (listed by git where it is a repository,
walked where it is not; no symlink followed out of the root), and the tree the next
commit would hold, read from git's index where the disk differs."""

from __future__ import annotations

import os
import stat
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from memcheck import git
from memcheck.paths import normal, parent
from memcheck.text import document
from memcheck.text.blobs import content_key
from memcheck.workspace.source import OUTSIDE_LINK, Entry, Listing

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.workspace.staged import StagedFiles


# The longest path Linux opens (PATH_MAX); macOS's is shorter. A longer one names
# nothing on disk.
_LONGEST_PATH = 4096


class DiskSource:
    """The files below ``root``: in a git work tree, the tracked ones and the untracked
    ones git does not ignore; elsewhere every file, ``.git`` aside. ``files``: these,
    and no listing.

    ``listing``: git's, started already (``memcheck check`` starts it before it imports
    the checks, and so before this module; it may cover some folders only); else git
    starts listing when this is made.
    """

    staged: StagedFiles | None = None
    _cached_only = False  # list what git's index holds, not the work tree (StagedSource)

    def __init__(self, root: Path, files: Sequence[str] | None = None, listing: git.FileListing | None = None) -> None:
        self.root = root
        self._files: list[str] | git.FileListing
        if files is not None:
            self._files = list(files)
        else:
            self._files = listing if listing is not None else git.FileListing(root, cached_only=self._cached_only)
        self._listing: Listing | None = None
        self._folders_inside: dict[str, bool] = {}

    def listing(self) -> Listing:
        if self._listing is None:
            self._listing = self._list()
        return self._listing

    def _list(self) -> Listing:
        if isinstance(self._files, list):
            # Files named by the caller count as git's (a work tree's, or the home
            # folder's user-level files), though git did not list them.
            return Listing(self._files, by_git=False, in_git=True)
        listed = self._files.files()
        if listed is None:
            return Listing(walk_files(self.root), by_git=False, in_git=False)
        # Only some folders listed (see hook_folders): enough for their stores, not
        # for finding guidance files or skills anywhere else.
        return Listing(listed, by_git=True, in_git=True, partial=self._files.folders is not None)

    def whole_listing(self) -> list[str]:
        """Every file of the tree, even when ``listing`` covers some folders only:
        git is asked again, for the whole tree."""
        if isinstance(self._files, list) or self._files.folders is None:
            return self.listing().files
        listed = git.FileListing(
            self.root, cached_only=self._cached_only, indexed=None if self.staged is None else self.staged.files
        ).files()
        return listed if listed is not None else walk_files(self.root)

    def read(self, path: str) -> Document:
        # A symlink out of the root is never followed, whoever asks (a finding's
        # suppression comments, the secrets scrub): it may lead to /proc/self/environ.
        # Only a symlink is resolved (its folder's answer is kept, so a regular file
        # costs no more than its open). A path that names a place outside the root
        # by itself (``../x``, ``/x``) is the caller's to judge.
        if path.startswith("/") or (".." in path and ".." in path.split("/")):
            return document.read(self.root, path)
        if not self._folder_inside(parent(path)):
            return document.Document(path, error=OUTSIDE_LINK)
        try:
            return document.read(self.root, path, follow=False)
        except document.IsSymlink:
            if not self.is_inside_root(path):
                return document.Document(path, error=OUTSIDE_LINK)
            return document.read(self.root, path)

    def link_out(self, path: str) -> str | None:
        full = self._full(path)
        try:
            if not stat.S_ISLNK(os.lstat(full).st_mode):
                return None
            target = os.readlink(full)
        except (OSError, ValueError):
            return None
        return None if self._resolves_inside(full) else target

    def is_inside_root(self, path: str) -> bool:
        if path.startswith("/") or ".." in path.split("/"):
            return self._resolves_inside(self._full(path))
        full = self._full(path)
        return self._folder_inside(parent(path)) and (not os.path.islink(full) or self._resolves_inside(full))

    def special_kind(self, path: str) -> str | None:
        # git lists no FIFO, socket or device (or a link to one), and reading one
        # could block.
        try:
            mode = os.stat(self._full(path)).st_mode
        except (OSError, ValueError):
            return None
        kind = document.special_kind(mode)
        return kind if kind is not None and self.is_inside_root(path) else None

    def exists(self, path: str) -> bool:
        # (A link to a folder names one.)
        return os.path.exists(self._full(path)) and self.is_inside_root(path)

    def is_file(self, path: str) -> bool:
        if path.startswith("/") or ".." in path.split("/"):
            return os.path.isfile(self._full(path)) and self._resolves_inside(self._full(path))
        # One lstat answers both questions for the usual regular file; only a
        # symlink needs following.
        full = self._full(path)
        try:
            mode = os.lstat(full).st_mode
        except (OSError, ValueError):
            return False
        if stat.S_ISLNK(mode):
            return os.path.isfile(full) and self._resolves_inside(full)
        return stat.S_ISREG(mode) and self._folder_inside(parent(path))

    def entry(self, path: str) -> Entry | None:
        full = self._full(path)
        try:
            info = os.lstat(full)  # one lstat answers what is_file() would
        except (OSError, ValueError):
            return None
        # Listed paths never pass through a symlinked folder (git and os.walk do not
        # descend into one), so only a symlink itself needs resolving. One that leads
        # out of the root is never followed: it is where it is.
        if stat.S_ISLNK(info.st_mode):
            if self.is_file(path):
                return Entry("link", 0, os.path.realpath(full))
            if os.path.isfile(full) and self._folder_inside(parent(path)):
                return Entry("outside", 0, os.path.join(self._real_root, path))
            return None
        if stat.S_ISREG(info.st_mode) and self._folder_inside(parent(path)):
            return Entry("file", info.st_size, os.path.join(self._real_root, path))
        return None

    def regular_files_in(self, folder: str) -> frozenset[str]:
        # One directory read instead of an lstat per file.
        if not self._folder_inside(folder):
            return frozenset()
        try:
            with os.scandir(self._full(folder) if folder else self.root) as entries:
                return frozenset(e.name for e in entries if e.is_file(follow_symlinks=False))
        except OSError:
            return frozenset()

    def entries_in(self, folder: str) -> tuple[list[str], list[str]]:
        folders: list[str] = []
        others: list[str] = []
        try:
            with os.scandir(self._full(folder) if folder else self.root) as entries:
                for e in entries:
                    if e.name != ".git":
                        (folders if e.is_dir(follow_symlinks=False) else others).append(e.name)
        except OSError:
            pass
        return sorted(folders), sorted(others)

    def git_ignored(self, paths: Sequence[str]) -> set[str]:
        return git.ignored(self.root, paths)

    def git_symlinks(self, paths: Sequence[str]) -> set[str]:
        return git.index_symlinks(self.root, paths)

    # Resolving every path costs an lstat per path component; asking once per folder
    # whether it is a symlink, and resolving only real symlinks, costs one per folder.
    @cached_property
    def _real_root(self) -> str:
        return os.path.realpath(self.root)

    def _full(self, path: str) -> str:
        return os.path.join(self.root, path)

    def _resolves_inside(self, full: str) -> bool:
        real, root = os.path.realpath(full), self._real_root
        return real == root or real.startswith(root.rstrip("/") + "/")

    def _folder_inside(self, folder: str) -> bool:
        if len(folder) > _LONGEST_PATH:
            # Longer than any path the system opens: no folder of it is on disk, so no
            # symlink either, and it takes the answer of its deepest ancestor that may
            # be. Walked up folder by folder, every ancestor of a 200 KB path was kept
            # (an @-import of 40,000 `./x/` steps: 7.7 GB and 5 s).
            deepest = self._folder_inside(folder[:_LONGEST_PATH].rpartition("/")[0])
            self._folders_inside[folder] = deepest
            return deepest
        # Up from the folder to the first one whose answer is known, the root, or a
        # symlink (which answers for itself): a loop, not recursion, so a path
        # thousands of folders deep is no RecursionError.
        below: list[str] = []  # the folders passed, which take the same answer
        inside = self._folders_inside.get(folder)
        while inside is None:
            if not folder:
                inside = True
                break
            below.append(folder)
            full = self._full(folder)
            if os.path.islink(full):
                inside = self._resolves_inside(full)
                break
            folder = parent(folder)
            inside = self._folders_inside.get(folder)
        for passed in below:
            self._folders_inside[passed] = inside
        return inside


class StagedSource(DiskSource):
    """The staged tree: the files git's index holds, read from the index where the
    disk holds something else; the rest (symlinks, folders) as on disk. ``listing``:
    git's listing of its index (``cached_only``), started already."""

    _cached_only = True

    def __init__(self, staged: StagedFiles, listing: git.FileListing | None = None) -> None:
        super().__init__(
            staged.root, listing=listing if listing is not None else git.FileListing(staged.root, cached_only=True, indexed=staged.files)
        )
        self.staged: StagedFiles = staged

    def read(self, path: str) -> Document:
        norm = normal(path)
        if norm is None or not self.staged.has_file(norm):
            return super().read(path)
        on_disk = super().read(path)
        holds = self.staged.disk_holds_staged(norm, content_key(on_disk))
        if holds:
            return on_disk
        # Not the staged bytes: git is asked whether the disk's copy is the staged
        # content (a file git converts on its way in reads as other bytes than its
        # blob), unless git is told not to look at the disk, when only the blob is.
        if (holds is False and self.staged.looked_away(norm)) or self.staged.reads_staged(norm):
            return document.parse(path, self.staged.staged_bytes(norm) or b"")
        return on_disk

    def exists(self, path: str) -> bool:
        """A file or a folder the commit holds."""
        norm = normal(path)
        return self.staged.holds(norm) if norm is not None else super().exists(path)

    def is_file(self, path: str) -> bool:
        norm = normal(path)
        if norm is None:
            return super().is_file(path)
        if not self.staged.has_file(norm):
            return False  # on disk, perhaps, but not in the commit
        # A file on disk first: whether it is the staged one (a git process, see
        # StagedFiles.unstaged) matters only where the disk holds none (staged, then
        # deleted or replaced since). A hook whose parts are all kept reads no file,
        # and so asks git nothing more.
        return super().is_file(path) or self.staged.reads_staged(norm)


class CheckoutSource(DiskSource):
    """The work tree as an agent on this machine sees it: git's listing, and the
    ``unlisted`` files on disk that git ignores. An agent reads a file whether git
    ignores it or not, and a personal CLAUDE.local.md is kept out of git on purpose
    (for `memcheck context` and `memcheck agents --explain`, never `check`)."""

    def __init__(self, root: Path, unlisted: Sequence[str]) -> None:
        super().__init__(root)
        self._unlisted = [p for p in unlisted if self.is_file(p)]

    def _list(self) -> Listing:
        listing = super()._list()
        return listing._replace(files=sorted({*listing.files, *self._unlisted})) if self._unlisted else listing


class HomeSource(DiskSource):
    """The user's home folder (``check --user``): its links are the user's own, and
    followed where they lead, as the agents follow them. A repository's links out of
    its root are never followed (one may lead to /proc/self/environ), but ``~/.claude``
    a symlink into a dotfiles checkout is how many users keep it: not following it
    left ``check --user`` with nothing to check."""

    def _resolves_inside(self, full: str) -> bool:
        return True

    def _folder_inside(self, folder: str) -> bool:
        return True


# The most files a folder of the user's (``~/.claude/skills``, a rules folder) is
# walked for: the user's links are followed, and ``~/.claude/skills -> /`` was a walk
# of the whole disk (minutes, and 580 MB and growing). A large real skills folder
# holds a few thousand files (a skill with its own node_modules).
USER_FOLDER_FILES = 50_000


def walk_user_folder(root: Path) -> tuple[list[str], bool]:
    """``walk_files`` of a folder of the user's, bounded: its first
    ``USER_FOLDER_FILES`` files, folders taken in name order, and whether there were
    more."""
    found = walk_files(root, USER_FOLDER_FILES + 1)
    return found[:USER_FOLDER_FILES], len(found) > USER_FOLDER_FILES


def walk_files(root: Path, limit: int | None = None) -> list[str]:
    """Every file under ``root`` (a folder that is no git repository), as os.walk lists
    them: not into ``.git`` nor symlinked folders, which are no files either. A stack
    of its own rather than os.walk, which calls itself once per level before Python
    3.12: a folder nested a thousand deep (a tool's, or a hostile tree) exhausted the
    stack (RecursionError, an internal error). ``limit``: at most that many files,
    each folder's entries taken in name order (the same files on every run)."""
    found: list[str] = []
    folders = [""]
    while folders and (limit is None or len(found) < limit):
        prefix = folders.pop()
        try:
            with os.scandir(os.path.join(root, prefix) if prefix else root) as entries:
                listed = list(entries)
        except OSError:  # as os.walk: a folder that cannot be listed is left out
            continue
        if limit is not None:
            listed.sort(key=lambda e: e.name)
        below: list[str] = []
        for entry in listed:
            try:
                is_folder = entry.is_dir()  # through a symlink, as os.walk sorts them
            except OSError:
                is_folder = False
            if not is_folder:
                found.append(prefix + entry.name)
            elif entry.name != ".git" and not entry.is_symlink():
                below.append(prefix + entry.name + "/")
        folders.extend(reversed(below))  # popped from the end: the first name first
    return sorted(found[:limit])
