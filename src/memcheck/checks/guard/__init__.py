"""GRD: changes to paths an agent must never touch.

The rules only, one module each. Guard has no ``check()``: it judges changes, not
files, so ``memcheck check`` never runs it; ``memcheck guard`` does (hooks/guard.py),
through the guard's engine, ``memcheck.guard``, where every GRD finding is made
(``guard/findings``: GRD001, GRD002, GRD004; ``guard/trust``: GRD003, GRD005).
"""

from __future__ import annotations

from memcheck.checks.guard.agent_guarded_path import GRD004
from memcheck.checks.guard.guard_loosened import GRD003
from memcheck.checks.guard.guarded_path import GRD001
from memcheck.checks.guard.guarded_symlink import GRD002
from memcheck.checks.guard.secret_rules_off import GRD005

RULES = (GRD001, GRD002, GRD003, GRD004, GRD005)

# The codes are named here too for the Action, which imports them from the family.
__all__ = ["GRD001", "GRD002", "GRD003", "GRD004", "GRD005", "RULES"]
