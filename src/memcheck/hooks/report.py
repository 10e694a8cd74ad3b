"""Printing findings: in the chosen format, to standard output or ``--output-file``.

Kept apart from the engine so ``memcheck guard`` reports without importing the
checking machinery (discovery, document parsing, the secret patterns).
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Mapping, Sequence, TextIO

from memcheck.config import ConfigError
from memcheck.output import ReportContext, get_reporter, resolve_format
from memcheck.records import NamedTuple

if TYPE_CHECKING:
    from memcheck.output import CapUsage, Checked, FixRecord, Older, Override
    from memcheck.problem import Problem


class Display(NamedTuple):
    """How a text report looks: ``-q`` (the findings alone: no summary line, nothing
    on a clean run) and ``--color auto|always|never``."""

    quiet: bool = False
    color: str = "auto"


DEFAULT_DISPLAY = Display()


def report(
    problems: Sequence[Problem],
    fmt: str,
    out: TextIO | None = None,
    fixed: Sequence[str] = (),
    command: str = "check",
    changes: Mapping[str, FixRecord] | None = None,
    statistics: bool = False,
    older: Older | None = None,
    indexes: Sequence[CapUsage] | None = None,
    fail_on: str | None = None,
    display: Display = DEFAULT_DISPLAY,
    checked: Checked | None = None,
    override: Override | None = None,
    judged: str | None = None,
) -> None:
    out = out or sys.stdout
    fmt = resolve_format(fmt)
    if statistics and fmt not in STATISTICS_FORMATS:
        fmt = "text"  # `auto` under GitHub Actions: counts are log text, not annotations
    # Colour is for a terminal: never in an --output-file, whatever --color or FORCE_COLOR say.
    color = fmt == "text" and out is sys.stdout and _wants_color(out, display.color)
    context = ReportContext(
        color=color,
        fixed=fixed,
        command=command,
        changes=changes,
        statistics=statistics,
        older=older,
        indexes=indexes,
        fail_on=fail_on,
        quiet=display.quiet,
        checked=checked,
        override=override,
        judged=judged,
    )
    get_reporter(fmt)(problems, out, context)


STATISTICS_FORMATS = ("text", "json")


def workspace(root: Path) -> Path:
    """The folder whose symlinks a file memcheck writes must not lead out of: the
    repository, or outside one the working folder."""
    return root if (root / ".git").exists() else Path.cwd()


@contextmanager
def destination(path: str | None, root: Path | None = None) -> Iterator[TextIO]:
    """Where a report goes: standard output, or the ``--output-file`` (its folders
    made as needed), UTF-8 with ``\n`` line endings on every platform, replaced whole
    once the report is complete (see ``safe_files.replacing``; ``root``: the
    repository whose links it is never written through)."""
    if path is None or path == "-":  # `-o -`: standard output, as most tools read it
        yield sys.stdout
        return
    from memcheck.engine.signals import stopped_by_signals
    from memcheck.safe_files import Refused, replacing

    try:
        # SIGTERM, as Ctrl-C, ends the write through the cleanup: no temporary file is left.
        with stopped_by_signals(), replacing(path, workspace(root) if root is not None else None) as handle:
            yield handle
    except Refused as e:
        raise ConfigError(f"--output-file {e}") from None
    except OSError as e:  # a full disk (/dev/full), a file that takes no writes (/proc/version)
        raise ConfigError(f"--output-file {path}: cannot write it: {e.strerror or e}") from None


def _wants_color(out: TextIO, asked: str = "auto") -> bool:
    """``--color always`` or ``never`` as asked; ``auto``: not with NO_COLOR, always
    with FORCE_COLOR or CLICOLOR_FORCE, else only on a terminal (as ruff decides)."""
    if asked != "auto":
        return asked == "always"
    if os.environ.get("NO_COLOR"):  # no-color.org: set and not empty
        return False
    if os.environ.get("FORCE_COLOR") or os.environ.get("CLICOLOR_FORCE", "0") != "0":  # bixense.com/clicolors: not 0
        return True
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty())
