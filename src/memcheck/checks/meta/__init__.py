"""MCK: findings about memcheck's own comments and settings in the files it checks.

A suppression comment (see ``memcheck.suppression``) that no longer suppresses
anything (MCK001), or that names no rule (MCK002); a config below the repository
root, which is not read (MCK003). One module per rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.checks.meta import nested_config
from memcheck.checks.meta.nested_config import MCK003
from memcheck.checks.meta.unknown_suppression_code import MCK002
from memcheck.checks.meta.unused_suppression import MCK001

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.targets import Targets

RULES = (MCK001, MCK002, MCK003)


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    """The family's pass: the configs below the root (MCK001 and MCK002 are reported
    by ``suppression.apply``, after every family's pass)."""
    yield from nested_config.check(ws, targets)
