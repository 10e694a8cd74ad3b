"""SKL006 invalid-description: a skill description missing, empty, not text or too long."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint

SKILL = ".claude/skills/run-tests/SKILL.md"


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({SKILL: "---\n" + example("SKL006") + "---\n\nBody.\n"})
    assert (found.path, found.line, found.code, found.severity) == (SKILL, 1, "SKL006", "error")
    assert found.message == "no description: agents choose skills by it; say what the skill does and when to use it (1-1024 characters)"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({SKILL: example("SKL006", "Use instead")}) == []


@pytest.mark.parametrize(
    ("value", "line", "message"),
    [
        pytest.param("''", 3, "no description: agents choose skills by it", id="empty"),
        pytest.param("[a]", 3, "description is a list, not text; write it as a string", id="a-list"),
        pytest.param(
            "d" * 1025,
            3,
            "description is 1025 characters, over the 1024 agents accept; shorten it and move detail into the body",
            id="too-long",
        ),
    ],
)
def test_a_description_agents_cannot_use(value: str, line: int, message: str) -> None:
    (found,) = findings({SKILL: f"---\nname: run-tests\ndescription: {value}\n---\n"})
    assert (found.code, found.line) == ("SKL006", line) and found.message.startswith(message)


def test_a_description_of_1024_characters_is_accepted() -> None:
    assert lint({SKILL: "---\nname: run-tests\ndescription: " + "d" * 1024 + "\n---\n"}) == []
