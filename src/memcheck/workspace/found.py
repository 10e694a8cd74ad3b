"""The stores, guidance files and skills found among a run's files (``FoundFiles``):
each question about them asked here, and answered by the module that finds them
(stores.py, guidance.py, skills.py), once per run."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Iterable

from memcheck.paths import basename
from memcheck.text import patterns
from memcheck.workspace import guidance as _guidance
from memcheck.workspace import skills as _skills
from memcheck.workspace import stores as _stores
from memcheck.workspace.source_files import SourceFiles, take_cached
from memcheck.workspace.stores import Store

if TYPE_CHECKING:
    from memcheck.config import Config
    from memcheck.workspace.source import Source


class FoundFiles(SourceFiles):
    """The stores, guidance files and skills among the files of a source."""

    def __init__(self, config: Config, source: Source | None = None) -> None:
        super().__init__(config, source)
        self._skills_roots: dict[str, bool] = {}  # folder -> matches a skills.roots glob

    def take_found(self, other: FoundFiles) -> None:
        """Take over what ``other`` found from the listing alone, on the same listing
        (see discover.Workspace.reuse_listing)."""
        # Outside git, which guidance files are symlinks is told from their text too.
        take_cached(self, other, ("_skill_folders", *(("_guidance",) if self.in_git and other.in_git else ())))
        if "_guidance" in self.__dict__:
            self._outside = other._outside
        if not self._skills_roots:
            self._skills_roots = other._skills_roots  # from the names and the settings alone

    def take_skills(self, other: FoundFiles) -> None:
        """Take over the skills ``other`` found (see discover.Workspace.reuse_skills)."""
        self.__dict__.setdefault("_found_skills", other.__dict__["_found_skills"])

    def skills_if_found(self) -> _skills.Skills | None:
        """The skills, if they were found yet (or given: ``give_skills``)."""
        found: _skills.Skills | None = self.__dict__.get("_found_skills")
        return found

    def give_skills(self, found: _skills.Skills) -> None:
        """The skills as an earlier run on the same tree found them, where nothing that
        finding them read or asked has changed since (engine/cache): not found again."""
        self.__dict__["_found_skills"] = found

    @cached_property
    def stores(self) -> tuple[Store, ...]:
        return _stores.stores_among(self, self.markdown_by_folder)

    def stores_among(
        self,
        folders: Iterable[str],
        judge: bool = True,
        lost_index: frozenset[str] = frozenset(),
        were_stores: frozenset[str] = frozenset(),
    ) -> tuple[Store, ...]:
        """See ``stores.stores_among``."""
        return _stores.stores_among(self, folders, judge, lost_index, were_stores)

    def is_store(self, store: Store) -> bool:
        """Whether a store from ``stores_among`` is one (only unjudged ones can be not)."""
        return _stores.is_store(self, store)

    def is_named_store(self, folder: str) -> bool:
        """A ``memory.stores`` glob names ``folder``."""
        by_last, wild = self._store_globs
        globs = [*by_last.get(basename(folder), ()), *wild]
        return bool(globs) and any(patterns.folder_matches(g, folder.split("/") if folder else []) for g in globs)

    @cached_property
    def _store_globs(self) -> tuple[dict[str, list[tuple[str, ...]]], list[tuple[str, ...]]]:
        # A glob can only name a folder whose last segment matches its own: look the
        # literal ones up by that segment rather than trying every glob on every folder.
        by_last: dict[str, list[tuple[str, ...]]] = {}
        wild: list[tuple[str, ...]] = []
        for glob in self.config.memory.stores:
            segments = patterns.folder_glob(glob)
            if segments and patterns.is_literal(segments[-1]):
                by_last.setdefault(segments[-1], []).append(segments)
            elif segments:
                wild.append(segments)
        return by_last, wild

    @property
    def guidance(self) -> tuple[str, ...]:
        """Guidance files, one per symlinked set (CLAUDE.md -> AGENTS.md is one file)."""
        return self._guidance.files

    @property
    def twins(self) -> dict[str, str]:
        """Guidance paths that are symlinks to another guidance file -> that file."""
        return self._guidance.twins

    @property
    def outside_links(self) -> frozenset[str]:
        """Guidance paths that are symlinks to a file outside the root: agents read
        them, memcheck does not follow them (they are in ``guidance`` all the same)."""
        return self._guidance.outside

    @property
    def unsure_links(self) -> frozenset[str]:
        """Outside a git work tree, guidance files whose whole text is another guidance
        file's path (see ``guidance.Guidance``)."""
        return self._guidance.unsure

    @cached_property
    def _guidance(self) -> _guidance.Guidance:
        found = _guidance.find_guidance(self)
        self._outside = found.outside  # documents never read (see ``document``)
        return found

    def is_skills_root(self, folder: str) -> bool:
        """Agents load skills from ``folder`` (see ``skills.agents_load_skills_from``),
        or a ``skills.roots`` glob names it."""
        known = self._skills_roots.get(folder)
        if known is None:
            known = _skills.agents_load_skills_from(folder, self.file_set.__contains__) or any(
                patterns.glob_matches_folder(g, folder) for g in self.config.skills.roots
            )
            self._skills_roots[folder] = known
        return known

    @property
    def skills(self) -> tuple[str, ...]:
        """SKILL.md files in skill folders, and flat skills directly inside a skills root
        (see ``skills.find_skills``)."""
        return self._found_skills.files

    @property
    def skill_links_out(self) -> tuple[str, ...]:
        """Files an agent loads with a skill that are symlinks out of the root: never
        read, and not in ``skills`` (see ``skills.find_skills``)."""
        return self._found_skills.outside

    @property
    def skill_mds(self) -> tuple[str, ...]:
        """The SKILL.md files that are skills (by their paths alone: some may be
        symlinks out of the root), sorted."""
        return self._skill_folders.skills

    @property
    def skill_folders(self) -> frozenset[str]:
        """The folders of the SKILL.md skills: every file in one is the skill's,
        and no guidance file of its folder."""
        return self._skill_folders.folders

    @property
    def skills_passed_over(self) -> tuple[tuple[str, str], ...]:
        """(a SKILL.md that is no agent's skill, why), sorted."""
        return self._skill_folders.passed_over

    @cached_property
    def _skill_folders(self) -> _skills.SkillFolders:
        return _skills.skill_folders(self)

    @cached_property
    def _found_skills(self) -> _skills.Skills:
        return _skills.find_skills(self)
