"""Repository-relative POSIX paths ("" for the root): how memcheck names files everywhere.

The one set of path helpers: a folder is `parent(path)`, a file name `basename(path)`,
never a `rpartition("/")` written out again."""
from __future__ import annotations

import posixpath
from typing import Iterator


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
