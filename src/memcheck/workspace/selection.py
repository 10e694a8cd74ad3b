"""What to check for the paths a run was given (pre-commit's file list, a hook's
folders): the stores, guidance files and skills among a workspace's files. Finding
the files is discover.Workspace's; choosing among them is this module's."""

from __future__ import annotations

import os
from typing import Callable, Iterable, Sequence

from memcheck.agents import kind_of
from memcheck.config import Config
from memcheck.paths import ancestors as _ancestors
from memcheck.paths import basename, parent
from memcheck.text import patterns
from memcheck.workspace import agentfiles
from memcheck.workspace import skills as _skills
from memcheck.workspace.discover import Workspace, relative_path
from memcheck.workspace.stores import INDEX_NAME, Store


def select_targets(
    ws: Workspace,
    paths: Iterable[str] | None,
    judge: bool = True,
    deleted: Sequence[str] = (),
    stores_found: Callable[[list[Store]], None] | None = None,
) -> tuple[list[Store], list[str], list[str]]:
    """What to check for the given paths (pre-commit's file list): stores, guidance, skills.

    A changed memory file or index brings in its whole store, since the index depends
    on every file in it; so does a change to one of the store's own documents
    (SOUL.md), which the store's check reads. A folder brings in everything below it. No paths: everything,
    and with ``judge`` False the stores found by their MEMORY.md alone are left for the
    checks to judge (``Workspace.is_store``). ``deleted``: paths a change removed
    (see ``staged.changed_paths``); each brings in the store it was in (its index
    may still list it) and every guidance file and skill (one may import or link it).
    ``stores_found``: told the whole tree's stores as soon as they are found, before
    the guidance files and skills are looked for (see engine/collect.EarlyStart).
    """
    if paths is None:
        stores = list(ws.stores if judge else ws.stores_among(ws.folders_with_markdown, judge=False))
        if stores_found is not None:
            stores_found(stores)
        return stores, list(ws.guidance), skill_targets(ws)
    wanted = [w for w in (relative_path(ws.root, p) for p in paths) if w is not None]
    gone = [w for w in (relative_path(ws.root, p) for p in deleted) if w is not None]
    wanted_set = set(wanted)
    hit = given(wanted)

    # Only folders that hold a given path or lie below a given folder can be hit:
    # judge those, not the whole tree, so a hook run on one file stays cheap.
    folders = {parent(w) for w in (*wanted, *gone)}
    if not all(w in ws.file_set for w in wanted):  # a file is no folder: only a folder given has folders below it
        folders.update(f for f in ws.folders_with_markdown if _folder_hit(f, wanted_set))
    candidates = ws.stores_among(folders, lost_index=frozenset(parent(g) for g in gone if basename(g) == INDEX_NAME))
    gone_from = {parent(g) for g in gone}
    stores = [
        s
        for s in candidates
        if s.folder in gone_from or hit(s.index) or any(hit(f) for f in (*s.files, *s.outside, *s.own)) or _folder_hit(s.folder, wanted_set)
    ]
    if ws.partial:
        return stores, [], []  # hook_folders found no path that could be anything else
    if gone:
        return stores, list(ws.guidance), skill_targets(ws)
    # Finding every guidance file and skill means looking through the whole tree: done
    # only when a given path could be one (or is a folder), not for a memory file.
    files_only = all(w in ws.file_set for w in wanted)
    guidance: list[str] = []
    if not files_only or any(kind_of(w, ws.config.guidance.filenames) is not None for w in wanted):
        # A symlinked twin (CLAUDE.md -> AGENTS.md) brings in the file it is.
        twins_hit = {real for twin, real in ws.twins.items() if hit(twin)}
        guidance = [g for g in ws.guidance if hit(g) or g in twins_hit]
    skills: list[str] = []
    # A file that decides which agents load a skills folder (a plugin's manifest, a copy
    # of ~/.claude's settings.json) brings in that folder's skills.
    decided = {f for w in wanted if (f := _skills.skills_folder_decided_by(w)) is not None and ws.is_skills_root(f)}
    # A path in (or named like) another agent's skills folder decides whether a copy of
    # ~/.claude is one: its skills are checked again.
    if any(_skills.other_agents_skills_at(w) for w in wanted):
        decided |= _skills.home_copy_roots(ws)
    # (A file of a skill folder that links out of the root is reported as the skill's,
    # and so are the dead links of the Markdown it ships: its skill is checked.)
    if (
        not files_only
        or decided
        or any(_skills.skill_name(w, ws.is_skills_root) or ws.link_out(w) is not None or _shipped_by_a_skill(ws, w) for w in wanted)
    ):
        shipped = {f for w in wanted if w.endswith(".md") for f in _ancestors(parent(w)) if f}
        skills = [
            s
            for s in skill_targets(ws)
            if hit(s) or (basename(s) == _skills.SKILL_NAME and parent(s) in shipped) or _skills.skills_root(s) in decided
        ]
    return stores, guidance, skills


