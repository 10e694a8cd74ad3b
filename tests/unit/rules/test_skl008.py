"""SKL008 invalid-triggers: a skill's triggers is not a list of non-empty strings."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint

SKILL = ".claude/skills/run-tests/SKILL.md"


def _skill(fields: str) -> dict[str, str]:
    return {SKILL: f"---\nname: run-tests\ndescription: Run the tests. Use when asked to test a change.\n{fields}---\n\nBody.\n"}


def test_the_docs_example_is_reported() -> None:
    (found,) = findings(_skill(example("SKL008")), select="SKL008")
    assert (found.path, found.line, found.code, found.severity) == (SKILL, 4, "SKL008", "error")
    assert found.message == "triggers is a str, not a list; write one trigger per '- ' line"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint(_skill(example("SKL008", "Use instead")), select="SKL008") == []


@pytest.mark.parametrize(
    ("fields", "messages"),
    [
        pytest.param("triggers: ['']\n", ["an empty trigger matches everything; remove it"], id="an-empty-trigger"),
        pytest.param("triggers: [3]\n", ["trigger 3 is a int; quote it as a string"], id="a-number"),
        pytest.param(
            "triggers: [run, 3, ' ']\n",
            ["an empty trigger matches everything; remove it", "trigger 3 is a int; quote it as a string"],
            id="each-bad-item",
        ),
    ],
)
def test_each_trigger_that_is_no_phrase_is_reported(fields: str, messages: list[str]) -> None:
    found = findings(_skill(fields), select="SKL008")
    assert {p.code for p in found} == {"SKL008"} and sorted(p.message for p in found) == messages


def test_it_is_off_unless_selected() -> None:
    """No agent memcheck knows reads `triggers`; judged on unseen repositories, wanted
    on none of 7 findings (a kit's triggers written as one comma-separated string)."""
    files = _skill(example("SKL008"))
    assert lint(files) == [] and lint(files, select="SKL") == []
    assert [code for _, _, code in lint(files, select="ALL,SKL008")] == ["SKL008"]
