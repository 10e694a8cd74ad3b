"""The agent files beyond guidance files and skills: the files each ``[[kinds]]``
entry of the agent data names (subagents, custom agents, prompt files, Kiro
steering, Cline rules), and the skill folders an agent loads nothing from (no
SKILL.md, or one named in the wrong case). Found over the workspace's listing, with
the kinds' globs matched by ``text/patterns``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck import agents
from memcheck.agents import kinds as agentkinds
from memcheck.paths import basename, join, parent
from memcheck.records import NamedTuple
from memcheck.text import patterns
from memcheck.workspace.memo import LISTING, kept_with
from memcheck.workspace.skills import SKILL_NAME, SKILLS, in_skill_folder, seen_together

if TYPE_CHECKING:
    from memcheck.workspace.discover import Workspace


# Files an agent reads that memcheck models as no agent file, by their path from the
# root, each with the page that says which agent reads it and how: the secret and
# hidden-text rules read them as they read one, since what they hold goes into the
# agent's context or its tools' environment. (No other rule reads them.)
READ_ALSO = {
    ".cursorrules": "https://cursor.com/docs/rules: Cursor's legacy project rules, still applied to every chat",
    ".windsurfrules": "https://docs.windsurf.com/windsurf/cascade/memories: Windsurf's legacy project rules",
    "CONVENTIONS.md": "https://aider.chat/docs/usage/conventions.html: aider's conventions, read into every chat (--read)",
    ".claude/settings.json": "https://code.claude.com/docs/en/settings: its env is set in every session, and its hooks run",
    ".mcp.json": "https://code.claude.com/docs/en/mcp: each server's env is given to the command Claude Code starts",
}


class AgentFiles(NamedTuple):
    kinds: dict[str, str]  # path -> kind id, for files no other part of memcheck checks
    # (a file, what is wrong): a skill folder's SKILL.md in the wrong case, or the
    # first file of a skill folder without any SKILL.md. Sorted.
    loose_skill_folders: tuple[tuple[str, str], ...]
    # (a file, the guidance file it names in another case): ``claude.md`` beside no
    # CLAUDE.md, which a case-insensitive file system opens as CLAUDE.md. No guidance
    # file here (no agent reads it by that exact name), but the secret and hidden-text
    # rules read it as they read one. Sorted.
    case_variants: tuple[tuple[str, str], ...] = ()
    read_also: tuple[str, ...] = ()  # the files of READ_ALSO the tree holds

    def paths(self) -> list[str]:
        return sorted(
            {*self.kinds, *(path for path, _ in self.loose_skill_folders), *(path for path, _ in self.case_variants), *self.read_also}
        )


def could_be_one(path: str) -> bool:
    """Whether a given path may be one of these (a hook run on it needs the whole
    tree listed): a kind's file, or a file of a folder in a skills folder."""
    return (
        path in READ_ALSO
        or agentkinds.kind_of_path(path) is not None
        or basename(parent(parent(path))) == SKILLS
        or basename(path).lower() in agents.named_lower()
    )


def find_agent_files(ws: Workspace) -> AgentFiles:
    return ws.once(_find)


@kept_with(LISTING)  # from the listing alone: the same on the same listing
def _find(ws: Workspace) -> AgentFiles:
    guidance = set(ws.guidance) | set(ws.twins)
    globbed = [k for k in agentkinds.kinds() if k.globs]
    # A glob names a path only if each literal segment of one of its alternatives
    # (`.claude` and `agents` of `**/.claude/agents/**/*.md`) is a segment of the path:
    # tried once per folder, that leaves the exact match for the few files it can name.
    # (A memory store under .claude holds most of a tree's agent files: tried against
    # every glob, they took a sixth of a whole check of bench/'s M tree.)
    needs = [_Needs.of(glob) for kind in globbed for glob in kind.globs]
    found: dict[str, str] = {}
    variants: list[tuple[str, str]] = []
    named = agents.named_lower()
    filenames = ws.config.guidance.filenames
    lowered = named | {n.lower() for n in filenames}
    for folder in ws.listed_folders:
        names = ws.names_in(folder)
        for name in names:
            # (a guidance file's own name, left out for a reason of its own, is no variant:
            # a skill's resources, an excluded file; nor is a file of a skill folder)
            if (
                name.lower() in lowered
                and (path := join(folder, name)) not in guidance
                and agents.kind_of(path, filenames) is None
                and not in_skill_folder(folder, ws.skill_folders)
            ):
                other = agents.case_variant_of(path, filenames)
                if other is not None:
                    variants.append((path, other))
        matched, as_folder = _candidates(needs, folder, names)
        for name in matched | as_folder:
            path = join(folder, name)
            if path in guidance:
                continue
            if name in matched:
                for kind in globbed:
                    if any(agentkinds.names(glob, path) for glob in kind.globs):
                        found[path] = kind.id
                        break
                if path in found:
                    continue
            if name in as_folder:
                # A folder of the kind's files that is a symlink out of the root, which git
                # lists as one file: the agent loads what it leads to. memcheck never
                # follows it, and reports it as it does a file that is one.
                kind_id = _folder_kind(globbed, path)
                if kind_id is not None and ws.link_out(path) is not None:
                    found[path] = kind_id
    read_also = tuple(sorted(path for path in READ_ALSO if basename(path) in ws.names_in(parent(path)) and path not in guidance))
    return AgentFiles(dict(sorted(found.items())), tuple(sorted(_loose_skill_folders(ws))), tuple(sorted(variants)), read_also)


