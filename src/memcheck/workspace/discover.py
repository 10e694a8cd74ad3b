"""One run's view of a tree (``Workspace``), and the workspaces of folders outside it.

A ``Workspace`` answers three kinds of question, each in a class of its own:
- the files of a source: what is listed, each file read once, what the disk says of a
  path (``SourceFiles``, source_files.py), which knows no store, guidance file or skill;
- the stores, guidance files and skills found among them (``FoundFiles``, found.py,
  which asks stores.py, guidance.py and skills.py);
- what is worked out from them once, per document or per run (``DerivedFacts``,
  derived.py, keyed as memo.py says).
It is all three, and what a workspace made again on the same tree takes over from the
last (the language server makes one per edit) is here, since it spans them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Sequence

from memcheck.agents import user_files as agent_user_files
from memcheck.agents import user_rules
from memcheck.config import Config
from memcheck.paths import join, parent
from memcheck.workspace import skills as _skills
from memcheck.workspace.derived import DerivedFacts
from memcheck.workspace.disk import USER_FOLDER_FILES, DiskSource, HomeSource, walk_user_folder
from memcheck.workspace.found import FoundFiles
from memcheck.workspace.memo import LISTING, SKILLS


class Workspace(FoundFiles, DerivedFacts):
    """One run's view of the tree: its files, what they are, and what has been worked out."""

    # A check's use of the cache: parts kept from earlier runs, parts in all, the folder (-v says it)
    cache_note: tuple[int, int, str] | None = None

    def reuse_listing(self, other: Workspace) -> None:
        """Take over what ``other`` worked out from the listing alone (which folders
        hold which files), when both list the same files under the same settings:
        the language server makes a Workspace per edit, on a listing unchanged since
        the last, and would otherwise sort a large tree's files into folders each time."""
        if other.config is not self.config or other.files != self.files:
            return
        self.take_listing(other)
        self.take_found(other)
        self.take_once(other, LISTING)

    def reuse_documents(self, other: Workspace, changed: Iterable[str]) -> None:
        """Take over the documents ``other`` read, and what was worked out from each,
        but for the ``changed`` paths: the language server's next edit reads again
        only the files that changed on disk or in the editor since ``other``."""
        dropped = set(changed)
        self.take_documents(other, dropped)
        self.take_derived(other, dropped)

    def reuse_skills(self, other: Workspace, changed: Iterable[str]) -> None:
        """Take over the skills ``other`` found (and what was worked out from
        them), on the same listing, when no ``changed`` path lies in a skills folder or
        a skill's folder: no other file's text or kind (a symlink or not) can change
        them. Finding them asks the disk about every file of every skill folder."""
        if other.config is not self.config or other.files != self.files or other.skills_if_found() is None:
            return
        folders = self.skill_folders
        if any(self.is_skills_root(parent(p)) or _skills.in_skill_folder(p, folders) for p in changed):
            return
        self.take_skills(other)
        self.take_once(other, SKILLS)


def relative_path(root: Path, path: str) -> str | None:
    p = Path(path)
    full = p if p.is_absolute() else Path.cwd() / p
    try:
        rel = Path(os.path.normpath(full)).relative_to(root)
    except ValueError:
        try:
            rel = full.resolve().relative_to(root.resolve())
        except ValueError:
            return None
    text = rel.as_posix()
    return "" if text == "." else text


# User-level locations (seeds 000, 001, 004): guidance in ~/.config/amp, ~/.config
# and ~/.claude; memory in ~/.agh/memory and ~/.nano_claude/memory; skills in the
# global skills folders. Reported as ``~/…``.
USER_GUIDANCE_FOLDERS = (".config/amp", ".config", ".claude")
# Claude Code keeps each project's auto memory in ~/.claude/projects/<project>/memory/.
USER_STORES = (".agh/memory", ".nano_claude/memory", ".claude/projects/*/memory")
USER_SKILL_ROOTS = (".config/agents/skills", ".config/amp/skills", ".claude/skills")
USER_PREFIX = "~/"


def user_files(home: Path, guidance_names: Iterable[str]) -> tuple[list[str], list[str]]:
    """The user-level files under ``home``, and a line for each folder of them that
    held more files than are walked (``walk_user_folder``)."""
    found: set[str] = set()
    cut: list[str] = []

    def walked(folder: str) -> list[str]:
        files, more = walk_user_folder(home / folder)
        if more:
            cut.append(
                f"{USER_PREFIX}{folder} holds more than {USER_FOLDER_FILES:,} files (a link to a whole disk?):"
                f" only the first {USER_FOLDER_FILES:,}, folders in name order, are checked"
            )
        return files

    for folder in USER_GUIDANCE_FOLDERS:
        found.update(join(folder, n) for n in guidance_names if (home / folder / n).is_file())
    found.update(p for files in agent_user_files().values() for p in files if (home / p).is_file())
    for rules in user_rules().values():
        if (home / rules).is_dir():
            found.update(join(rules, p) for p in walked(rules) if p.endswith(".md"))
    for pattern in USER_STORES:
        # (One `*` segment at most: each project's folder under ~/.claude/projects.)
        head, star, tail = pattern.partition("/*/")
        folders = [pattern] if not star else [join(join(head, e.name), tail) for e in _folders_in(home / head)]
        for folder in folders:
            if (home / folder).is_dir():
                found.update(join(folder, e.name) for e in os.scandir(home / folder) if e.name.endswith(".md"))
    for folder in USER_SKILL_ROOTS:
        if (home / folder).is_dir():
            found.update(join(folder, p) for p in walked(folder))
    return sorted(found), cut


def _folders_in(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as entries:
            return sorted((e for e in entries if e.is_dir()), key=lambda e: e.name)
    except OSError:
        return []


def user_workspace(config: Config, home: Path | None = None) -> Workspace:
    """The user's home as a workspace holding only the user-level locations."""
    home = (home or Path.home()).resolve()
    user_config = config._replace(
        memory=config.memory._replace(stores=tuple(dict.fromkeys((*config.memory.stores, *USER_STORES)))),
        skills=config.skills._replace(roots=USER_SKILL_ROOTS),
    )
    files, cut = user_files(home, config.guidance.filenames)
    ws = folder_workspace(user_config, home, files, HomeSource)
    ws.cut_short = tuple(cut)
    return ws


def folder_workspace(config: Config, folder: Path, files: Sequence[str] = (), source: type[DiskSource] = DiskSource) -> Workspace:
    """A folder outside the repository (the home folder, $CODEX_HOME, a folder above
    the repository) as a workspace of the given files; other files are read when asked.
    ``source``: how the folder is read (``HomeSource``: the home folder, its links followed)."""
    # A baseline, excludes and per-path ignores are the repository's.
    ws = Workspace(config._replace(root=folder, exclude=(), per_path_ignores=(), baseline=None), source(folder, files=files))
    ws.user = True
    return ws
