"""SKL007 invalid-field: an optional skill field with the wrong type, length or value."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint

SKILL = ".claude/skills/run-tests/SKILL.md"


def _skill(fields: str, path: str = SKILL) -> dict[str, str]:
    return {path: f"---\nname: run-tests\ndescription: Run the tests. Use when asked to test a change.\n{fields}---\n\nBody.\n"}


def test_the_docs_example_is_reported() -> None:
    (found,) = findings(_skill(example("SKL007")))
    assert (found.path, found.line, found.code, found.severity) == (SKILL, 4, "SKL007", "error")
    assert found.message == "allowed-tools must be a list of tool names or one comma-separated string (allowed-tools: [Bash, Read])"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint(_skill(example("SKL007", "Use instead"))) == []


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        pytest.param(
            "compatibility: " + "c" * 501 + "\n",
            "compatibility is 501 characters, over the 500 allowed; shorten it",
            id="compatibility-too-long",
        ),
        pytest.param("metadata: x\n", "metadata is a str; write it as a mapping of keys to values", id="metadata-string"),
        pytest.param("license: 3\n", "license is a int; write it as a string", id="license-number"),
        pytest.param("allowed-tools: [Bash, '']\n", "allowed-tools must be a list of tool names", id="tools-with-an-empty-one"),
    ],
)
def test_the_optional_agent_skills_fields(fields: str, message: str) -> None:
    (found,) = findings(_skill(fields))
    assert (found.code, found.line) == ("SKL007", 4) and found.message.startswith(message)


@pytest.mark.parametrize(
    "fields",
    [
        "allowed-tools: Bash, Read, Grep\n",
        "allowed-tools:\n  - Bash\n  - Read\n",
        "license: MIT\ncompatibility: Needs git\nmetadata:\n  owner: me\n",
        "argument-hint: '[file]'\nuser-invocable: true\nmodel: sonnet\nversion: 1.0.0\ndisable-model-invocation: false\n",
        "triggers:\n  - run tests\n  - /test\n",
    ],
)
def test_valid_fields_are_clean(fields: str) -> None:
    # In .agents/skills Claude Code's own keys do nothing (SKL017 says so), but their values are no SKL007.
    assert [f for f in lint(_skill(fields, ".agents/skills/run-tests/SKILL.md")) if f[2] != "SKL017"] == []
    assert lint(_skill(fields)) == []


def test_an_argument_hint_written_as_claude_codes_own_examples_write_it_is_clean() -> None:
    # `argument-hint: [environment]` is a list to YAML, and how Claude Code's pages write
    # the hint: Claude Code shows it, so it is no wrong type.
    assert lint(_skill("argument-hint: [environment]\n")) == []


def test_claude_codes_own_keys_are_judged_where_claude_code_loads_the_skill_only() -> None:
    (found,) = findings(_skill("model: gpt-4\n"))
    assert (found.code, found.line, found.severity) == ("SKL007", 4, "error")
    assert lint(_skill("model: gpt-4\n", ".agents/skills/run-tests/SKILL.md")) == [(".agents/skills/run-tests/SKILL.md", 4, "SKL017")]


def test_a_boolean_written_as_a_quoted_string_is_a_warning() -> None:
    (found,) = findings(_skill('user-invocable: "false"\n'))
    assert (found.code, found.severity) == ("SKL007", "warning")
    assert found.message == "user-invocable is the quoted string 'false', not a boolean; write user-invocable: false, unquoted"


def test_context_inline_is_not_reported() -> None:
    """`context: inline` is what a skill does without the key: written out it changes
    nothing (never advice to `fork`, which would move an interactive skill into a
    subagent; four such keys on one unseen repository were each judged harmless)."""
    assert lint(_skill("context: inline\n")) == []
    (found,) = findings(_skill("context: forked\n"))
    assert (found.code, found.line) == ("SKL007", 4)
    assert found.message.startswith("context 'forked' is not a value Claude Code knows")
    assert lint(_skill("context: fork\n")) == []
