"""The rule catalogue: every family's RULES, by code."""
from __future__ import annotations

import importlib
from functools import cache
from typing import Iterable, Mapping

from memcheck.problem import Rule

# One line per rule family; a family module defines RULES.
FAMILY_MODULES = (
    "memcheck.checks.memory",
    "memcheck.checks.index",
    "memcheck.checks.guidance",
    "memcheck.checks.agent_reading",
    "memcheck.checks.skills",
    "memcheck.checks.agent_files",
    "memcheck.checks.secrets",
    "memcheck.checks.hidden",
    "memcheck.checks.references",
    "memcheck.checks.guard",
    "memcheck.checks.meta",
)

# The kinds of part (the fields of ``workspace.targets.Targets``) each family's check
# reports on; a family whose check yields nothing on parts of any other kind. Where
# only parts of other kinds are left to check (a commit that touches one store, the
# others kept in the cache), the family is not even imported (engine/collect). A test
# holds each line to what the check does (tests/cli/test_family_parts.py).
_AGENT_FILES = frozenset({"stores", "guidance", "skills", "kind_files"})  # Targets.agent_files()
FAMILY_PARTS: Mapping[str, frozenset[str]] = {
    "memcheck.checks.memory": frozenset({"stores"}),
    "memcheck.checks.index": frozenset({"stores"}),
    "memcheck.checks.guidance": frozenset({"guidance", "kind_files"}),
    "memcheck.checks.agent_reading": frozenset({"guidance"}),
    "memcheck.checks.skills": frozenset({"skills", "kind_files"}),
    "memcheck.checks.agent_files": frozenset({"kind_files"}),
    "memcheck.checks.secrets": _AGENT_FILES,
    "memcheck.checks.hidden": _AGENT_FILES,
    "memcheck.checks.references": _AGENT_FILES,
    "memcheck.checks.guard": frozenset(),  # no check: it judges paths, not files
    "memcheck.checks.meta": frozenset({"configs"}),
}


# Where each rule's page is, from the repository's root (docs/generate.py writes them).
RULE_PAGES = "docs/rules"


@cache
def families() -> dict[str, str]:
    """Each rule's family, its module's name ("memory", "index", "secrets", ...), by code."""
    return {rule.code: name.rpartition(".")[2] for name in FAMILY_MODULES for rule in importlib.import_module(name).RULES}


@cache
def all_rules() -> dict[str, Rule]:
    found: dict[str, Rule] = {}
    for name in FAMILY_MODULES:
        for rule in importlib.import_module(name).RULES:
            assert rule.code not in found, f"duplicate rule code {rule.code}"
            found[rule.code] = rule
    return dict(sorted(found.items()))


def unknown_selectors(selectors: Iterable[str]) -> list[str]:
    selectors = list(selectors)
    if not selectors:
        return []  # without importing every family: `memcheck guard` needs only its own
    codes = all_rules()
    return [s for s in selectors if s != "ALL" and not any(c.startswith(s) for c in codes)]
