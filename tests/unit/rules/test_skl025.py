"""SKL025 description-voice: a description in the first or second person, or without a trigger (off by default)."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint

ON = {"select": ["ALL", "SKL025"]}  # opt-in: on only where select names it
SKILL = ".claude/skills/fill-form/SKILL.md"


def _files(fields: str) -> dict[str, str]:
    return {SKILL: f"---\nname: fill-form\n{fields}---\n\nFill the form.\n"}


def test_the_docs_example_is_reported() -> None:
    (found,) = findings(_files(example("SKL025")), config=ON)
    assert (found.path, found.line, found.code) == (SKILL, 3, "SKL025")
    assert "first person" in found.message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint(_files(example("SKL025", "Use instead")), config=ON) == []


def test_off_by_default() -> None:
    assert lint(_files(example("SKL025"))) == []


@pytest.mark.parametrize(
    ("description", "said"),
    [
        ("You can use this to fill forms when asked.", "second person"),
        ("Your helper for forms, when asked.", "second person"),
        ("Fills PDF forms from JSON.", "not when to use it"),
    ],
)
def test_voice_and_trigger(description: str, said: str) -> None:
    (found,) = findings(_files(f"description: {description}\n"), config=ON)
    assert said in found.message


def test_words_that_only_begin_like_a_pronoun_pass() -> None:
    assert lint(_files("description: Identifies forms; use for PDF filling.\n"), config=ON) == []


def test_a_sentence_opening_with_use_is_a_trigger_in_any_language() -> None:
    # A description in Portuguese, as a public repository writes its skills.
    assert lint(_files("description: Corrige bugs pela causa raiz. Use quando o usuario pedir.\n"), config=ON) == []


def test_a_description_in_another_script_is_not_searched_for_english_triggers() -> None:
    assert lint(_files("description: 프로젝트 초기화 오케스트레이터. 새 프로젝트를 만들 때 이 스킬을 사용한다.\n"), config=ON) == []