class _Needs(NamedTuple):
    """What a path must have for a kind's glob to name it, or a file in it (``_folder_kind``)."""

    # The segments each alternative of the glob spells out (``.claude`` and ``agents``
    # of ``**/.claude/agents/**/*.md``), as ``agentkinds.names`` matches it: a path it
    # names has them all among its own segments (no alternative: a glob too large to match).
    alternatives: list[set[str]]
    file_name: str  # the name ``_folder_kind`` gives a file in a folder
    top_only: bool  # names files at the top of the tree only (``/.clinerules``)

    @classmethod
    def of(cls, glob: str) -> _Needs:
        alternatives = [{s for s in alt.segments if patterns.is_literal(s)} for alt in patterns.compile_glob(glob)]
        return cls(alternatives, basename(glob).replace("*", "_"), agentkinds.top_only(glob))


def _candidates(needs: list[_Needs], folder: str, names: set[str]) -> tuple[set[str], set[str]]:
    """Of a folder's file ``names``, those some glob may name, and those some glob may
    name a file in, were the name a folder (see ``_folder_kind``): the ones whose
    folder and name (and, as a folder, the glob's own file name) hold every literal
    segment of one of its alternatives."""
    folder_segments = set(folder.split("/")) if folder else set()
    matched: set[str] = set()
    as_folder: set[str] = set()
    for need in needs:
        if need.top_only:
            # (a file in a folder has a slash in its path)
            if not folder:
                matched |= names
            continue
        for literal in need.alternatives:
            left = literal - folder_segments
            if not left:
                return names, names
            if len(left) == 1:
                matched |= left & names
            left.discard(need.file_name)
            if not left:
                as_folder = names
            elif len(left) == 1 and as_folder is not names:
                as_folder |= left & names
    return matched, as_folder


def _folder_kind(kinds: list[agentkinds.Kind], path: str) -> str | None:
    """The kind whose files ``path`` would hold, were it a folder: a glob matches a
    file in it named as the glob's last part names its files (``_.prompt.md``)."""
    for kind in kinds:
        for glob in kind.globs:
            if agentkinds.names(glob, join(path, basename(glob).replace("*", "_"))):
                return kind.id
    return None


def _miscased(folder: str, name: str) -> str:
    """Why a skill file named ``skill.md`` is not loaded, from the agent data: the
    agents of its skills folder whose loaders take ``SKILL.md`` by that exact name,
    and the others, not known to load it (the Agent Skills reference validator
    accepts either case, so a skill it passes can still load nowhere)."""
    root = parent(folder)
    loaders = [agents.agent(a) for a in agents.skill_agents(join(basename(parent(root)), basename(root)))]
    exact = [a.id for a in loaders if a.skill_keys is not None and a.skill_keys.provenance.confirmed and a.skill_keys.file_name]
    others = [a.id for a in loaders if a.id not in exact]
    parts = [f"{agents.titles(exact)} {'loads' if len(exact) == 1 else 'load'} a skill from SKILL.md by that exact name"] if exact else []
    parts += [f"{agents.titles(others)} {'is' if len(others) == 1 else 'are'} not known to load {name}"] if others else []
    said = ", and ".join(parts) or "agents load a skill from SKILL.md"
    return (
        f"the skill file is named {name}: {said} (on a case-sensitive file system, as on Linux and in CI, "
        f"{name} is not SKILL.md; the Agent Skills reference validator accepts either); rename it to SKILL.md"
    )


def _loose_skill_folders(ws: Workspace) -> list[tuple[str, str]]:
    """Folders directly in a skills root that agents discover (``.claude/skills``,
    ``.agents/skills``, ...) holding files but no SKILL.md at any depth. A SKILL.md
    that is no skill (one inside another skill's folder, as a test fixture of it) is
    a SKILL.md all the same: its folder is not reported as having none, nor its file
    as named in another case."""
    with_skill = set()
    for path in (*ws.skill_mds, *(path for path, _ in ws.skills_passed_over)):
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
            found.append((miscased[folder], _miscased(folder, basename(miscased[folder]))))
        else:
            found.append(
                (
                    path,
                    f"the skill folder {folder} has no SKILL.md, so agents load nothing from it; add a SKILL.md with name and description, or move the folder out of {parent(folder)}",
                )
            )
    return found
