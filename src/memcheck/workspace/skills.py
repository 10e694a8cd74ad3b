"""Skills: SKILL.md files in skill folders below a skills root, and Markdown files
with a skill's frontmatter directly inside one. The skills roots are the folders
agents load skills from (``agents.agent_skill_folders()``, a plugin's ``skills/``, ``skills/``
at the repository root) and the ones ``skills.roots`` names."""

from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache
from typing import TYPE_CHECKING, Callable

from memcheck.agents import agent, home_copies, plugin_manifests, plugin_settings
from memcheck.agents import load as load_agents
from memcheck.agents import skill_folders as agent_skill_folders
from memcheck.paths import ancestors, basename, join, parent
from memcheck.records import NamedTuple
from memcheck.text import patterns
from memcheck.workspace.candidates import DECIDES_SKILLS
from memcheck.workspace.stores import INDEX_NAME

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.workspace.files import Files

SKILL_NAME = "SKILL.md"
# Never flat skills, even directly inside a skills root.
NOT_SKILL = frozenset({"README.md", INDEX_NAME})
# Keys that make a Markdown file directly inside a skills root a (flat) skill.
SKILL_KEYS = frozenset({"name", "description", "triggers"})


SKILLS = "skills"
# Why a SKILL.md is no skill (``memcheck check -v`` says it).
NOT_IN_A_ROOT = (
    "not in a folder agents load skills from ({folders}, a plugin's skills/, skills/ at the root,"
    " or one skills.roots names); add its skills folder to skills.roots to have it checked"
)


class SkillFolders(NamedTuple):
    """Where the SKILL.md skills are: worked out from the file names alone."""

    skills: tuple[str, ...]  # the SKILL.md files that are skills, sorted
    folders: frozenset[str]  # their folders (but a skills root's own): everything in one is the skill's
    passed_over: tuple[tuple[str, str], ...]  # (a SKILL.md that is no skill, why), sorted


class Skills(NamedTuple):
    files: tuple[str, ...]  # the skills, sorted
    # Files an agent loads with a skill (a SKILL.md, a flat skill, any file of a skill
    # folder) that are symlinks out of the root: never read, each reported. Sorted.
    outside: tuple[str, ...]


def agents_load_skills_from(folder: str, has_file: Callable[[str], bool]) -> bool:
    """``folder`` is one agents load skills from: one of ``agent_skill_folders()`` at any
    depth (``.claude/skills``, ...), a plugin's ``skills/`` or ``skills/`` at the root."""
    if basename(folder) != SKILLS:
        return False
    above = parent(folder)
    return (
        folder == SKILLS
        or join(basename(above), SKILLS) in agent_skill_folders()
        or any(has_file(join(above, m)) for m in plugin_manifests())
    )


def skill_folders(ws: Files) -> SkillFolders:
    """The SKILL.md files below a skills root, their folders, and the SKILL.md files
    that are no skill, with why: those in no skills root, and those inside another
    skill's folder (one of its resources)."""
    holding = sorted(folder for folder, names in ws.markdown_by_folder.items() if SKILL_NAME in names)
    below_root = {f for f in holding if any(ws.is_skills_root(a) for a in ancestors(f))}
    passed_over = [
        (join(f, SKILL_NAME), NOT_IN_A_ROOT.format(folders=", ".join(agent_skill_folders()))) for f in holding if f not in below_root
    ]
    folders: set[str] = set()
    found = []
    for folder in holding:  # sorted: a skill folder comes before the folders inside it
        path = join(folder, SKILL_NAME)
        owner = next((a for a in ancestors(parent(folder)) if a in folders), None) if folder else None
        if owner is not None:
            passed_over.append((path, f"inside the skill {owner}, one of its files: agents load only the skill's own SKILL.md"))
        elif folder in below_root:
            found.append(path)
            # A SKILL.md directly in a skills root is checked, but the root is no skill folder.
            if not ws.is_skills_root(folder):
                folders.add(folder)
    return SkillFolders(tuple(found), frozenset(folders), tuple(sorted(passed_over)))


def in_skill_folder(path: str, folders: frozenset[str]) -> bool:
    """``path`` is a skill folder, or lies inside one."""
    return any(f in folders for f in ancestors(path))


