"""AGT007 unknown-key: an agent file frontmatter key that looks like a misspelt known key."""

from __future__ import annotations

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
    for key in ("allowed-tools", "allowedTools", "allowed_tools"):
        (found,) = findings({REVIEWER: subagent(f"{key}: Read, Grep, Glob\n")}, select="AGT")
        assert found.code == "AGT007"
        assert found.message == (
            f"frontmatter key {key!r} is how skills and slash commands list their tools; "
            "Claude Code reads this file's list of tools from tools, so this setting is ignored; rename it to tools"
        )
        assert "disallowed" not in found.message


def test_a_key_is_never_the_misspelling_of_its_opposite() -> None:
    from memcheck.text.frontmatter import near_key

    near = near_key(("disallowedTools", "tools", "permissionMode"))
    assert near("allowedtools") is None
    assert near("disalowedTools") == "disallowedTools"  # a slip within the key is still one
