"""Repository-relative POSIX paths ("" for the root): how memcheck names files everywhere.

The one set of path helpers: a folder is `parent(path)`, a file name `basename(path)`,
never a `rpartition("/")` written out again."""
from __future__ import annotations

import posixpath
from typing import Iterable, Iterator


def join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def parent(path: str) -> str:
    return path.rpartition("/")[0]


def basename(path: str) -> str:
    return path.rpartition("/")[2]


def ancestors(folder: str) -> Iterator[str]:
    """``folder`` and every folder above it, up to and including the root ("")."""
    while folder:
        yield folder
        folder = parent(folder)
    yield ""


def folders_of(paths: Iterable[str]) -> frozenset[str]:
    """Every folder that holds one of ``paths``, at any depth, the root ("") included:
    each folder is walked up from once, however many files it holds."""
    found = {""}
    for path in paths:
        folder = parent(path)
        while folder and folder not in found:
            found.add(folder)
            folder = parent(folder)
    return frozenset(found)


def normal(path: str) -> str | None:
    """A path relative to the root, normalised; None for one outside it."""
    norm = posixpath.normpath(path) if path else "."
    if norm == ".":
        return ""
    if norm.startswith(("../", "/")) or norm == "..":
        return None
    return norm


def split(path: str) -> tuple[str, str]:
    """``(parent(path), basename(path))``, in one pass."""
    folder, _, name = path.rpartition("/")
    return folder, name
