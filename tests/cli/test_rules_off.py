"""A rule turned off costs nothing: the work that serves only rules that are off is
never done (a family whose rules are all off is not run; within a family, the dead-link
scan of MEM021 and the glob index of GDN008 are skipped)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Iterator

import pytest
from conftest import git, invoke, memory, write

from memcheck.engine.collect import family_checks
from memcheck.rules import FAMILY_MODULES


class Done(Exception):
    """Raised by work that was meant to be skipped."""


def _refuse(*args: Any, **kwargs: Any) -> Iterator[Any]:
    raise Done("work for a rule that is off was done")


@pytest.fixture
def tree(repo: Path) -> Path:
    write(repo, ".claude/memory/a.md", memory("a", "about a", "project", body="See [b](b.md) and [[nothing]].\n"))
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n## Project\n- [a](a.md) — about a\n")
    write(repo, "AGENTS.md", "Use the tests.\n")
    write(repo, ".claude/rules/py.md", "---\npaths: ['**/*.rs']\n---\nRust.\n")
    write(repo, ".claude/skills/run/SKILL.md", "---\nname: run\ndescription: Run it. Use when asked.\n---\nBody.\n")
    write(repo, ".claude/agents/helper.md", "---\nname: helper\ndescription: Helps.\n---\nHelp.\n")  # a part for the AGT family
    write(repo, "sub/.memcheck.yaml", "fail-on: never\n")  # and one for MCK003's (a config below the root)
    git(repo, "add", "-A")
    return repo


@pytest.mark.parametrize("module", [m for m in FAMILY_MODULES if hasattr(importlib.import_module(m), "check")])
def test_a_family_whose_rules_are_all_off_is_never_run(tree: Path, module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    family = importlib.import_module(module)
    others = sorted({r.code[:3] for r in family.RULES} ^ {"MEM", "IDX", "GDN", "SKL", "SEC", "HID", "AGT", "MCK", "REF"})
    monkeypatch.setattr(family, "check", _refuse)
    family_checks.cache_clear()
    try:
        on = invoke(tree, "check", monkeypatch=monkeypatch)
        assert on.exit_code == 2 and "work for a rule that is off was done" in on.stderr  # on, it runs
        off = invoke(tree, "check", "--select", ",".join(others), monkeypatch=monkeypatch)
        assert off.exit_code in (0, 1), off.output
    finally:
        family_checks.cache_clear()


@pytest.mark.parametrize(
    ("code", "family", "target", "name"),
    [
        pytest.param("MEM021", "MEM", "memcheck.checks.memory.broken_link", "wiki_links", id="memory-wiki-links"),
        # Links are also checked in skills and guidance: only the memory family is on.
        pytest.param("MEM021", "MEM", "memcheck.agents.links", "dead_links", id="memory-dead-links"),
        pytest.param("GDN008", "GDN", "memcheck.text.patterns", "FileIndex", id="glob-index"),
    ],
)
def test_the_work_of_a_rule_that_is_off_is_skipped(
    tree: Path, code: str, family: str, target: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importlib.import_module(target), name, _refuse)
    on = invoke(tree, "check", "--select", family, monkeypatch=monkeypatch)
    assert on.exit_code == 2 and "work for a rule that is off was done" in on.stderr
    off = invoke(tree, "check", "--select", family, "--ignore", code, monkeypatch=monkeypatch)
    assert off.exit_code in (0, 1), off.output
    assert code not in off.output
