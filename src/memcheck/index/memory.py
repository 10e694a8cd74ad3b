"""What the index engine knows of a store: its memories, and what it asks of disk and git.

A ``Memory`` is the little of a memory file that an index shows (file name, name,
description, type); ``Exists`` and ``Ignored`` are how the engine asks about paths
relative to the store's folder, so that it stays a pure function of what it is given.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, NamedTuple, Sequence

if TYPE_CHECKING:
    from memcheck.text.document import Document

Exists = Callable[[str], bool]  # does a store-relative path name a file or folder on disk?
Ignored = Callable[[Sequence[str]], set[str]]  # of these store-relative paths, those git ignores


class Memory(NamedTuple):
    """What the index needs of one memory file."""

    filename: str  # base name, e.g. user_prefs.md
    name: str | None  # frontmatter name as the agents print it
    description: str | None
    type: str | None

    @property
    def stem(self) -> str:
        return self.filename[:-3] if self.filename.endswith(".md") else self.filename


def memory_of(filename: str, doc: Document) -> Memory:
    fm = doc.frontmatter
    if fm is None:
        return Memory(filename, None, None, None)
    kind = fm.display("type")
    if kind is None and isinstance(fm.data.get("metadata"), dict):
        nested = fm.data["metadata"].get("type")
        kind = nested if isinstance(nested, str) else None
    return Memory(filename, fm.display("name"), fm.display("description"), kind)