def _shipped_by_a_skill(ws: Workspace, path: str) -> bool:
    """A Markdown file inside a skill folder (see SKL012: its links are the skill's)."""
    # A skills root is a folder named skills or one the config names: a path with
    # neither is told without finding the tree's skills (a walk of the whole tree).
    if not path.endswith(".md") or not ("skills/" in path or ws.config.skills.roots):
        return False
    return _skills.in_skill_folder(parent(path), ws.skill_folders)


def given(paths: Iterable[str] | None) -> Callable[[str], bool]:
    """Whether a path is one of ``paths`` (relative to the root) or lies below one;
    for None, every path is."""
    if paths is None:
        return lambda path: True
    # Looked up by each path's folders, not tried one by one: a hook run may be given
    # thousands of paths, and a store thousands of files.
    wanted = set(paths)
    if "" in wanted:
        return lambda path: True
    return lambda path: path in wanted or any(f in wanted for f in _ancestors(parent(path)) if f)


def skill_targets(ws: Workspace) -> list[str]:
    """The skills to check, with the files of skills that link out of the root."""
    return [*ws.skills, *ws.skill_links_out]


def hook_folders(config: Config, paths: Sequence[str]) -> list[str] | None:
    """The folders a check of ``paths`` needs listed, or None for the whole tree.

    A hook run on memory files needs only their folders (each file's store); listing
    those is a fraction of listing a large tree. Any path that is not a regular file,
    or could be a guidance file or a skill (finding those needs the whole tree), or is
    outside the root, asks for everything.
    """
    folders: set[str] = set()
    for given in paths:
        rel = relative_path(config.root, given)
        full = os.path.join(config.root, rel) if rel else ""
        if not rel or not os.path.isfile(full) or os.path.islink(full):
            return None
        if kind_of(rel, config.guidance.filenames) is not None or agentfiles.could_be_one(rel):
            return None
        decided = _skills.skills_folder_decided_by(rel)
        if decided is not None and os.path.isdir(os.path.join(config.root, decided)):
            return None  # it decides which agents load the skills beside it: those are checked
        # (Without the listing, any folder named skills may be a plugin's: asked as one.)
        if _skills.skill_name(
            rel,
            lambda folder: basename(folder) == _skills.SKILLS or any(patterns.glob_matches_folder(g, folder) for g in config.skills.roots),
        ):
            return None
        folders.add(parent(rel))
        if len(folders) > _MAX_HOOK_FOLDERS:
            return None
    return sorted(folders)


# git matches every listed file against every folder it is given: past a few hundred
# folders (a commit that touches a whole code base), one listing of the tree is cheaper.
_MAX_HOOK_FOLDERS = 256


def _folder_hit(folder: str, wanted: set[str]) -> bool:
    """``folder`` is a given path or lies below one.

    Each folder's ancestors are tried: folders × depth, bounded because a path holds
    at most 4,096 bytes, so at most 2,048 levels (a chain of 1,600 folders each
    holding Markdown took 1.8 s of CPU to check)."""
    return "" in wanted or any(f in wanted for f in _ancestors(folder) if f)