def find_skills(ws: Files) -> Skills:
    """SKILL.md files in skill folders below a skills root, and flat skills directly
    inside one; and the files of skills that are symlinks out of the root.

    Everything else inside a skill folder (a nested SKILL.md included) is one of
    its resources, not a skill of its own.
    """
    folders = ws.skill_folders
    found = [p for p in ws.skill_mds if ws.is_file(p)]
    outside: list[str] = []
    for folder, names in ws.markdown_by_folder.items():
        # Most folders are no skills root: one test per folder.
        if not ws.is_skills_root(folder) or in_skill_folder(folder, folders):
            continue
        for name in names:
            path = join(folder, name)
            if name in NOT_SKILL:
                continue
            if not ws.is_file(path):
                # Asked before its frontmatter is read: a link out is never read, so
                # whether it would be a skill is not known; agents would load it.
                if ws.link_out(path) is not None:
                    outside.append(path)
                continue
            if name != SKILL_NAME and _looks_like_skill(ws.document(path)):  # (a SKILL.md here is in skill_mds)
                found.append(path)
    if folders and not ws.user:
        outside += _links_out_below(ws, folders)
    if not ws.user:
        outside += _skill_folders_out(ws, folders)
    return Skills(tuple(sorted(found)), tuple(sorted(outside)))


def _skill_folders_out(ws: Files, folders: frozenset[str]) -> list[str]:
    """Skill folders that are symlinks out of the root: git lists such a link as one
    file (no Markdown name), and an agent loads the skill from where it leads."""
    found: list[str] = []
    # Only a `skills` folder or one the settings name can be a skills root: one name
    # test per folder, not a root test (most folders hold no Markdown to ask it for).
    named = bool(ws.config.skills.roots)
    for folder in ws.listed_folders:
        if not (named or basename(folder) == SKILLS) or not ws.is_skills_root(folder) or in_skill_folder(folder, folders):
            continue
        for name in sorted(ws.names_in(folder)):
            path = join(folder, name)
            if not name.endswith(".md") and name not in NOT_SKILL and ws.link_out(path) is not None:
                found.append(path)
    return found


def _links_out_below(ws: Files, folders: frozenset[str]) -> list[str]:
    """The listed files at or below ``folders`` that are symlinks out of the root.
    The files are sorted, so each folder's are one slice of them; one directory read
    per folder tells its regular files (most of them), and only the rest are asked."""
    files = ws.files
    tops = [f for f in sorted(folders) if not f or not any(a in folders for a in ancestors(parent(f)))]
    below: dict[str, list[str]] = {}  # folder -> its listed files under a skill folder
    for top in tops:
        start, end = (bisect_left(files, top + "/"), bisect_left(files, top + "/\U0010ffff")) if top else (0, len(files))
        for path in files[start:end]:
            below.setdefault(parent(path), []).append(path)
    found = []
    for folder, paths in below.items():
        regular = ws.source.regular_files_in(folder)
        found += [p for p in paths if basename(p) not in regular and ws.link_out(p) is not None]
    return found


def skill_name(path: str, is_skills_root: Callable[[str], bool]) -> bool:
    """A SKILL.md, or Markdown directly in a skills root: a path that could be a skill."""
    name = basename(path)
    return name == SKILL_NAME or (name.endswith(".md") and name not in NOT_SKILL and is_skills_root(parent(path)))


def _looks_like_skill(doc: Document) -> bool:
    return doc.frontmatter is not None and bool(SKILL_KEYS & doc.frontmatter.data.keys())


def seen_together(ws: Files, root: str) -> bool:
    """Agents working in a folder see the skills of ``root`` with those of the other
    such roots from there up: one of ``agent_skill_folders()`` (``.claude/skills``, ...), or
    one ``skills.roots`` names (a plugin's skills and a collection's are each seen on
    their own)."""
    return join(basename(parent(root)), basename(root)) in agent_skill_folders() or any(
        patterns.glob_matches_folder(g, root) for g in ws.config.skills.roots
    )


def scope_of(ws: Files, path: str) -> str:
    """The folder whose agents see this skill: the one holding ``.claude/skills``
    (or a configured root's first folder), else the folder above the skills folder."""
    root = skills_root(path)
    if join(basename(parent(root)), basename(root)) in agent_skill_folders():
        return parent(parent(root))
    for glob in ws.config.skills.roots:
        if patterns.glob_matches_folder(glob, root):
            depth = len([s for s in glob.strip("/").split("/") if s])
            return "/".join(root.split("/")[:-depth])
    return parent(root)


def skills_root(path: str) -> str:
    return parent(parent(path)) if basename(path) == SKILL_NAME else parent(path)


def skills_folder_decided_by(path: str) -> str | None:
    """The skills folder whose agents a file beside it decides, where ``path`` is such
    a file: a plugin's manifest (`.claude-plugin/plugin.json`) makes its skills/ the
    plugin's, and the files of a copy of an agent's home folder (Claude Code's
    CLAUDE.md and settings.json, see ``home_copies``) make the skills/ beside them
    that agent's. A change to one brings in that folder's skills."""
    if basename(path) not in DECIDES_SKILLS:
        return None  # told by name, without the agent data (a commit of memories loads none)
    for manifest in plugin_manifests():
        if path == manifest or path.endswith("/" + manifest):
            return join(path[: -len(manifest)].rstrip("/"), SKILLS)
    name = basename(path)
    for copy in home_copies():
        if name in copy.files:
            return join(parent(path), copy.skills)
    return None


