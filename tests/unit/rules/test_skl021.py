"""SKL021 never-invoked: a skill neither the user nor Claude can invoke."""

from __future__ import annotations

from conftest import example, findings, lint

SKILL = ".claude/skills/deploy/SKILL.md"


def _skill(fields: str) -> dict[str, str]:
    return {SKILL: f"---\nname: deploy\ndescription: Deploys the app. Use when shipping.\n{fields}---\n\nDeploy it.\n"}


def test_the_docs_example_is_reported() -> None:
    (found,) = findings(_skill(example("SKL021")))
    assert (found.path, found.line, found.code, found.severity) == (SKILL, 5, "SKL021", "warning")
    assert "nobody can invoke" in found.message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint(_skill(example("SKL021", "Use instead"))) == []


def test_claude_codes_boolean_words_are_read() -> None:
    assert lint(_skill("user-invocable: no\ndisable-model-invocation: on\n")) == [(SKILL, 5, "SKL021")]
    assert [c for _, _, c in lint(_skill("user-invocable: '0'\ndisable-model-invocation: '1'\n"))].count("SKL021") == 1


def test_either_alone_leaves_someone_to_run_it() -> None:
    assert lint(_skill("user-invocable: false\n")) == []
    assert lint(_skill("user-invocable: true\ndisable-model-invocation: true\n")) == []
