"""The files of a work tree as git lists them (``git ls-files``), and git's
NUL-separated names as the file system functions take them: what ``memcheck check``
and ``fix`` list before anything else (see memcheck.git, which names both as its own)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Callable, Iterable, Sequence

# From this size of git's index (about 2,500 files) a whole tree is listed by two processes
# (see FileListing); below it, one more costs more than it saves (a tenth of 45 ms, on two files).
_SPLIT_FROM = 256 * 1024


class FileListing:
    """Tracked and untracked-not-ignored files of the work tree at ``root``; with
    ``folders``, only those in (and below) these folders; with ``cached_only``, only
    the files git's index holds (what a commit made now would hold).

    ``git ls-files --others`` walks the work tree; on a large repository that takes
    tens of milliseconds, which ``memcheck check`` spends importing its checks rather
    than waiting (see cli.check): git starts when this is made, ``files`` collects
    what it wrote. A large tree's walk is a process of its own, not waited for by
    ``any_first``, which the index answers at once.
    """

    def __init__(
        self, root: Path, folders: Sequence[str] | None = None, cached_only: bool = False, indexed: Iterable[str] | None = None
    ) -> None:
        self.root = root
        self.folders = folders
        self._procs: list[subprocess.Popen[bytes]] = []
        self._outs: dict[int, bytes | None] = {}  # what each process wrote (None: it failed)
        self._files: list[str] | None = None
        if not (root / ".git").exists():
            return
        if cached_only and indexed is not None and not os.environ.get("GIT_ICASE_PATHSPECS"):
            # Every file of git's index, asked already (a --changed run asks it first):
            # the folders' files are picked from it rather than listed by another git
            # process (`ls-files` matches a literal pathspec as the folder or below it).
            self._files = sorted(p for p in indexed if folders is None or any(not f or p == f or p.startswith(f + "/") for f in folders))
            return
        scope = ["--", *(f or "." for f in folders)] if folders is not None else []
        try:  # (no index yet, or a linked work tree's .git file: one process)
            apart = not cached_only and folders is None and os.stat(root / ".git" / "index").st_size >= _SPLIT_FROM
        except OSError:
            apart = False
        asked = (
            [["--cached"], ["--others", "--exclude-standard"]]
            if apart
            else [["--cached"]]
            if cached_only
            else [["--cached", "--others", "--exclude-standard"]]
        )
        try:
            for flags in asked:
                self._procs.append(
                    subprocess.Popen(
                        ["git", "--literal-pathspecs", "ls-files", "-z", *flags, *scope],
                        cwd=root,
                        stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL,
                    )
                )
        except OSError:  # no git: the caller walks the folder instead
            self._procs = []

    def _output(self, number: int) -> bytes | None:
        if number not in self._outs:
            out, _ = self._procs[number].communicate()
            self._outs[number] = out if self._procs[number].returncode == 0 else None
        return self._outs[number]

    def any_first(self, wanted: Callable[[str], bool]) -> bool:
        """Whether a file git lists first is ``wanted``: a tracked one, where the walk
        for untracked ones is a process of its own (not waited for), else any. False
        where git cannot list the tree (``files`` says so)."""
        out = self._output(0) if self._files is None and self._procs else None
        return any(map(wanted, self._files if self._files is not None else fs_names(out or b"")))

    def files(self) -> list[str] | None:
        """The files, sorted; None when root is not a work tree git can list. (Asked
        again, the same list.)"""
        if self._files is not None or not self._procs:
            return self._files
        outs = [self._output(number) for number in range(len(self._procs))]
        if None in outs:
            self._procs = []
            return None
        # git lists each part (tracked, untracked) sorted: kept in that order, the sort only merges them.
        self._files = sorted(dict.fromkeys(name for out in outs for name in fs_names(out or b"")))
        self._outs = {}  # (git's output: 0.7 MB on bench/'s M tree, held no longer)
        return self._files


def fs_names(out: bytes) -> Iterable[str]:
    """git's NUL-separated names as the file system functions take them. Names are
    UTF-8 in practice; surrogateescape keeps any other byte round-trippable. Where
    Python's file system encoding is not UTF-8 (LC_ALL=C with PYTHONUTF8=0), a name
    decoded as UTF-8 could not be opened: decode as os.fsdecode does (a non-ASCII
    name is then shown with backslash escapes)."""
    if FS_UTF8:
        return (p for p in out.decode("utf-8", "surrogateescape").split("\0") if p)
    return (os.fsdecode(p) for p in out.split(b"\0") if p)


FS_UTF8 = sys.getfilesystemencoding().lower().replace("-", "").replace("_", "") == "utf8"
