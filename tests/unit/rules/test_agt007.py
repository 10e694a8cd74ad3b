"""AGT007 unknown-key: an agent file frontmatter key that looks like a misspelt known key."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint
from test_agt005 import subagent

REVIEWER = ".claude/agents/code-reviewer.md"


def test_the_docs_example_permission_mode_with_a_hyphen_is_reported() -> None:
    files = {REVIEWER: subagent(example("AGT007"))}
    assert lint(files, select="AGT") == [(REVIEWER, 4, "AGT007")]
    (found,) = findings(files, select="AGT")
    assert found.message == (
        "frontmatter key 'permission-mode' looks like a misspelling of 'permissionMode': "
        "Claude Code matches keys exactly, so this setting is ignored; rename it to permissionMode"
    )


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({REVIEWER: subagent(example("AGT007", "Use instead"))}, select="AGT") == []


def test_a_key_like_no_known_key_is_not_reported() -> None:
    assert lint({REVIEWER: subagent("team: platform\n")}, select="AGT") == []


def test_allowed_tools_is_told_to_become_tools_never_its_opposite() -> None:
    # A subagent's allow-list written as a skill's: `disallowedTools` would forbid the
    # very tools it lists (five subagents of an unseen repository were told so).
    (found,) = findings({REVIEWER: subagent("allowed-tools: Read, Grep, Glob\n")}, select="AGT")
    assert found.code == "AGT007"
    assert found.message == (
        "frontmatter key 'allowed-tools' is how skills and slash commands list their tools; "
        "Claude Code reads this file's list of tools from tools, so this setting is ignored; rename it to tools"
    )
    # Another spelling is named as written, and not said to be the skills' key (an outside attack).
    for key in ("allowedTools", "allowed_tools"):
        (found,) = findings({REVIEWER: subagent(f"{key}: Read, Grep, Glob\n")}, select="AGT")
        assert found.message.startswith(
            f"frontmatter key {key!r} looks like allowed-tools, the key skills and slash commands list their tools under; "
        )
        assert "disallowed" not in found.message


@pytest.mark.parametrize("tools", ["tools: Read\n", "tools:\n", "tools: []\n"])
def test_allowed_tools_beside_tools_is_told_to_move_into_it(tools: str) -> None:
    # Renaming would write a second `tools` key; deleting it beside an empty one could
    # leave the subagent every tool (outside attacks).
    (found,) = findings({REVIEWER: subagent(tools + "allowed-tools: Read, Grep\n")}, select="AGT")
    assert found.message.endswith("so this setting is ignored; move the tools it lists into the file's tools key, and delete it")


def test_a_copilot_agent_file_s_allowed_tools_is_left_to_agt011() -> None:
    path = ".github/agents/reviewer.agent.md"
    codes = [f[2] for f in lint({path: "---\ndescription: Reviews\nallowed-tools: [read]\n---\n\nReview.\n"}, select="AGT")]
    assert "AGT007" not in codes


def test_a_key_is_never_the_misspelling_of_its_opposite() -> None:
    from memcheck.text.frontmatter import near_key

    near = near_key(("disallowedTools", "tools", "permissionMode"))
    assert near("allowedtools") is None
    assert near("disalowedTools") == "disallowedTools"  # a slip within the key is still one


def test_allowed_tools_beside_a_misspelt_tools_key_names_it() -> None:
    # An outside attack: beside `Tools:` the message spoke of "the file's tools key".
    found = [f for f in findings({REVIEWER: subagent("Tools: Read\nallowed-tools: Grep\n")}, select="AGT") if "allowed-tools" in f.message]
    assert found[0].message.endswith("list its tools and those of 'Tools' under one key, tools")
