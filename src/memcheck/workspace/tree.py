"""A commit's tree as a ``Source``: the files git holds there, read from git, whatever
the work tree holds now (``check --new-since REF`` reads REF's files through it).

A symlink is followed inside the tree, as a checkout of the commit would follow
it; one that leads out of the tree, loops or leads nowhere is not. What the rest of
memcheck asks the disk directly (a few questions about symlinks and sizes) still
gets the work tree's answer, as it does for the staged view.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Sequence

from memcheck import git, gitrefs
from memcheck.changes import GITLINK_MODE, SYMLINK_MODE
from memcheck.paths import basename, folders_of, join, normal, parent, split
from memcheck.text import document
from memcheck.workspace.source import OUTSIDE_LINK, Entry, Listing

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.workspace.staged import StagedFiles

_MISSING = "cannot be read: No such file or directory"  # as the disk says it
_MAX_HOPS = 40  # symlinks followed on one path, as the kernel's limit: a loop ends
# Files read from git in one batch, and the largest kept until asked for (see _read_ahead).
_READ_AHEAD = 128
_KEPT_AHEAD = 64 * 1024


class TreeSource:
    """The files of ``commit`` below ``root`` (with ``folders``, of those folders
    only, as ``git.FileListing`` lists them for a hook run: what is checked; what is
    asked of the tree, whether a linked file is there, is asked of the whole commit,
    as the staged view and the disk answer it). ``close`` ends the git process that
    reads their content."""

    staged: StagedFiles | None = None

    def __init__(self, root: Path, commit: str, folders: Sequence[str] | None = None) -> None:
        self.root = root
        self.commit = commit
        self._scope = folders
        self._blobs = git.BlobReader(root)
        # Memories read ahead with the one a check asked for (see ``read``), until asked;
        # each folder's Markdown files not yet asked of git, in order.
        self._ahead: dict[str, tuple[bytes, int]] = {}
        self._asked_of_git: set[str] = set()
        self._unasked: dict[str, Iterator[str]] = {}
        self._targets: dict[str, str] = {}  # symlink -> the path it names
        # The whole tree, listed from now on: a commit hook asks for it once it has
        # found what the staged tree holds (see engine.since), and git lists it meanwhile.
        self._listing = gitrefs.TreeListing(root, commit)

    def close(self) -> None:
        self._listing.close()
        self._blobs.close()

    def blob_at(self, commit: str, path: str) -> bytes | None:
        """What another commit holds at ``path`` (its settings), through the same git process."""
        if commit == self.commit and path not in self._whole and path not in folders_of(self._whole):
            return None  # not in this very tree (the usual case: no settings file): no git process started
        read = self._blobs.read(f"{commit}:{path}", document.MAX_BYTES)
        return None if read is None else read[0]

    @cached_property
    def _entries(self) -> dict[str, gitrefs.TreeEntry]:
        scope = self._scope
        if scope is None or "" in scope:
            return self._whole
        # Picked from the whole tree's entries (as `ls-tree` matches a literal pathspec:
        # the folder or below it), which a check asks for anyway (``whole_listing``):
        # one git process rather than two.
        return {p: e for p, e in self._whole.items() if any(p == f or p.startswith(f + "/") for f in scope)}

    @cached_property
    def _whole(self) -> dict[str, gitrefs.TreeEntry]:
        return self._listing.entries() or {}

    @cached_property
    def _folders(self) -> frozenset[str]:
        return folders_of(self._whole)

    @cached_property
    def _regular_by_folder(self) -> dict[str, frozenset[str]]:
        names: dict[str, set[str]] = {}
        for path, entry in self._whole.items():
            if entry.mode not in (SYMLINK_MODE, GITLINK_MODE):
                folder, name = split(path)
                names.setdefault(folder, set()).add(name)
        return {folder: frozenset(found) for folder, found in names.items()}

    def listing(self) -> Listing:
        return Listing(sorted(self._entries), by_git=True, in_git=True, partial=self._scope is not None)

    def whole_listing(self) -> list[str]:
        """Every file of the commit, even when ``listing`` covers some folders only (as
        ``DiskSource.whole_listing``: a hook run judges links against the whole tree,
        at HEAD as in the commit)."""
        if self._scope is None:
            return self.listing().files
        return sorted(self._whole)

    def _target(self, link: str) -> str:
        found = self._targets.get(link)
        if found is None:
            read = self._blobs.read(self._whole[link].blob, 4096)
            found = self._targets[link] = git.decode_name(read[0]) if read is not None else "/"
        return found

    def _resolve(self, path: str, follow_last: bool = True) -> str | None:
        """``path`` with every symlink on the way followed inside the tree; None when
        one leads out of it, or round in a loop."""
        if path.startswith("/"):
            return None
        queue, at, hops = path.split("/"), 0, 0
        done: list[str] = []
        while at < len(queue):
            part = queue[at]
            at += 1
            if part in ("", "."):
                continue
            if part == "..":
                if not done:
                    return None
                done.pop()
                continue
            here = join("/".join(done), part)
            entry = self._whole.get(here)
            if entry is not None and entry.mode == SYMLINK_MODE and (at < len(queue) or follow_last):
                hops += 1
                target = self._target(here)
                if hops > _MAX_HOPS or target.startswith("/"):
                    return None
                queue, at = target.split("/") + queue[at:], 0
                continue
            done.append(part)
        return "/".join(done)

    def _file(self, path: str) -> str | None:
        """The blob path ``path`` leads to, when it leads to a file of the tree."""
        found = self._resolve(path)
        entry = self._whole.get(found) if found is not None else None
        return found if entry is not None and entry.mode not in (SYMLINK_MODE, GITLINK_MODE) else None

    def read(self, path: str) -> Document:
        found = self._file(path)
        if found is None:
            return document.Document(path, error=OUTSIDE_LINK if self._resolve(path) is None else _MISSING)
        read = self._ahead.pop(found) if found in self._ahead else self._read_ahead(found)
        if read is None:
            return document.Document(path, error=f"cannot be read from git ({self.commit[:12]}:{found})")
        data, size = read
        doc = document.parse(path, data)
        return document.replace(doc, size=size) if size > len(data) else doc

    def _read_ahead(self, path: str) -> tuple[bytes, int] | None:
        """The blob at ``path``, read with the other Markdown files of its folder not read
        yet (a store's memories, which its check reads one after another): one batch
        asked of git rather than a round trip each. Those kept for later are small
        (a larger one is read again when asked), so a folder of large files costs no
        more memory than reading them one at a time."""
        folder = parent(path)
        unasked = self._unasked.get(folder)
        if unasked is None:
            names = sorted(n for n in self._regular_by_folder.get(folder, ()) if n.endswith(".md"))
            unasked = self._unasked[folder] = iter([join(folder, n) for n in names])
        # Each name is taken from the folder's once: a folder of files too large to keep
        # is not listed again at each read (4,000 of them took 9 s), and each of its
        # files is asked of git twice at most (in a batch, then when asked for).
        batch = [path]
        for other in unasked:
            if other != path and other not in self._asked_of_git:
                batch.append(other)
                if len(batch) == _READ_AHEAD:
                    break
        self._asked_of_git.update(batch)
        first, *rest = self._blobs.read_many([self._whole[p].blob for p in batch], document.MAX_BYTES + 1)
        for other, read in zip(batch[1:], rest):
            if read is not None and len(read[0]) <= _KEPT_AHEAD:
                self._ahead[other] = read
        return first

    def is_file(self, path: str) -> bool:
        return self._file(path) is not None

    def exists(self, path: str) -> bool:
        found = self._resolve(path)
        return found is not None and (found in self._folders or (found in self._whole and self._whole[found].mode != SYMLINK_MODE))

    def is_inside_root(self, path: str) -> bool:
        return self._resolve(path) is not None

    def special_kind(self, path: str) -> str | None:
        return None  # git holds no FIFO, socket or device

    def link_out(self, path: str) -> str | None:
        folder = self._resolve(parent(path))
        here = join(folder, basename(path)) if folder is not None else None
        entry = self._whole.get(here) if here is not None else None
        if here is None or entry is None or entry.mode != SYMLINK_MODE or self._resolve(here) is not None:
            return None
        return self._target(here)

    def entry(self, path: str) -> Entry | None:
        norm = normal(path)
        entry = self._whole.get(norm) if norm is not None else None
        if norm is None or entry is None or entry.mode == GITLINK_MODE:
            return None
        if entry.mode != SYMLINK_MODE:
            return Entry("file", None, norm)  # (git is not asked the blobs' sizes: see gitrefs.tree_entries)
        found = self._file(norm)
        if found is not None:
            return Entry("link", 0, found)
        return Entry("outside", 0, norm) if self._resolve(norm) is None else None

    def regular_files_in(self, folder: str) -> frozenset[str]:
        return self._regular_by_folder.get(folder, frozenset())

    def entries_in(self, folder: str) -> tuple[list[str], list[str]]:
        # A commit holds no ignored file: what it holds is its whole checkout.
        return sorted(self._subfolders.get(folder, ())), sorted(self._others.get(folder, ()))

    @cached_property
    def _subfolders(self) -> dict[str, set[str]]:
        found: dict[str, set[str]] = {}
        for path in self._folders:
            if path:
                folder, name = split(path)
                found.setdefault(folder, set()).add(name)
        return found

    @cached_property
    def _others(self) -> dict[str, set[str]]:
        found: dict[str, set[str]] = {}
        for path in self._whole:
            if path not in self._folders:
                folder, name = split(path)
                found.setdefault(folder, set()).add(name)
        return found

    def git_ignored(self, paths: Sequence[str]) -> set[str]:
        return git.ignored(self.root, paths)  # the work tree's ignore rules

    def git_symlinks(self, paths: Sequence[str]) -> set[str]:
        return {p for p in paths if p in self._whole and self._whole[p].mode == SYMLINK_MODE}
