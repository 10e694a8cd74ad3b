"""Files held in memory as a ``Source``: for tests, and an editor's unsaved buffers."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Mapping, Sequence

from memcheck.paths import basename, normal, parent, split
from memcheck.text import document
from memcheck.text.document import Document
from memcheck.workspace.source import Entry, Listing

if TYPE_CHECKING:
    from memcheck.workspace.staged import StagedFiles

# What the disk says of a file that is not there.
_MISSING = "cannot be read: No such file or directory"


class MemorySource:
    """Files held in memory, path -> content: no symlinks, no special files, no git."""

    staged: StagedFiles | None = None

    def __init__(self, files: Mapping[str, bytes]) -> None:
        self._files = {norm: data for path, data in files.items() if (norm := normal(path))}
        self._names: dict[str, set[str]] = {"": set()}  # folder -> names of the files directly in it
        for path in self._files:
            folder, name = split(path)
            self._names.setdefault(folder, set()).add(name)
            while folder and (folder := parent(folder)) not in self._names:
                self._names[folder] = set()

    def listing(self) -> Listing:
        return Listing(sorted(self._files), by_git=False, in_git=False)

    def read(self, path: str) -> Document:
        data = self._files.get(normal(path) or "")
        return Document(path, error=_MISSING) if data is None else document.parse(path, data)

    def is_file(self, path: str) -> bool:
        return (normal(path) or "") in self._files

    def exists(self, path: str) -> bool:
        norm = normal(path)
        return norm is not None and (norm in self._files or norm in self._names)

    def is_inside_root(self, path: str) -> bool:
        return normal(path) is not None

    def special_kind(self, path: str) -> str | None:
        return None

    def link_out(self, path: str) -> str | None:
        return None

    def entry(self, path: str) -> Entry | None:
        norm = normal(path)
        data = self._files.get(norm or "")
        return None if norm is None or data is None else Entry("file", len(data), norm)

    def regular_files_in(self, folder: str) -> frozenset[str]:
        return frozenset(self._names.get(folder, ()))

    def entries_in(self, folder: str) -> tuple[list[str], list[str]]:
        return sorted(self._folders_in.get(folder, ())), sorted(self._names.get(folder, ()))

    @cached_property
    def _folders_in(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for f in self._names:
            if f:
                found.setdefault(parent(f), []).append(basename(f))
        return found

    def git_ignored(self, paths: Sequence[str]) -> set[str]:
        return set()

    def git_symlinks(self, paths: Sequence[str]) -> set[str]:
        return set()
