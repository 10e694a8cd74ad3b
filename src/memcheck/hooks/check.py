"""`memcheck check`: run every enabled rule family over what the paths belong to."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Sequence

from memcheck.config import Config
from memcheck.engine.collect import collect, family_checks, no_cycle_collection
from memcheck.engine.targets import targets_for
from memcheck.hooks.report import destination, report
from memcheck.problem import Problem, failing
from memcheck.text import document
from memcheck.workspace.discover import USER_PREFIX, Workspace, user_workspace
from memcheck.workspace.listing import GitListing, StagedIndex


def _collect_tree(config: Config, paths: Sequence[str] | None, listing: GitListing | None, staged: StagedIndex | None, deleted: Sequence[str]) -> list[Problem]:
    # A function of its own: the workspace, and every document it holds, is freed on
    # return, while run's collector is still off.
    ws = Workspace(config, listing=listing, staged=staged)
    return collect(ws, targets_for(ws, paths, judge=False, deleted=deleted))


def collect_user(config: Config) -> list[Problem]:
    """Findings in the user-level locations (``~/.config/amp/AGENTS.md``,
    ``~/.agh/memory``, ``~/.claude/skills``, ...), with ``~/`` paths."""
    ws = user_workspace(config)
    return [p._replace(path=USER_PREFIX + p.path) for p in collect(ws, targets_for(ws, None))]


def run(
    config: Config,
    paths: Sequence[str] | None,
    fmt: str = "text",
    user: bool = False,
    listing: GitListing | None = None,
    *,
    deleted: Sequence[str] = (),
    staged: StagedIndex | None = None,
    statistics: bool = False,
    output_file: str | None = None,
    write_baseline: str | None = None,
) -> int:
    """Check, report and say whether the run fails (exit 1) under ``fail-on``.

    ``paths`` None: the whole tree; an empty list (a change that touches nothing,
    see ``listing.changed_paths``): nothing."""
    problems: list[Problem] = []
    if paths is None or paths or deleted:
        # Imported while git lists the files (see cli.check), rather than after: the
        # checks and, for a whole tree (where some frontmatter is sure to need it),
        # PyYAML, which each checking process would otherwise import on its own.
        family_checks()
        if paths is None:
            document.load_yaml()
        # The collector is back on only once the run's documents are freed: turned on
        # while they live (as at the end of ``collect.find``), its first pass walks every one
        # of them (a fiftieth of a check on bench/'s trees), only to find them alive.
        with no_cycle_collection():
            problems = _collect_tree(config, paths, listing, staged, deleted)
    if user:
        problems = sorted([*problems, *collect_user(config)])
    if write_baseline is not None:
        from memcheck import baseline

        kept, secrets_left = baseline.write(Path(write_baseline), problems)
        note = f"; {secrets_left} secret finding(s) left out: a secret is removed and rotated, never accepted" if secrets_left else ""
        print(f"memcheck: wrote {kept} finding(s) to {write_baseline}{note}", file=sys.stderr)
        return 0
    with destination(output_file) as out:
        report(problems, fmt, out, statistics=statistics)
    return 1 if failing(problems, config.fail_on) else 0
