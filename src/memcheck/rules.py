"""The rule catalogue as data: every rule's code and its family, read from
resources/rules.json, so settings and suppression comments are checked against the
codes without importing a rule (the rules are two layers up, in checks/: the rules
themselves, docs and checks, are ``checks.all_rules()``). ``python docs/generate.py``
writes the file from the families, and a test holds it to them."""

from __future__ import annotations

import json
import os
from functools import cache
from typing import Iterable, Mapping

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


# The rules that are off unless `select` names their code: each Rule says so itself
# (``Rule.opt_in``), and a test holds this list to them; kept here, as data, so the
# settings are read without importing a rule.
OPT_IN = frozenset({"AGT012", "GDN017", "REF002", "SKL008", "SKL015", "SKL022", "SKL023", "SKL024", "SKL025", "SKL026", "SKL027"})


# Where each rule's page is, from the repository's root (docs/generate.py writes them).
RULE_PAGES = "docs/rules"


CATALOGUE = "rules.json"  # in memcheck/resources


@cache
def families() -> dict[str, str]:
    """Each rule's family, its module's name ("memory", "index", "secrets", ...), by
    code, in code order."""
    # Beside this module, as config.resource_json reads (which config imports this module to use).
    with open(os.path.join(os.path.dirname(__file__), "resources", CATALOGUE), encoding="utf-8") as f:
        found: dict[str, str] = json.load(f)
    return found


def codes() -> list[str]:
    """Every rule's code, in order."""
    return list(families())


def catalogue_text(rules: Iterable[tuple[str, str]]) -> str:
    """resources/rules.json for ``(code, family)`` pairs: what ``families`` reads."""
    return json.dumps(dict(sorted(rules)), indent=1) + "\n"


def unknown_selectors(selectors: Iterable[str]) -> list[str]:
    selectors = list(selectors)
    if not selectors:
        return []
    known = codes()
    return [s for s in selectors if s != "ALL" and not any(c.startswith(s) for c in known)]
