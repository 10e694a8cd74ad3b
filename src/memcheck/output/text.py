"""``path:line:col: CODE message``, then a summary line."""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, TextIO

from memcheck.output import counts
from memcheck.problem import Problem, shown

if TYPE_CHECKING:
    from memcheck.output import ReportContext

_RED, _YELLOW, _BOLD, _DIM, _RESET = "\033[31m", "\033[33m", "\033[1m", "\033[2m", "\033[0m"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(problems: Sequence[Problem]) -> str:
    if not problems:
        return "No problems found."
    errors, warnings, fixable = counts(problems)
    line = f"Found {_plural(len(problems), 'problem')} ({_plural(errors, 'error')}, {_plural(warnings, 'warning')})"
    if fixable:
        line += f"; {fixable} fixable with `memcheck fix`"
    return line + "."


def report(problems: Sequence[Problem], out: TextIO, ctx: ReportContext) -> None:
    for path in ctx.fixed:
        out.write(f"Fixing {path}\n")
    for p in problems:
        code = p.code
        if ctx.color:
            colour = _RED if p.severity == "error" else _YELLOW
            where = f"{_BOLD}{shown(p.path)}{_RESET}:{p.line}:{p.col}:"
            code = f"{colour}{code}{_RESET}"
            fix = f" {_DIM}[*]{_RESET}" if p.fixable else ""
        else:
            where = f"{shown(p.path)}:{p.line}:{p.col}:"
            fix = " [*]" if p.fixable else ""
        out.write(f"{where} {code} {p.message}{fix}\n")
    out.write(summary(problems) + "\n")
