"""An editor's open documents laid over another ``Source`` (the work tree on disk):
what the language server checks, so a finding follows the text being typed, not the
last save."""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Mapping, Sequence

from memcheck.paths import folders_of, normal, parent
from memcheck.text import document
from memcheck.workspace.source import Entry, Listing

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.workspace.source import Source
    from memcheck.workspace.staged import StagedFiles


class OverlaySource:
    """``base``, with the files of ``open_files`` (path -> the editor's text) read
    from the editor instead. An open file the base does not list (a new file not yet
    saved) is listed too, unless it is on disk and the base left it out on purpose
    (git ignores it): the editor's text is judged as the file would be once saved."""

    def __init__(self, base: Source, open_files: Mapping[str, str]) -> None:
        self.base = base
        self._open = {norm: text for path, text in open_files.items() if (norm := normal(path))}
        self._folders = folders_of(self._open)

    @property
    def staged(self) -> StagedFiles | None:
        return None

    def listing(self) -> Listing:
        listed = self.base.listing()
        files = listed.files  # sorted: a bisection per open document, not a set of the tree per edit
        new = [p for p in self._open if not _listed(files, p) and not self.base.is_file(p)]
        return listed._replace(files=sorted([*listed.files, *new])) if new else listed

    def read(self, path: str) -> Document:
        text = self._open.get(normal(path) or "")
        return self.base.read(path) if text is None else document.parse(path, _editor_bytes(text))

    def is_file(self, path: str) -> bool:
        return (normal(path) or "") in self._open or self.base.is_file(path)

    def exists(self, path: str) -> bool:
        norm = normal(path)
        return norm is not None and (norm in self._open or norm in self._folders) or self.base.exists(path)

    def is_inside_root(self, path: str) -> bool:
        return self.base.is_inside_root(path)

    def special_kind(self, path: str) -> str | None:
        return None if (normal(path) or "") in self._open else self.base.special_kind(path)

    def link_out(self, path: str) -> str | None:
        return self.base.link_out(path)

    def entry(self, path: str) -> Entry | None:
        norm = normal(path)
        text = self._open.get(norm or "")
        found = self.base.entry(path)
        if text is None or norm is None or (found is not None and found.kind != "file"):
            return found  # a symlink stays one, whatever its buffer holds
        return Entry("file", len(_editor_bytes(text)), found.real if found is not None else norm)

    def regular_files_in(self, folder: str) -> frozenset[str]:
        names = {p.rpartition("/")[2] for p in self._open if parent(p) == folder}
        return self.base.regular_files_in(folder) | names

    def entries_in(self, folder: str) -> tuple[list[str], list[str]]:
        folders, others = self.base.entries_in(folder)
        names = {p.rpartition("/")[2] for p in self._open if parent(p) == folder}
        below = {f.rpartition("/")[2] for f in self._folders if f and parent(f) == folder}
        return sorted(set(folders) | below), sorted(set(others) | (names - below))

    def git_ignored(self, paths: Sequence[str]) -> set[str]:
        return self.base.git_ignored(paths)

    def git_symlinks(self, paths: Sequence[str]) -> set[str]:
        return self.base.git_symlinks(paths)


def _editor_bytes(text: str) -> bytes:
    """The bytes a document's text stands for. JSON lets an editor send a lone
    surrogate (``\\ud800``), which UTF-8 cannot hold: it is kept as the bytes
    ``surrogatepass`` gives, so the document is judged as a file that is not valid
    UTF-8 (one finding), never an error that stops the checking of every file."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def _listed(files: list[str], path: str) -> bool:
    i = bisect_left(files, path)
    return i < len(files) and files[i] == path
