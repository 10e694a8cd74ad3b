"""AGT009 tool-allowed-and-denied: a tool in both tools and disallowedTools."""

from __future__ import annotations

from conftest import example, findings, lint, subagent

REVIEWER = ".claude/agents/reviewer.md"


def test_the_docs_example_is_reported() -> None:
    files = {REVIEWER: subagent(example("AGT009"))}
    assert lint(files, select="AGT") == [(REVIEWER, 5, "AGT009")]
    assert findings(files, select="AGT")[0].message.startswith("Bash is in both tools and disallowedTools")


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({REVIEWER: subagent(example("AGT009", "Use instead"))}, select="AGT") == []


def test_lists_and_a_tool_with_a_rule_in_brackets() -> None:
    keys = "tools: [Read, Write, 'Bash(git:*)']\ndisallowedTools: [Write, Bash]\n"
    found = findings({REVIEWER: subagent(keys)}, select="AGT")
    # Bash(git:*) is not Bash: only Write is named twice.
    assert [f.message.split(" ")[0] for f in found] == ["Write"]
