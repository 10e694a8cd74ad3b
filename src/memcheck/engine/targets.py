"""Finding what a check covers (the stores, guidance files and skills) in a tree or
among given paths."""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from memcheck.config import CONFIG_FILES
from memcheck.output import Checked
from memcheck.paths import basename, parent
from memcheck.workspace.agentfiles import find_agent_files
from memcheck.workspace.discover import Workspace, relative_path
from memcheck.workspace.memo import LISTING, kept_with
from memcheck.workspace.selection import given, select_targets
from memcheck.workspace.stores import Store
from memcheck.workspace.targets import Targets


def targets_for(
    ws: Workspace,
    paths: Sequence[str] | None,
    judge: bool = True,
    deleted: Sequence[str] = (),
    stores_found: Callable[[list[Store]], None] | None = None,
) -> Targets:
    """What to check; with ``judge`` False, possibly stores that ``find`` finds are not
    (see ``select_targets``): only for checking, never for writing indexes."""
    stores, guidance, skills = select_targets(ws, paths, judge, deleted, stores_found)
    # The given paths made relative once for both: a hook may be given thousands.
    hit = None if paths is None else given([w for w in (relative_path(ws.root, p) for p in paths) if w is not None])
    return Targets(
        stores, guidance, skills, _agent_file_targets(ws, hit, paths is not None and ws.partial, deleted), nested_configs(ws, hit)
    )


def _agent_file_targets(ws: Workspace, hit: Callable[[str], bool] | None, partial: bool, deleted: Sequence[str]) -> list[str]:
    if partial:
        return []  # a hook run on memory files only
    found = find_agent_files(ws).paths()
    if hit is None or deleted:
        return found
    return [p for p in found if hit(p)]


def nested_configs(ws: Workspace, hit: Callable[[str], bool] | None) -> list[str]:
    """The files below the root named as memcheck's config files, among the paths ``hit``
    takes (the whole tree for None): one look at each file's name, none read here."""
    candidates = ws.once(_configs_below_root)
    if hit is None:
        return candidates
    return [f for f in candidates if hit(f)]


@kept_with(LISTING)  # from the listing alone: an edit in the language server keeps it
def _configs_below_root(ws: Workspace) -> list[str]:
    # endswith first: one C call per file, the name split only for the few that match.
    return [f for f in ws.files if f.endswith(CONFIG_FILES) and basename(f) in CONFIG_FILES and parent(f)]


# The fields of Targets that name what a part checks (``rules.FAMILY_PARTS`` names them).
PART_KINDS = ("stores", "guidance", "skills", "kind_files", "configs")


def part_kinds(parts: Iterable[Targets]) -> frozenset[str]:
    """The kinds of part among ``parts``: each field of Targets that one of them fills."""
    return frozenset(kind for part in parts for kind in PART_KINDS if getattr(part, kind))


def size(part: Targets) -> int:
    """About how many files a part reads (skills count double: each is compared with
    the others)."""
    return len(part.guidance) + 2 * len(part.skills) + len(part.kind_files) + sum(len(s.all_files) for s in part.stores) + len(part.configs)


def looked_at(ws: Workspace, targets: Targets, scope: str) -> Checked:
    """What a run checks, for its summary line: the guidance files, the stores and
    their memories, the skills (each once: not the files of one that link out).

    A folder found by its MEMORY.md alone counts as a store here before the checks
    judge it (``Workspace.is_store``): telling would read its files a second time."""
    outside = set(ws.skill_links_out)
    skills = sum(s not in outside for s in targets.skills)
    # kind_files also names skill folders that hold no SKILL.md: only files count here.
    others = sum(p in ws.file_set for p in targets.kind_files)
    return Checked(len(targets.guidance), len(targets.stores), sum(len(s.files) for s in targets.stores), skills, scope, others)
