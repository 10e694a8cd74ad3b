"""The findings to report, once found: per-path ignores, then the baseline.

Kept apart from ``collect`` so ``memcheck guard`` honours per-path ignores without
importing the checking machinery (discovery, document parsing, the secret patterns).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memcheck.config import Config
    from memcheck.problem import Problem


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


def finish(config: Config, found: set[Problem]) -> list[Problem]:
    """The findings to report, sorted: per-path ignores, then the baseline."""
    problems = sorted(drop_path_ignores(found, config))
    if config.baseline:
        from memcheck import baseline

        problems = baseline.drop_accepted(problems, config)
    return problems
