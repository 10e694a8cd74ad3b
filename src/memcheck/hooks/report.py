"""Printing findings, and the per-path ignores every command honours.

Kept apart from ``lint`` so ``memcheck guard`` reports without importing the
linting machinery (discovery, document parsing, the secret patterns).
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Any, Iterator, Mapping, Sequence, TextIO

from memcheck.config import Config, ConfigError
from memcheck.output import ReportContext, get_reporter, resolve_format
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


def report(
    problems: Sequence[Problem],
    fmt: str,
    out: TextIO | None = None,
    fixed: Sequence[str] = (),
    command: str = "check",
    changes: Mapping[str, Any] | None = None,
    statistics: bool = False,
) -> None:
    out = out or sys.stdout
    fmt = resolve_format(fmt)
    if statistics and fmt not in STATISTICS_FORMATS:
        fmt = "text"  # `auto` under GitHub Actions: counts are log text, not annotations
    # Colour is for a terminal: never in an --output-file, whatever FORCE_COLOR says.
    color = fmt == "text" and out is sys.stdout and _wants_color(out)
    get_reporter(fmt)(problems, out, ReportContext(color=color, fixed=fixed, command=command, changes=changes, statistics=statistics))


STATISTICS_FORMATS = ("text", "json")


@contextmanager
def destination(path: str | None) -> Iterator[TextIO]:
    """Where a report goes: standard output, or the ``--output-file`` (its folders
    made as needed), UTF-8 with ``\n`` line endings on every platform."""
    if path is None or path == "-":  # `-o -`: standard output, as most tools read it
        yield sys.stdout
        return
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        # backslashreplace: a file name that is not UTF-8 is written escaped, as on
        # standard output (see cli._run), never an error after half the report.
        handle = open(path, "w", encoding="utf-8", errors="backslashreplace", newline="\n")
    except OSError as e:
        raise ConfigError(f"--output-file {path}: cannot write it: {e.strerror or e}") from None
    try:
        with handle:
            yield handle
    except OSError as e:  # a full disk (/dev/full), a file that takes no writes (/proc/version)
        raise ConfigError(f"--output-file {path}: cannot write it: {e.strerror or e}") from None


def _wants_color(out: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):  # no-color.org: set and not empty
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty())


