"""`memcheck check -v`: what the run passed over, on standard error, one line each
(``memcheck: ...``), after the run and before its report.

Each kind of note is a function of the run's workspace in ``NOTES``, whose lines
come out in that order, each kind's sorted: a new kind is one more function there.
"""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

from memcheck.problem import escaped

if TYPE_CHECKING:
    from memcheck.workspace.discover import Workspace

# Whether a path is among what the run was given (every path, for the whole tree).
Scope = Callable[[str], bool]


def _skills_passed_over(ws: Workspace, wanted: Scope) -> Iterator[str]:
    for path, why in ws.skills_passed_over:
        if wanted(path):
            yield f"passed over {path}: {why}"


NOTES: tuple[Callable[[Workspace, Scope], Iterable[str]], ...] = (_skills_passed_over,)


def notes(ws: Workspace, paths: Sequence[str] | None) -> list[str]:
    """The lines ``-v`` prints for this run, in order (``paths``: what it was given)."""
    from memcheck.workspace.discover import relative_path
    from memcheck.workspace.selection import given

    wanted = given(None if paths is None else [w for w in (relative_path(ws.root, p) for p in paths) if w is not None])
    return [line for note in NOTES for line in note(ws, wanted)]


def show(lines: Iterable[str]) -> None:
    for line in lines:
        print(f"memcheck: {escaped(line)}", file=sys.stderr)
