"""Paths named on the command line or in a list (``--paths-from``), as changes:
what ``memcheck guard PATH...`` judges, as a change made now would be, by the
working tree's settings.
"""

from __future__ import annotations

import codecs
import os
import sys
from pathlib import Path
from typing import BinaryIO, Sequence

from memcheck import git
from memcheck.changes import SYMLINK_MODE, TREE_MODE, Change
from memcheck.config import ConfigError


def split_path_list(data: bytes, source: str = "-") -> list[str]:
    """A list of paths, NUL-separated when it holds a NUL, else one per line; UTF-8,
    or UTF-16 with a byte-order mark (what PowerShell's ``>`` writes)."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            data = data.decode("utf-16").encode("utf-8", "surrogatepass")
        except UnicodeDecodeError as e:
            raise ConfigError(f"--paths-from {source}: cannot read it as UTF-16: {e.reason}") from None
    elif _looks_like_utf16(data):
        # Read as UTF-8, it would be a list of one-letter names: nothing guarded.
        raise ConfigError(
            f"--paths-from {source}: looks like UTF-16 without a byte-order mark; write the list as UTF-8 (or UTF-16 with a BOM)"
        )
    data = data.removeprefix(codecs.BOM_UTF8)
    if b"\0" in data:
        names = data.split(b"\0")
    else:
        names = [line.rstrip(b"\r") for line in data.split(b"\n")]
    return [git.decode_name(name) for name in names if name]


def _looks_like_utf16(data: bytes) -> bool:
    """UTF-16 text of ASCII names has a NUL in every other byte; a NUL-separated list
    of real paths (two bytes and more each) never does."""
    half = len(data) // 2
    return half >= 2 and max(data[0::2].count(0), data[1::2].count(0)) >= 0.9 * half


def read_path_list(source: str, stdin: BinaryIO | None) -> list[str]:
    if source == "-":
        return split_path_list((stdin or sys.stdin.buffer).read())
    try:
        return split_path_list(Path(source).read_bytes(), source)
    except OSError as e:
        raise ConfigError(f"--paths-from {source}: cannot read: {e.strerror}") from None


def listed(names: Sequence[str], root: Path, cwd: Path, in_git: bool) -> list[Change]:
    """Named paths as changes, relative to the repository root: a folder with the
    files under it (those git would commit, in a repository), a symlink with its
    target, and a path through a linked folder (``awsl/credentials``, ``awsl`` a
    link to ``.aws``) also as a link to the file it reaches."""
    changes: list[Change] = []
    real_root = os.path.realpath(root)
    real_folders: dict[str, str] = {}  # a long list names the same folders again and again
    # Where the working folder is in the repository, worked out once: a relative name
    # is then joined to it as text (os.path.relpath per name was a third of the run on
    # a 14,000-path list).
    here = os.path.relpath(os.path.normpath(cwd), root)
    for name in names:
        full = os.path.normpath(os.path.join(cwd, name))
        if os.path.isabs(name) or os.sep != "/":
            rel = Path(os.path.relpath(full, root)).as_posix()
        else:
            rel = os.path.normpath(os.path.join(here, name))
        changes.append(_on_disk(full, rel))
        if os.path.isdir(full) and not os.path.islink(full):
            changes += [_on_disk(os.path.join(root, path), path) for path in _files_under(root, full, rel, in_git)]
        if rel == "." or rel.startswith("../"):
            continue
        # Through a linked folder: the link is the folder, the target the path it reaches.
        folder = os.path.dirname(full)
        if folder not in real_folders:
            real_folders[folder] = os.path.realpath(folder)
        real, expected = real_folders[folder], os.path.join(real_root, os.path.dirname(rel))
        if real != os.path.normpath(expected):
            reached = os.path.join(real, os.path.basename(full))
            inside = not os.path.relpath(reached, real_root).startswith("..")
            # written as a link would hold it: from the link's folder, or absolute out of the tree
            target = os.path.relpath(reached, expected) if inside else reached
            changes.append(Change("", rel, new_mode=SYMLINK_MODE, target=Path(target).as_posix()))
    return changes


def _on_disk(full: str, rel: str) -> Change:
    if os.path.islink(full):
        return Change("", rel, new_mode=SYMLINK_MODE, target=os.readlink(full))
    return Change("", rel, new_mode=TREE_MODE if os.path.isdir(full) else "")


def _files_under(root: Path, full: str, rel: str, in_git: bool) -> list[str]:
    """What a folder named on the command line holds: in a repository, the files git
    would commit (tracked, and untracked but not ignored); elsewhere every file. A
    linked folder is not descended: it is judged as a link, by its target."""
    found = git.files_under(root, "" if rel == "." else rel) if in_git else None
    if found is not None:
        return found
    walked = []
    for top, dirs, files in os.walk(full):
        dirs.sort()
        entries = sorted(files) + [d for d in dirs if os.path.islink(os.path.join(top, d))]
        walked += [Path(os.path.relpath(os.path.join(top, e), root)).as_posix() for e in entries]
    return walked
