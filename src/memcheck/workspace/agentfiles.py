"""The agent files beyond guidance files and skills: the files each ``[[kinds]]``
entry of the agent data names (subagents, custom agents, prompt files, Kiro
steering, Cline rules), and the skill folders an agent loads nothing from (no
SKILL.md, or one named in the wrong case). Found over the workspace's listing, with
the kinds' globs matched by ``text/patterns``."""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from memcheck import agentkinds
from memcheck.paths import basename, join, parent
from memcheck.text import patterns
from memcheck.workspace.discover import LISTING_ONCE
from memcheck.workspace.skills import SKILL_NAME, SKILLS, seen_together

if TYPE_CHECKING:
    from memcheck.workspace.discover import Workspace


class AgentFiles(NamedTuple):
    kinds: dict[str, str]  # path -> kind id, for files no other part of memcheck checks
    # (a file, what is wrong): a skill folder's SKILL.md in the wrong case, or the
    # first file of a skill folder without any SKILL.md. Sorted.
    loose_skill_folders: tuple[tuple[str, str], ...]

    def paths(self) -> list[str]:
        return sorted({*self.kinds, *(path for path, _ in self.loose_skill_folders)})


def could_be_one(path: str) -> bool:
    """Whether a given path may be one of these (a hook run on it needs the whole
    tree listed): a kind's file, or a file of a folder in a skills folder."""
    return agentkinds.kind_of_path(path) is not None or basename(parent(parent(path))) == SKILLS


def find_agent_files(ws: Workspace) -> AgentFiles:
    return ws.once(_find)


def _find(ws: Workspace) -> AgentFiles:
    guidance = set(ws.guidance) | set(ws.twins)
    globbed = [k for k in agentkinds.kinds() if k.globs]
    # A file can only match a glob holding a literal folder it has (.claude, .kiro):
    # one set test per file, not one glob match per file and glob.
    literal = [_literal_segments(glob) for kind in globbed for glob in kind.globs]
    # A glob that spells no folder out (`*.prompt.md`) may name any file: no filter then.
    needles = None if not all(literal) else set().union(*literal)
    found: dict[str, str] = {}
    for path in ws.files:
        if path in guidance or (needles is not None and needles.isdisjoint(path.split("/"))):
            continue
        for kind in globbed:
            if any(agentkinds.names(glob, path) for glob in kind.globs):
                found[path] = kind.id
                break
        else:
            # A folder of the kind's files that is a symlink out of the root, which git
            # lists as one file: the agent loads what it leads to. memcheck never
            # follows it, and reports it as it does a file that is one.
            kind_id = _folder_kind(globbed, path)
            if kind_id is not None and ws.link_out(path) is not None:
                found[path] = kind_id
    return AgentFiles(dict(sorted(found.items())), tuple(sorted(_loose_skill_folders(ws))))


LISTING_ONCE.add(_find)  # from the listing alone: the same on the same listing


def _folder_kind(kinds: list[agentkinds.Kind], path: str) -> str | None:
    """The kind whose files ``path`` would hold, were it a folder: a glob matches a
    file in it named as the glob's last part names its files (``_.prompt.md``)."""
    for kind in kinds:
        for glob in kind.globs:
            if agentkinds.names(glob, join(path, basename(glob).replace("*", "_"))):
                return kind.id
    return None


def _literal_segments(glob: str) -> set[str]:
    """The folder names a glob spells out (``.claude`` of ``**/.claude/agents/*.md``),
    or its whole name for a one-segment glob (``.clinerules``); none for a glob that
    spells out no part (``*.prompt.md``)."""
    segments = [s for s in glob.strip("/").split("/") if s]
    return {s for s in segments if patterns.is_literal(s) and s != "**"}


def _loose_skill_folders(ws: Workspace) -> list[tuple[str, str]]:
    """Folders directly in a skills root that agents discover (``.claude/skills``,
    ``.agents/skills``, ...) holding files but no SKILL.md at any depth."""
    with_skill = set()
    for path in ws.skill_mds:
        folder = parent(path)
        while folder and folder not in with_skill:
            with_skill.add(folder)
            folder = parent(folder)
    first_file: dict[str, str] = {}
    miscased: dict[str, str] = {}
    roots: dict[str, bool] = {}

    def is_root(folder: str) -> bool:
        if folder not in roots:
            roots[folder] = folder != "" and ws.is_skills_root(folder) and seen_together(ws, folder)
        return roots[folder]

    # The skill folder a folder is (or is inside): the one right below the shallowest
    # skills root above it. Worked out from each folder's parent, once per folder, so
    # a tree thousands of folders deep is not walked once per file and level.
    skill_folder: dict[str, str | None] = {"": None}
    for path in ws.files:
        folder = parent(path)
        missing = []
        while folder not in skill_folder:
            missing.append(folder)
            folder = parent(folder)
        for below in reversed(missing):
            up = parent(below)
            skill_folder[below] = skill_folder[up] or (below if is_root(up) else None)
        found_in = skill_folder[parent(path)]
        if found_in is None or found_in in with_skill:
            continue
        if found_in not in first_file or path < first_file[found_in]:
            first_file[found_in] = path
        if parent(path) == found_in and basename(path).lower() == SKILL_NAME.lower():
            miscased[found_in] = min(path, miscased.get(found_in, path))
    found = []
    for folder, path in first_file.items():
        if folder in miscased:
            name = basename(miscased[folder])
            found.append((miscased[folder], f"the skill file is named {name}, and agents load SKILL.md by that exact name (a case-sensitive file system, as on Linux and in CI, finds no SKILL.md); rename it to SKILL.md"))
        else:
            found.append((path, f"the skill folder {folder} has no SKILL.md, so agents load nothing from it; add a SKILL.md with name and description, or move the folder out of {parent(folder)}"))
    return found
