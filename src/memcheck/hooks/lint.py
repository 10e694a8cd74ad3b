"""`memcheck check`: run every enabled rule family over what the paths belong to."""
from __future__ import annotations

import importlib
import sys
from typing import NamedTuple, Sequence, TextIO

from memcheck.checks import secrets
from memcheck.config import Config, selected
from memcheck.discover import USER_PREFIX, Store, Workspace, select_targets, user_workspace
from memcheck.output import ReportContext, get_reporter, resolve_format
from memcheck.problem import Problem
from memcheck.rules import FAMILY_MODULES, all_rules


class Targets(NamedTuple):
    stores: list[Store]
    guidance: list[str]
    skills: list[str]


def targets_for(ws: Workspace, paths: Sequence[str] | None) -> Targets:
    return Targets(*select_targets(ws, paths))


def collect(ws: Workspace, targets: Targets) -> list[Problem]:
    """Every enabled finding for the targets, sorted and without repeats."""
    return finish(ws.config, find(ws, targets))


def find(ws: Workspace, targets: Targets) -> set[Problem]:
    """Every enabled finding for the targets, one store at a time.

    Each family checks a store, then the store's documents are dropped: memory stays
    flat however many stores the tree holds, and no document is read twice. Guidance
    files and skills are checked together at the end.
    """
    enabled = selected(all_rules(), ws.config)
    checks = [c for c in (getattr(importlib.import_module(name), "check", None) for name in FAMILY_MODULES) if c is not None]
    parts = [Targets([store], [], []) for store in targets.stores]
    parts.append(Targets([], targets.guidance, targets.skills))
    found: set[Problem] = set()
    for part in parts:
        part_found = {p for check in checks for p in check(ws, part) if p.code in enabled}
        if part_found:
            # Whatever rule quoted a value, no secret leaves in a message (SEC ignored
            # or not); scrubbed while the part's documents are still in memory.
            found.update(secrets.scrub(part_found, ws, secrets.files_of(part)))
        for store in part.stores:
            ws.forget([*store.files, store.index])
    return found


def finish(config: Config, found: set[Problem]) -> list[Problem]:
    return sorted(drop_path_ignores(found, config))


def drop_path_ignores(problems: set[Problem], config: Config) -> set[Problem]:
    if not config.per_path_ignores:
        return problems
    import pathspec

    specs = [(pathspec.GitIgnoreSpec.from_lines([pattern]), codes) for pattern, codes in config.per_path_ignores]
    return {
        p
        for p in problems
        if not any(spec.match_file(p.path) and any(p.code.startswith(c) or c == "ALL" for c in codes) for spec, codes in specs)
    }


def report(problems: Sequence[Problem], fmt: str, out: TextIO | None = None, fixed: Sequence[str] = (), command: str = "check") -> None:
    out = out or sys.stdout
    fmt = resolve_format(fmt)
    color = fmt == "text" and _wants_color(out)
    get_reporter(fmt)(problems, out, ReportContext(color=color, fixed=fixed, command=command))


def _wants_color(out: TextIO) -> bool:
    import os

    if "NO_COLOR" in os.environ:
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty())


def collect_user(config: Config) -> list[Problem]:
    """Findings in the user-level locations (``~/.config/amp/AGENTS.md``,
    ``~/.agh/memory``, ``~/.claude/skills``, ...), with ``~/`` paths."""
    ws = user_workspace(config)
    return [p._replace(path=USER_PREFIX + p.path) for p in collect(ws, targets_for(ws, None))]


def run(config: Config, paths: Sequence[str] | None, fmt: str = "text", user: bool = False) -> int:
    ws = Workspace(config)
    problems = collect(ws, targets_for(ws, paths))
    if user:
        problems = sorted([*problems, *collect_user(config)])
    report(problems, fmt)
    return 1 if problems else 0
