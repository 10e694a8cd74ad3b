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
    config = ws.config
    enabled = selected(all_rules(), config)
    found: set[Problem] = set()
    for name in FAMILY_MODULES:
        check = getattr(importlib.import_module(name), "check", None)
        if check is not None:
            found.update(p for p in check(ws, targets) if p.code in enabled)
    # Whatever rule quoted a value, no secret leaves in a message (SEC ignored or not).
    return sorted(secrets.scrub(drop_path_ignores(found, config), ws, secrets.files_of(targets)))


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