def agent_root_of(path: str) -> str:
    """The agent skills folder a skill lives in, as agents name it (``.agents/skills``),
    or "" for a skill in a plugin's, a collection's or a configured root."""
    root = skills_root(path)
    name = join(basename(parent(root)), basename(root))
    return name if name in agent_skill_folders() else ""


def name_of_skill(ws: Files, path: str) -> str:
    """A skill's name: its frontmatter's ``name``, else its folder's."""
    fm = ws.document(path).frontmatter
    name = fm.data.get("name") if fm is not None else None
    return (
        name.strip()
        if isinstance(name, str) and name.strip()
        else basename(parent(path))
        if basename(path) == SKILL_NAME
        else basename(path)[:-3]
    )


def agent_roots_seeing(ws: Files, path: str) -> frozenset[str]:
    """The agent skills folders that hold this skill: its own, and each other one
    beside it holding the same skill folder by a symlink or a copy (`npx skills add`
    installs into `.agents/skills` and links into `.claude/skills`). Empty for a skill
    in no agent skills folder."""
    own = agent_root_of(path)
    if not own:
        return frozenset()
    base = parent(parent(skills_root(path)))
    found = {own}
    for folder in agent_skill_folders():
        if folder != own and ws.exists(join(join(base, folder), _tail(path))):
            found.add(folder)
    return frozenset(found)


def other_agents_skills_at(path: str) -> bool:
    """Whether ``path`` lies in, or is named like, a skills folder of an agent other
    than one whose home folder a copy copies (`.agents/skills/x/SKILL.md`, a link
    `.agents/skills` or `.agents`): such a folder may load a copy's skills, so a change
    to one changes whether a copy is one (see checks/skills/facts.home_copy_of)."""
    segments = path.lower().split("/")  # (in any case: a file system that ignores case opens `.Agents/skills`)
    if SKILLS not in segments and not segments[-1].startswith("."):
        return False  # told by name, without the agent data (a commit of memories loads none)
    others = _other_agents_skill_folders()
    padded = f"/{'/'.join(segments)}/"
    return any(f"/{f}/" in padded for f in others) or segments[-1] in {f.split("/", 1)[0] for f in others}


@lru_cache(maxsize=1)
def _other_agents_skill_folders() -> frozenset[str]:
    """The agents' skills folders (lower case) but those of an agent whose home folder
    a copy may copy."""
    own = {folder for copy in home_copies() for folder in agent(copy.agent).skill_roots}
    return frozenset(f.lower() for f in set(agent_skill_folders()) - own)


def home_copy_roots(ws: Files) -> set[str]:
    """The skills folders that may be in a copy of an agent's home folder: beside the
    files such a copy holds (their contents not read)."""
    found = set()
    for copy in home_copies():
        first, rest = copy.files[0], copy.files[1:]
        for folder, names in ws.markdown_by_folder.items() if first.endswith(".md") else ():
            if first in names and all(ws.exists(join(folder, name)) for name in rest):
                found.add(join(folder, copy.skills))
    return found


def _tail(path: str) -> str:
    """The skill as named from its skills folder: `name/SKILL.md`, or a Markdown file directly in it."""
    return join(basename(parent(path)), SKILL_NAME) if basename(path) == SKILL_NAME else basename(path)


def plugins_on(ws: Files) -> frozenset[str]:
    """The agents (their ids) whose project settings in the tree turn a plugin on
    (Claude Code's `enabledPlugins`): each such plugin may bring skills the tree does
    not hold, so a skill name or a copy memcheck cannot find may still reach them. A
    ``ws.once`` key: the settings files are read once a run, and only where asked."""
    found = set()
    for a in load_agents():
        where = plugin_settings(a.id)
        if where is None:
            continue
        files, key = where
        for path in files:
            settings = json_file(ws, path)
            plugins = settings.get(key) if isinstance(settings, dict) else None
            if isinstance(plugins, dict) and any(on is True or (isinstance(on, list) and on) for on in plugins.values()):
                found.add(a.id)
    return frozenset(found)


def json_file(ws: Files, path: str) -> object:
    """What the JSON file at ``path`` holds (an agent's settings, an extension's
    manifest); None where there is none, or it does not parse (the agent cannot read
    it either; nested some thousands deep, the parser recurses once a level)."""
    import json

    if not ws.exists(path):
        return None
    try:
        return json.loads(ws.document(path).text)
    except (ValueError, RecursionError):
        return None
