"""GitHub Actions workflow commands: one ``::error``/``::warning`` annotation a problem.

GitHub shows each annotation on the file and line of the pull request's diff. Values
are escaped as the runner's command parser expects (``%``, CR and LF everywhere;
``:`` and ``,`` too inside properties), so no message can end or forge a command.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, TextIO

from memcheck.output.text import fix_lines, summary
from memcheck.problem import ERROR, Problem

if TYPE_CHECKING:
    from memcheck.output import ReportContext


def escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def annotation(p: Problem) -> str:
    kind = "error" if p.severity == ERROR else "warning"
    props = ",".join(f"{k}={escape_property(v)}" for k, v in (("file", p.path), ("line", str(p.line)), ("col", str(p.col)), ("title", p.code)))
    return f"::{kind} {props}::{escape_data(p.message)}"


def report(problems: Sequence[Problem], out: TextIO, ctx: ReportContext) -> None:
    for path in ctx.fixed:
        for line in fix_lines(path, ctx.changes.get(path)):
            out.write(escape_data(line) + "\n")
    for p in problems:
        out.write(annotation(p) + "\n")
    # Plain lines are log text, not commands: the summary still reads well in the log.
    out.write(summary(problems) + "\n")
