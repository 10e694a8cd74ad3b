"""SKL010 unknown-key: a skill frontmatter key that looks like a misspelt known key."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint

SKILL = ".claude/skills/deploy/SKILL.md"


def _skill(fields: str) -> dict[str, str]:
    return {SKILL: f"---\nname: deploy\ndescription: Deploys the app. Use when shipping.\n{fields}---\n\nBody.\n"}


def test_the_docs_example_is_reported() -> None:
    (found,) = findings(_skill(example("SKL010")))
    assert (found.path, found.line, found.code, found.severity) == (SKILL, 4, "SKL010", "warning")
    assert found.message == (
        "frontmatter key 'allowed_tools' looks like a misspelling of 'allowed-tools': agents match keys exactly, "
        "so this setting is ignored; rename it to allowed-tools"
    )


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint(_skill(example("SKL010", "Use instead"))) == []


def test_a_teams_own_keys_pass_and_a_misspelt_one_beside_them_is_named() -> None:
    fields = "status: active\nowner: ops\nplatforms: [linux]\ndisallowed-tools: Bash\ndisplay-name: Deploy\nallowed_tools: Read\n"
    assert lint(_skill(fields)) == [(SKILL, 9, "SKL010")]


def test_claude_codes_own_keys_are_known() -> None:
    (found,) = findings(_skill("owner: me\nuser_invocable: false\n"))
    assert (found.code, found.line) == ("SKL010", 5) and "rename it to user-invocable" in found.message


def test_a_key_of_skills_allowed_keys_is_known_and_a_key_near_it_is_its_misspelling() -> None:
    assert lint(_skill("owner: me\nreviewd: 2026-01-01\n")) == []  # agents ignore a team's own keys
    (found,) = findings(_skill("owner: me\nreviewd: 2026-01-01\n"), config={"skills": {"allowed-keys": ["reviewed"]}})
    assert found.code == "SKL010" and "misspelling of 'reviewed'" in found.message


@pytest.mark.parametrize(
    ("value", "fix"),
    [
        pytest.param("/add-enemy", "rename it to triggers, as a list of the phrases that invoke the skill", id="a-phrase"),
        pytest.param("[/add-enemy]", "rename it to triggers", id="a-list"),
        pytest.param(
            "|\n  Use for every finished task:\n  - a command was run\n",
            "this text says when to use the skill, which agents read from description: move it there",
            id="prose",
        ),
    ],
)
def test_it_says_what_a_trigger_key_should_be(value: str, fix: str) -> None:
    (found,) = findings(_skill(f"trigger: {value}\n"))
    assert found.line == 4 and found.message.endswith(f"agents match keys exactly, so this setting is ignored; {fix}"), found.message


@pytest.mark.parametrize("root", [".agents/skills", ".claude/skills", ".github/skills", ".gemini/skills"])
def test_a_key_the_specification_does_not_define_is_no_error_where_no_reading_agent_rejects_it(root: str) -> None:
    # The Agent Skills reference validator (skills-ref) refuses a field outside the
    # specification's six; no agent that reads these folders does, so memcheck makes
    # no finding (issue 41 asks for an error only where the reading agent rejects):
    # - Codex: codex-rs/core/src/skills/loader.rs (f793618e) deserializes
    #   `SkillFrontmatter { name, description, metadata }` with serde and no
    #   `deny_unknown_fields`, so any other key is dropped and the skill loads;
    # - Gemini CLI: packages/core/src/skills/skillLoader.ts (ecab169e) takes `name` and
    #   `description` from the parsed mapping and reads nothing else;
    # - Claude Code: its skills page (code.claude.com/docs/en/skills) lists its keys and
    #   says nothing of refusing others; skills with `version` or `author` load;
    # - Copilot: GitHub's "About agent skills" follows the open standard and states no
    #   refusal.
    skill = f"{root}/deploy/SKILL.md"
    text = "---\nname: deploy\ndescription: Deploys the app. Use when shipping.\nunknown_field: x\nowner: ops\n---\n\nDeploy it.\n"
    assert lint({skill: text}) == []


def test_a_list_where_the_near_key_takes_one_value_is_a_key_of_its_own() -> None:
    # `agents:` listing the subagents a skill routes to: Claude Code's `agent` takes
    # one subagent's name, so this is not it misspelt.
    assert lint(_skill("agents:\n  - eng-architect\n  - eng-qa\n")) == []
    # One name under `agents` is what `agent` would hold: still its misspelling.
    (found,) = findings(_skill("agents: eng-architect\n"))
    assert found.code == "SKL010" and "misspelling of 'agent'" in found.message
    # A list where the near key takes a list too is still reported.
    assert lint(_skill("disallowed_tools: [Bash]\n")) == [(SKILL, 4, "SKL010")]


@pytest.mark.parametrize(
    ("fields", "reported"),
    [
        # What Claude Code does without the key: ignored, the misspelling changes nothing
        # (three such keys on unseen repositories, each judged harmless).
        ("user_invocable: true\n", False),
        ("user-invokable: true\n", False),
        ("disable_model_invocation: false\n", False),
        # The other value is the setting the misspelling loses.
        ("user_invocable: false\n", True),
        ("disable_model_invocation: true\n", True),
        # Not a boolean: the key's value is wrong as well as its name.
        ("user_invocable: 'true'\n", True),
    ],
)
def test_a_misspelt_switch_set_to_what_the_agent_does_without_it_is_not_reported(fields: str, reported: bool) -> None:
    assert [f[2] for f in lint(_skill(fields))] == (["SKL010"] if reported else [])
