"""GitHub Actions workflow commands: one ``::error``/``::warning`` annotation a problem.

GitHub shows each annotation on the file and line of the pull request's diff. Values
are escaped as the runner's command parser expects (``%``, CR and LF everywhere;
``:`` and ``,`` too inside properties), so no message can end or forge a command, and
every other control character as ``%XX`` text.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Sequence, TextIO

from memcheck import lazy_regex
from memcheck.output.text import closing, fix_report
from memcheck.paths import IGNORABLE
from memcheck.problem import ERROR, Problem

if TYPE_CHECKING:
    from memcheck.output import ReportContext


# Control characters other than CR and LF: the runner passes them on as they are, so a
# raw ESC in a file name would reach the log viewer as a terminal sequence. As %XX they
# show as text (the runner decodes only %25, %0D, %0A, %3A and %2C); the Unicode line
# and paragraph separators, which a viewer may break a line at, as their UTF-8 bytes.
_CONTROL = lazy_regex.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _percent(m: re.Match[str]) -> str:
    ch = m.group()
    return f"%{ord(ch):02X}" if ord(ch) < 0x100 else "".join(f"%{b:02X}" for b in ch.encode("utf-8"))


def escape_data(value: str) -> str:
    """A character that draws nothing (a bidi control, a zero-width space) as its %XX
    bytes too, so a file name ``<U+200B>.env``, in a property or a message, never
    shows as ``.env``."""
    return IGNORABLE.sub(_percent, _CONTROL.sub(_percent, value.replace("%", "%25")))


def escape_property(value: str) -> str:
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def annotation(p: Problem) -> str:
    kind = "error" if p.severity == ERROR else "warning"
    props = ",".join(
        f"{k}={escape_property(v)}" for k, v in (("file", p.path), ("line", str(p.line)), ("col", str(p.col)), ("title", p.code))
    )
    return f"::{kind} {props}::{escape_data(p.message)}"


def report(problems: Sequence[Problem], out: TextIO, ctx: ReportContext) -> None:
    for line in fix_report(ctx):
        out.write(escape_data(line) + "\n")
    for p in problems:
        out.write(annotation(p) + "\n")
    # Plain lines are log text, not commands: the summary still reads well in the log.
    out.write(closing(problems, ctx))
