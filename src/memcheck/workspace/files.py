"""What finding the stores, guidance files and skills of a tree asks of it: the files
of a source and the answers about them, as a protocol that ``discover.Workspace``
meets (its ``SourceFiles`` and ``FoundFiles`` parts). Finding them is done for the Workspace, which imports the modules that do it;
they name this protocol instead of the Workspace, so no module imports back the one
that imports it (a circle even for the type checker's sake)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Protocol

if TYPE_CHECKING:
    from memcheck.config import Config
    from memcheck.text.document import Document
    from memcheck.workspace.source import Source


class Files(Protocol):
    """The part of a ``Workspace`` that finding stores, guidance and skills reads."""

    config: Config
    source: Source
    files: list[str]  # the tree's files, as the listing and the settings' excludes leave them
    in_git: bool
    listed_by_git: bool
    user: bool  # the user-level locations under $HOME, not a repository

    @property
    def markdown_by_folder(self) -> dict[str, list[str]]: ...
    @property
    def listed_folders(self) -> Iterable[str]: ...
    @property
    def skill_folders(self) -> frozenset[str]: ...
    @property
    def skill_mds(self) -> tuple[str, ...]: ...

    def document(self, path: str) -> Document: ...
    def exists(self, path: str) -> bool: ...
    def is_file(self, path: str) -> bool: ...
    def names_in(self, folder: str) -> set[str]: ...
    def link_out(self, path: str) -> str | None: ...
    def excludes(self, path: str) -> bool: ...
    def is_named_store(self, folder: str) -> bool: ...
    def is_skills_root(self, folder: str) -> bool: ...
