"""The finding value object and the rule catalogue entry that produces it."""
from __future__ import annotations

import json
from typing import Iterable, Iterator, NamedTuple

ERROR = "error"
WARNING = "warning"


def shown(path: str) -> str:
    """A path safe to print on one line: quoted with escapes when it holds control
    characters, so a file name with a newline cannot forge or split a report line."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in path):
        return json.dumps(path, ensure_ascii=False)
    return path


class Problem(NamedTuple):
    """One finding. Field order is the sort order of every report."""

    path: str  # repository-relative POSIX path
    line: int  # 1-based
    col: int  # 1-based
    code: str
    message: str
    severity: str
    fixable: bool = False
    # The file the finding is about, when it is reported elsewhere (an unlisted memory
    # is reported on its index): a suppression comment there applies too. Not printed.
    about: str = ""


def failing(problems: Iterable[Problem], fail_on: str) -> list[Problem]:
    """The findings that make the run fail under ``fail_on``."""
    if fail_on == "never":
        return []
    return [p for p in problems if fail_on == WARNING or p.severity == ERROR]


class Rule(NamedTuple):
    """A rule is data: its code, how bad it is, and its documentation.

    ``doc`` is Markdown with the headings ruff uses (*What it does*, *Why is this
    bad?*, *Example*, *Use instead*); ``memcheck rule CODE`` prints it.
    """

    code: str
    name: str
    severity: str
    fixable: bool
    summary: str
    doc: str

    def at(self, path: str, line: int, col: int, message: str, about: str = "") -> Problem:
        return Problem(path, max(line, 1), max(col, 1), self.code, _bounded(message), self.severity, self.fixable, about)


# A message quotes keys and values from the file, which may be a line of a megabyte:
# past this length its middle is left out, keeping what is wrong (the start) and
# what to do (the end). The longest message the test corpus gives is 295 characters.
MAX_MESSAGE = 1000


def _bounded(message: str) -> str:
    if len(message) <= MAX_MESSAGE:
        return message
    return f"{message[:600]}...[{len(message) - 900:,} characters left out]...{message[-300:]}"


def contained(rule: Rule, path: str, problems: Iterable[Problem]) -> Iterator[Problem]:
    """The findings of checking one file, where running out of stack or memory on it
    (a file built to exhaust a checker) is one ``rule`` finding on that file instead
    of the end of the run. Any other exception is a bug of memcheck's and goes on up
    to the internal-error report."""
    try:
        yield from problems
    except (RecursionError, MemoryError) as e:
        yield rule.at(path, 1, 1, f"{path.rpartition('/')[2]} could not be checked: it exhausts memcheck's {'memory' if isinstance(e, MemoryError) else 'stack'} ({type(e).__name__}); simplify the file")
