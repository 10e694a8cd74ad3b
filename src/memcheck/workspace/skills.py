"""Skills: SKILL.md files in skill folders, and Markdown files with a skill's
frontmatter directly inside a skills root (``skills.roots``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from memcheck.paths import ancestors, basename, join, parent
from memcheck.text import patterns
from memcheck.workspace.stores import INDEX_NAME

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

SKILL_NAME = "SKILL.md"
# Never flat skills, even directly inside a skills root.
NOT_SKILL = frozenset({"README.md", INDEX_NAME})
# Keys that make a Markdown file directly inside a skills root a (flat) skill.
SKILL_KEYS = frozenset({"name", "description", "triggers"})


def find_skills(ws: Workspace) -> tuple[str, ...]:
    """SKILL.md files in skill folders, and flat skills directly inside a skills root.

    Everything else inside a skill folder (a nested SKILL.md included) is one of
    its resources, not a skill of its own.
    """
    by_folder = ws.markdown_by_folder  # folder -> its Markdown files' names
    folders = {folder for folder, names in by_folder.items() if SKILL_NAME in names}

    def in_skill_folder(folder: str) -> bool:
        return any(f in folders for f in ancestors(folder))

    found = []
    for folder, names in by_folder.items():
        # Most folders hold neither a SKILL.md nor flat skills: one test per folder.
        skills_root = ws.is_skills_root(folder)
        if not skills_root and SKILL_NAME not in names:
            continue
        for name in names:
            if name == SKILL_NAME:
                if folder and in_skill_folder(parent(folder)):
                    continue
            elif name in NOT_SKILL or not skills_root:
                continue
            elif in_skill_folder(folder) or not _looks_like_skill(ws.document(join(folder, name))):
                continue
            if ws.is_file(join(folder, name)):
                found.append(join(folder, name))
    return tuple(sorted(found))


def skill_name(path: str, is_skills_root: Callable[[str], bool]) -> bool:
    """A SKILL.md, or Markdown directly in a skills root: a path that could be a skill."""
    name = basename(path)
    return name == SKILL_NAME or (name.endswith(".md") and name not in NOT_SKILL and is_skills_root(parent(path)))


def _looks_like_skill(doc: Document) -> bool:
    return doc.frontmatter is not None and bool(SKILL_KEYS & doc.frontmatter.data.keys())


def scope_of(ws: Workspace, path: str) -> str:
    """The folder whose agents see this skill: the one holding ``.claude/skills``
    for a configured root, else the folder above the skills folder."""
    root = skills_root(path)
    for glob in ws.config.skills.roots:
        if patterns.glob_matches_folder(glob, root):
            depth = len([s for s in glob.strip("/").split("/") if s])
            return "/".join(root.split("/")[:-depth])
    return parent(root)


def skills_root(path: str) -> str:
    return parent(parent(path)) if basename(path) == SKILL_NAME else parent(path)
