"""Whether a path could be an agent file at all, told from its name alone: no file
read, no agent data loaded, nothing imported.

``memcheck check`` asks first: a tree (or a change) none of whose paths could be one
holds no agent file, and is reported so without the discovery, the agent data, YAML
or the rules, whose imports are most of a run that finds nothing (a repository
without agent files; a commit that touches none, as most do). The answer errs one
way only: a path it lets through may still be no agent file (discovery decides),
one it rules out never is one.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from memcheck.config import CONFIG_FILES

# What discovery finds is Markdown: guidance files (.md, and Cursor's .mdc rules),
# memories and their MEMORY.md, skills, and the files of nearly every kind.
MARKDOWN = (".md", ".mdc")
# The kinds' files that are not: a kind's glob of one name (Cline's `.clinerules`
# file), and a folder of a kind's files that is a symlink (git lists it as a file).
# Either holds one of these literal names of the glob as a segment: one of each glob's
# literal folders (a path it names holds them all), the innermost, which code rarely
# names (`.github` would take in every workflow file). tests/unit/test_candidates.py
# holds them to the `[[kinds]]` of resources/agents/*.toml.
KIND_NAMES = frozenset({".clinerules", "agents", "instructions", "prompts", "rules", "steering"})
# A skills folder: every file of a skill folder in one is the skill's (a folder
# without a SKILL.md is reported).
SKILLS = "skills"
# The names of files beside a skills folder that decide which agents load it (a
# plugin's manifest, the settings file of a copy of ~/.claude): a change to one is a
# change to those skills. tests/unit/test_candidates.py holds them to the agent data.
DECIDES_SKILLS = frozenset({"plugin.json", "settings.json", "CLAUDE.md", ".agents", ".gemini"})
# Files an agent reads that the secret and hidden-text rules check though they are no
# agent file (workspace/agentfiles.READ_ALSO, by their path from the root): a commit
# that put a token into `.mcp.json` alone was "nothing to check" (an outside attack).
# tests/unit/test_candidates.py holds them to that list.
READ_ALSO = frozenset({".cursorrules", ".windsurfrules", "CONVENTIONS.md", ".claude/settings.json", ".mcp.json"})


def may_be_agent_file(path: str, root: Path | None = None) -> bool:
    """``path`` (repository-relative, with ``/``) could be an agent file, or a memcheck
    config below the root, which the MCK rules report, or a file that decides which
    agents load the skills folder beside it (with ``root``: where one is there, one
    directory look-up; `.vscode/settings.json` is none)."""
    if path.endswith(MARKDOWN) or path in READ_ALSO:
        return True
    segments = path.split("/")
    if segments[-1] in DECIDES_SKILLS:
        return root is None or _skills_beside(root, segments[:-1], segments[-1])
    return segments[-1] in CONFIG_FILES or SKILLS in segments or not KIND_NAMES.isdisjoint(segments)


def _skills_beside(root: Path, folders: list[str], name: str) -> bool:
    """A skills folder beside the file in ``folders`` (a copy of ~/.claude's settings),
    or, for a plugin's manifest (`.claude-plugin/plugin.json`), beside its folder."""
    holding = folders[:-1] if name == "plugin.json" else folders  # (a link `.agents`: a copy's skills beside it)
    return os.path.isdir(os.path.join(root, *holding, SKILLS))


def none_among(paths: Iterable[str], skills_roots: Iterable[str] = (), root: Path | None = None) -> bool:
    """No path of ``paths`` (repository-relative) could be an agent file (``root``: the
    repository, for the files that decide a skills folder's agents). With
    ``skills.roots`` set, any folder may be a skills root: no path is ruled out."""
    if any(True for _ in skills_roots):
        return False
    return not any(may_be_agent_file(path, root) for path in paths)


def relative_files(root: Path, given: Iterable[str]) -> list[str] | None:
    """The given paths (as the command line names them) relative to ``root`` with
    ``/``; None when one is not a regular file inside it (a folder stands for every
    file below it, a symlink for what it leads to: discovery judges those)."""
    found = []
    for path in given:
        full = os.path.abspath(path)
        if not os.path.isfile(full) or os.path.islink(full):
            return None
        rel = os.path.relpath(full, root)
        if rel == os.curdir or rel.startswith(os.pardir):
            return None
        found.append(rel.replace(os.sep, "/"))
    return found
