"""SKL022 long-skill-body: a skill body over the length the authoring guidance advises (off by default)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import example, findings, lint

from memcheck.config import ConfigError, load_text

ON = {"select": ["ALL", "SKL022"]}  # opt-in: on only where select names it
HEAD = "---\nname: deploy\ndescription: Deploys the app. Use when shipping.\n---\n"


def _files(block: str) -> dict[str, str]:
    path, lines = re.match(r"(\S+): (\d+) lines", block).groups()  # type: ignore[union-attr]
    return {path: HEAD + "".join(f"Step {n}.\n" for n in range(int(lines)))}


def test_the_docs_example_is_reported() -> None:
    (found,) = findings(_files(example("SKL022")), config=ON)
    assert (found.path, found.line, found.code, found.severity) == (".claude/skills/deploy/SKILL.md", 505, "SKL022", "warning")
    assert "620 lines, over the 500" in found.message and "platform.claude.com" in found.message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint(_files(example("SKL022", "Use instead")), config=ON) == []


def test_off_by_default() -> None:
    assert lint(_files(example("SKL022"))) == []


def test_exactly_the_limit_passes() -> None:
    assert lint({".claude/skills/deploy/SKILL.md": HEAD + "x\n" * 500}, config=ON) == []
    assert lint({".claude/skills/deploy/SKILL.md": HEAD + "x\n" * 501}, config=ON) == [(".claude/skills/deploy/SKILL.md", 505, "SKL022")]


def test_a_prefix_or_all_leaves_the_advice_off_and_its_own_code_turns_it_on() -> None:
    # Opt-in as GDN017 is (Rule.opt_in): `SKL` or `ALL` selects every rule but advice.
    files = _files(example("SKL022"))
    assert lint(files, select="SKL") == lint(files, select="ALL") == []
    assert [f.code for f in findings(files, select="SKL022")] == ["SKL022"]


def test_the_unreleased_setting_is_gone() -> None:
    # `skills.authoring-advice` was never in a release (CHANGELOG: Unreleased): the
    # one way to turn advice on is `select`, as for every opt-in rule.
    with pytest.raises(ConfigError, match="authoring-advice"):
        load_text(Path("/nonexistent"), ".memcheck.yaml", "skills:\n  authoring-advice: true\n", ".memcheck.yaml")
