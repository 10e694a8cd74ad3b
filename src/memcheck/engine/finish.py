"""The findings to report, once found: per-path ignores, then the baseline.

Kept apart from ``collect`` so ``memcheck guard`` honours per-path ignores without
importing the checking machinery (discovery, document parsing, the secret patterns).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.records import NamedTuple

if TYPE_CHECKING:
    from memcheck.config import Config
    from memcheck.problem import Problem


def drop_path_ignores(problems: set[Problem], config: Config) -> set[Problem]:
    if not config.per_path_ignores:
        return problems
    from memcheck.text.patterns import GitIgnore, any_line

    # Per rule code, the patterns that ignore it, compiled once as one set.
    by_code: dict[str, GitIgnore | None] = {}

    def ignored(p: Problem) -> bool:
        if p.code not in by_code:
            lines = tuple(pattern for pattern, codes in config.per_path_ignores if any(p.code.startswith(c) or c == "ALL" for c in codes))
            by_code[p.code] = any_line(lines) if lines else None
        spec = by_code[p.code]
        return spec is not None and spec.match(p.path)

    return {p for p in problems if not ignored(p)}


def finish(config: Config, found: set[Problem]) -> list[Problem]:
    """The findings to report, sorted: per-path ignores, then the baseline."""
    return finish_counted(config, found).problems


class Finished(NamedTuple):
    problems: list[Problem]
    accepted: int  # how many the baseline accepted (the summary line says so: a baseline never hides findings without a word)
    notes: list[Problem]  # the notes the checks left among them (``problem.NOTE``: what the summary line says once)
    stale: int = 0  # with ``whole_tree``: baseline entries of rules that ran which accepted no finding


def finish_counted(config: Config, found: set[Problem], whole_tree: bool = False) -> Finished:
    """``finish``'s findings, with what the summary line says of them. ``whole_tree``:
    every file was checked, so a baseline entry of a rule that ran and accepted nothing
    is about a finding since mended (on part of a tree, it may be about a file not
    checked)."""
    problems = sorted(drop_path_ignores(found, config))
    notes = [p for p in problems if p.severity == "note"]  # (problem.NOTE: not imported at start-up for one string)
    if notes:
        problems = [p for p in problems if p.severity != "note"]
    if not config.baseline:
        return Finished(problems, 0, notes)
    from memcheck import baseline
    from memcheck.config import enabled_codes

    kept, left = baseline.match(problems, config)
    stale = 0
    if whole_tree and left:
        ran = enabled_codes(config)
        stale = sum(n for entry, n in left.items() if entry.code in ran)
    return Finished(kept, len(problems) - len(kept), notes, stale)
