"""Rule families. Each module (or package) defines ``RULES`` and the checks that use
them; ``all_rules`` gathers every family's rules, as ``rules.FAMILY_MODULES`` lists
the families."""

from __future__ import annotations

import importlib
from functools import cache

from memcheck.problem import Rule
from memcheck.rules import FAMILY_MODULES


@cache
def all_rules() -> dict[str, Rule]:
    """Every rule, by code, in code order (importing every family)."""
    found: dict[str, Rule] = {}
    for name in FAMILY_MODULES:
        for rule in importlib.import_module(name).RULES:
            assert rule.code not in found, f"duplicate rule code {rule.code}"
            found[rule.code] = rule
    return dict(sorted(found.items()))


def rule_families() -> list[tuple[str, str]]:
    """Each rule's code and its family's name, from the families themselves: what
    resources/rules.json holds (``rules.families`` reads that)."""
    return [(rule.code, name.rpartition(".")[2]) for name in FAMILY_MODULES for rule in importlib.import_module(name).RULES]
