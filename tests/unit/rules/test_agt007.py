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
