"""Skills: SKILL.md files in skill folders, and Markdown files with a skill's
frontmatter directly inside a skills root (``skills.roots``)."""
from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Callable, NamedTuple

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


class Skills(NamedTuple):
    files: tuple[str, ...]  # the skills, sorted
    # Files an agent loads with a skill (a SKILL.md, a flat skill, any file of a skill
    # folder) that are symlinks out of the root: never read, each reported. Sorted.
    outside: tuple[str, ...]


def find_skills(ws: Workspace) -> Skills:
    """SKILL.md files in skill folders, and flat skills directly inside a skills root;
    and the files of skills that are symlinks out of the root.

    Everything else inside a skill folder (a nested SKILL.md included) is one of
    its resources, not a skill of its own.
    """
    by_folder = ws.markdown_by_folder  # folder -> its Markdown files' names
    folders = {folder for folder, names in by_folder.items() if SKILL_NAME in names}

    def in_skill_folder(folder: str) -> bool:
        return any(f in folders for f in ancestors(folder))

    found = []
    outside: list[str] = []
    for folder, names in by_folder.items():
        # Most folders hold neither a SKILL.md nor flat skills: one test per folder.
        skills_root = ws.is_skills_root(folder)
        if not skills_root and SKILL_NAME not in names:
            continue
        for name in names:
            path = join(folder, name)
            if name == SKILL_NAME:
                if folder and in_skill_folder(parent(folder)):
                    continue
            elif name in NOT_SKILL or not skills_root or in_skill_folder(folder):
                continue
            elif not ws.is_file(path):
                # Asked before its frontmatter is read: a link out is never read, so
                # whether it would be a skill is not known; agents would load it.
                if ws.link_out(path) is not None:
                    outside.append(path)
                continue
            elif not _looks_like_skill(ws.document(path)):
                continue
            if ws.is_file(path):
                found.append(path)
    if folders and not ws.user:
        outside += _links_out_below(ws, folders)
    return Skills(tuple(sorted(found)), tuple(sorted(outside)))


def _links_out_below(ws: Workspace, folders: set[str]) -> list[str]:
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
