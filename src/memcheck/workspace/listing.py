"""A repository's files as git lists them, with the listing started early.

``git ls-files --others`` walks the work tree; on a large repository that takes
tens of milliseconds, which ``memcheck check`` spends importing its checks rather
than waiting (see cli.check). Kept free of memcheck's other modules, so starting it
costs nothing but the process.
"""
from __future__ import annotations

import os
import posixpath
import subprocess
import sys
from functools import cached_property
from pathlib import Path
from typing import Iterable, Mapping, Sequence


class GitListing:
    """Tracked and untracked-not-ignored files of the work tree at ``root``; with
    ``folders``, only those in (and below) these folders; with ``staged``, only the
    files git's index holds (what a commit made now would hold)."""

    def __init__(self, root: Path, folders: Sequence[str] | None = None, staged: StagedIndex | None = None) -> None:
        self.root = root
        self.folders = folders
        self.staged = staged
        self._proc: subprocess.Popen[bytes] | None = None
        if not (root / ".git").exists():
            return
        scope = ["--", *(f or "." for f in folders)] if folders is not None else []
        try:
            self._proc = subprocess.Popen(
                ["git", "--literal-pathspecs", "ls-files", "-z", "--cached", *(() if staged else ("--others", "--exclude-standard")), *scope],
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
        # git lists each part (tracked, untracked) sorted: kept in that order, the sort
        # only merges two runs.
        return sorted(dict.fromkeys(_names(out)))


class StagedIndex:
    """The tree a commit made now would hold: the files in git's index, with the
    content staged for them.

    The hooks judge that, not the work tree: agents write memory files all the time,
    and an untracked one is not in the commit (an index entry for it would be dead
    in every clone), nor is an unstaged MEMORY.md. Under pre-commit, which stashes
    unstaged changes before running hooks, the staged content is what is on disk;
    a bare ``memcheck check --changed`` reads what differs from the index itself.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.written: set[str] = set()  # files fix wrote: about to be staged

    @cached_property
    def files(self) -> frozenset[str]:
        out = _git(self.root, ["git", "ls-files", "-z", "--cached"])
        return frozenset(_names(out or b""))

    @cached_property
    def folders(self) -> frozenset[str]:
        found = {""}
        for path in self.files:
            folder = path.rpartition("/")[0]
            while folder and folder not in found:
                found.add(folder)
                folder = folder.rpartition("/")[0]
        return frozenset(found)

    @cached_property
    def unstaged(self) -> frozenset[str]:
        """Files whose copy on disk is not what is staged (edited or deleted since)."""
        out = _git(self.root, ["git", "diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv"])
        return frozenset(_names(out or b""))

    def holds(self, path: str) -> bool:
        """``path`` (relative to the root, normalised) is a staged file or a folder of them."""
        return path in self.files or path in self.folders or path in self.written

    def has_file(self, path: str) -> bool:
        return path in self.files or path in self.written

    def reads_staged(self, path: str) -> bool:
        """The staged content of ``path`` is not on disk: read it from git's index."""
        return path in self.unstaged and path in self.files and path not in self.written

    def staged_bytes(self, path: str) -> bytes | None:
        # ':0:' is the index's stage 0: what the commit will hold (a path never
        # starts with '/', so this is never read as a search of commit messages).
        return _git(self.root, ["git", "cat-file", "blob", f":0:{path}"])

    @staticmethod
    def normal(path: str) -> str | None:
        """A path relative to the root, normalised; None for one outside it."""
        norm = posixpath.normpath(path) if path else "."
        if norm == ".":
            return ""
        if norm.startswith(("../", "/")) or norm == "..":
            return None
        return norm


def _names(out: bytes) -> Iterable[str]:
    """git's NUL-separated names as the file system functions take them. Names are
    UTF-8 in practice; surrogateescape keeps any other byte round-trippable. Where
    Python's file system encoding is not UTF-8 (LC_ALL=C with PYTHONUTF8=0), a name
    decoded as UTF-8 could not be opened: decode as os.fsdecode does (a non-ASCII
    name is then shown with backslash escapes)."""
    if _FS_UTF8:
        return (p for p in out.decode("utf-8", "surrogateescape").split("\0") if p)
    return (os.fsdecode(p) for p in out.split(b"\0") if p)


_FS_UTF8 = sys.getfilesystemencoding().lower().replace("-", "").replace("_", "") == "utf8"


def staged_view(root: Path, env: Mapping[str, str]) -> StagedIndex | None:
    """The staged tree a ``--changed`` run judges; None when it judges a range of
    commits (PRE_COMMIT_FROM_REF/TO_REF), which runs on the work tree as pre-commit
    leaves it, or when root is not a work tree."""
    if env.get("PRE_COMMIT_FROM_REF") and env.get("PRE_COMMIT_TO_REF"):
        return None
    return StagedIndex(root) if os.path.exists(root / ".git") else None


def changed_paths(root: Path, env: Mapping[str, str]) -> list[str] | None:
    """The paths a change touches, as the lint hooks judge it; None for the whole tree.

    pre-commit hands a hook only the files a commit adds or modifies (it asks git
    with ``--diff-filter=ACMRTUXB``): a deleted memory, which leaves a dead index
    entry, never reaches it, and a long list is split into several runs. So the
    hooks take no file list and ask git here, every side of a change included
    (``--no-renames``: a rename is its source deleted and its target added):

    - pre-commit's ``PRE_COMMIT_FROM_REF`` and ``PRE_COMMIT_TO_REF`` (``pre-commit run
      --from-ref A --to-ref B``): what the commits from their merge base bring;
    - else the staged change;
    - with nothing staged: inside ``git commit`` (git sets ``GIT_INDEX_FILE`` for its
      hooks; a message-only ``--amend``) nothing, else (``pre-commit run --all-files``
      on a clean checkout, as CI and pre-commit.ci run it) the whole tree.
    """
    from_ref, to_ref = env.get("PRE_COMMIT_FROM_REF", ""), env.get("PRE_COMMIT_TO_REF", "")
    base = ["git", "--literal-pathspecs", "diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv"]
    if from_ref and to_ref:
        out = _git(root, [*base, f"{from_ref}...{to_ref}"])
        if out is None:  # no merge base (unrelated histories): the two trees' difference, as pre-commit does
            out = _git(root, [*base, from_ref, to_ref])
        if out is None:
            raise LookupError(f"cannot read the changes between {from_ref} and {to_ref}")
    else:
        out = _git(root, [*base, "--cached"])
        if out is None:
            raise LookupError("cannot read the staged change")
        if not out.strip(b"\0") and "GIT_INDEX_FILE" not in env:
            return None
    return sorted(_names(out))


def ignored_by_git(root: Path, paths: Sequence[str]) -> set[str]:
    """Of these repository-relative paths (which need not exist), the ones git's
    ignore rules match: one ``git check-ignore`` for all of them. Empty outside a
    work tree, or without git."""
    if not paths or not (root / ".git").exists():
        return set()
    # check-ignore takes paths, not pathspecs, and refuses pathspec magic: no
    # --literal-pathspecs, and none from the environment either.
    env = {k: v for k, v in os.environ.items() if not k.endswith("_PATHSPECS")}
    try:
        proc = subprocess.run(
            ["git", "check-ignore", "-z", "--stdin"],
            cwd=root,
            env=env,
            input="\0".join(paths).encode("utf-8", "surrogateescape") + b"\0",
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return set()
    if proc.returncode not in (0, 1):  # 1: none of them is ignored
        return set()
    return {p for p in proc.stdout.decode("utf-8", "surrogateescape").split("\0") if p}


def _git(root: Path, args: Sequence[str]) -> bytes | None:
    try:
        proc = subprocess.run(args, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:
        return None
    return proc.stdout if proc.returncode == 0 else None


# Paths per `git ls-files` call: far below any system's argument-length limit.
_PATHS_PER_CALL = 1000


def index_symlinks(root: Path, paths: Sequence[str]) -> set[str]:
    """The ``paths`` that git's index records as symlinks (mode 120000).

    With ``core.symlinks=false`` (Windows, some CI checkouts) git writes a symlink as
    a plain file holding the target's path: only the index tells the two apart. One
    call for all the paths (in batches past ``_PATHS_PER_CALL``); outside a work tree,
    none.
    """
    found: set[str] = set()
    if not paths or not (root / ".git").exists():
        return found
    for start in range(0, len(paths), _PATHS_PER_CALL):
        out = _git(root, ["git", "--literal-pathspecs", "ls-files", "-z", "--stage", "--", *paths[start : start + _PATHS_PER_CALL]])
        if out is None:
            return found
        for entry in out.decode("utf-8", "surrogateescape").split("\0"):
            # "<mode> <object> <stage>\t<path>"
            info, tab, path = entry.partition("\t")
            if tab and info.startswith("120000 "):
                found.add(path)
    return found
