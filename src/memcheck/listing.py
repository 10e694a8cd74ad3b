"""A repository's files as git lists them, with the listing started early.

``git ls-files --others`` walks the work tree; on a large repository that takes
tens of milliseconds, which ``memcheck check`` spends importing its checks rather
than waiting (see cli.check). Kept free of memcheck's other modules, so starting it
costs nothing but the process.
"""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Sequence


class GitListing:
    """Tracked and untracked-not-ignored files of the work tree at ``root``; with
    ``folders``, only those in (and below) these folders."""

    def __init__(self, root: Path, folders: Sequence[str] | None = None) -> None:
        self.root = root
        self.folders = folders
        self._proc: subprocess.Popen[bytes] | None = None
        if not (root / ".git").exists():
            return
        scope = ["--", *(f or "." for f in folders)] if folders is not None else []
        try:
            self._proc = subprocess.Popen(
                ["git", "--literal-pathspecs", "ls-files", "-z", "--cached", "--others", "--exclude-standard", *scope],
                cwd=root,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError:  # no git: the caller walks the folder instead
            self._proc = None

    def files(self) -> list[str] | None:
        """The files, sorted; None when root is not a work tree git can list."""
        if self._proc is None:
            return None
        out, _ = self._proc.communicate()
        if self._proc.returncode != 0:
            return None
        # Names are UTF-8 in practice; surrogateescape keeps any other byte round-trippable.
        # git lists each part (tracked, untracked) sorted: kept in that order, the sort
        # only merges two runs.
        return sorted(dict.fromkeys(p for p in out.decode("utf-8", "surrogateescape").split("\0") if p))
