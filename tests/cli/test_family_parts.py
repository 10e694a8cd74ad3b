"""Each rule family's declared kinds of part (``rules.FAMILY_PARTS``) are what its
check reports on: on a part of any other kind it finds nothing, so a run whose parts
left to check are all of other kinds need not import it (a commit that touches one
store, the guidance files and skills kept in the cache); and on a part of each kind
it declares, it finds something in a tree made to hold a finding of every family in
every kind of file."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from conftest import git, memory, write

from memcheck import config
from memcheck.engine.collect import family_checks
from memcheck.engine.targets import PART_KINDS, part_kinds, targets_for
from memcheck.rules import FAMILY_MODULES, FAMILY_PARTS
from memcheck.workspace.discover import Workspace
from memcheck.workspace.targets import Targets

# What the SEC, HID and REF rules report, in every agent file: a token, a zero-width
# space, a path into someone's home folder, an @-import of a missing file.
FLAWS = "Token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 here.\u200b Logs are in `/Users/jsmith/work/shop/logs/`. Read @missing.md too.\n"


@pytest.fixture
def tree(repo: Path) -> Path:
    # REF002 is opt-in (issue 40): the home path of FLAWS is the references family's finding.
    write(repo, ".memcheck.yaml", "select: [ALL, REF002]\n")
    write(repo, "sub/.memcheck.yaml", "select: [ALL, REF002]\n")  # a config below the root (MCK003)
    write(repo, ".claude/memory/a.md", memory("a", "about a", "nonsense", body=FLAWS + "See [[nowhere]].\n"))
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n- [Gone](gone.md) - gone\n")
    write(repo, "AGENTS.md", "# Agents\n\n" + FLAWS)
    write(repo, "CLAUDE.local.md", "Local.\n")  # hides AGENTS.md from Claude Code (GDN022)
    write(repo, ".claude/skills/run/SKILL.md", "---\nname: other\n---\n\n" + FLAWS)
    write(repo, ".claude/skills/loose/notes.md", "Notes.\n")  # a skill folder without SKILL.md (SKL016)
    write(repo, ".kiro/steering/style.md", "---\ninclusion: sometimes\n---\n\n" + FLAWS)
    write(repo, ".claude/agents/helper.md", "---\nname: helper\n---\n\n" + FLAWS)
    git(repo, "add", "-A")
    return repo


def test_every_family_declares_its_kinds_of_part() -> None:
    assert list(FAMILY_PARTS) == list(FAMILY_MODULES)
    assert PART_KINDS == Targets._fields
    assert all(kinds <= set(PART_KINDS) for kinds in FAMILY_PARTS.values())


@pytest.mark.parametrize("module", [m for m in FAMILY_MODULES if hasattr(importlib.import_module(m), "check")])
def test_a_family_finds_something_on_its_kinds_of_part_only(tree: Path, module: str) -> None:
    settings = config.load(tree)
    whole = targets_for(Workspace(settings), None)
    family = importlib.import_module(module)
    found = {}
    for kind in PART_KINDS:
        part = Targets([], [], [])._replace(**{kind: getattr(whole, kind)})
        assert part_kinds([part]) == {kind}, kind  # the tree holds a part of every kind
        found[kind] = sorted({p.code for p in family.check(Workspace(settings), part)})
    assert {kind for kind, codes in found.items() if codes} == FAMILY_PARTS[module], found


def test_only_the_families_of_the_kinds_left_are_imported() -> None:
    def modules(kinds: frozenset[str]) -> set[str]:
        return {check.__module__ for _, check in family_checks(kinds)}

    assert modules(frozenset({"stores"})) == {
        "memcheck.checks.memory",
        "memcheck.checks.index",
        "memcheck.checks.secrets",
        "memcheck.checks.hidden",
        "memcheck.checks.references",
    }
    assert modules(frozenset({"configs"})) == {"memcheck.checks.meta"}
    assert modules(frozenset(PART_KINDS)) == {check.__module__ for _, check in family_checks()}
