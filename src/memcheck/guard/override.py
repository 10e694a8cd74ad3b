"""An override label: a maintainer's word, on a pull request, that what it changes
is accepted (``memcheck guard --allow-label NAME``, which the GitHub Action passes
when the pull request carries its ``override-label``).

It lets through an agent's change to a path guarded from agents (GRD004) and a
change to the guard's settings (GRD003, GRD005), which the maintainer who adds the
label has reviewed: each is still reported, as a warning that names the label. A
secret (GRD001, GRD002) is removed and rotated, never accepted: no label lets it through.
"""

from __future__ import annotations

from typing import Sequence

from memcheck.checks.guard import GRD003, GRD004, GRD005
from memcheck.problem import WARNING, Problem

OVERRIDABLE = frozenset(rule.code for rule in (GRD003, GRD004, GRD005))


def allowed(problems: Sequence[Problem], label: str) -> list[Problem]:
    """The findings as the label leaves them: the ones it lets through as warnings."""
    note = f" (allowed: the pull request has the label {label!r})"
    return sorted(p._replace(severity=WARNING, message=p.message + note) if p.code in OVERRIDABLE else p for p in problems)
