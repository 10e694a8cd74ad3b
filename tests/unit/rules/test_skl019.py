"""SKL019 agent-without-fork: a skill names an agent but does not run in a fork."""

from __future__ import annotations

from conftest import example, findings, lint

SKILL = ".claude/skills/explore-code/SKILL.md"


def _skill(fields: str) -> dict[str, str]:
    return {SKILL: f"---\n{fields}---\n\nMap the modules.\n"}


def test_the_docs_example_is_reported() -> None:
    (found,) = findings(_skill(example("SKL019")))
    assert (found.path, found.line, found.code, found.severity) == (SKILL, 4, "SKL019", "warning")
    assert "context: fork" in found.message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint(_skill(example("SKL019", "Use instead"))) == []


def test_a_context_of_another_value_is_invalid_field_s_alone() -> None:
    fields = example("SKL019").replace("agent:", "context: forked\nagent:")
    assert [c for _, _, c in lint(_skill(fields))] == ["SKL007"]
