"""AGT006 unknown-tool: a subagent names a tool the agent does not have."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint
from test_agt005 import subagent

AGENTS = ".claude/agents"
REVIEWER = f"{AGENTS}/code-reviewer.md"


def test_the_docs_example_a_lowercase_and_a_misspelt_tool_are_reported_on_their_line() -> None:
    files = {REVIEWER: subagent(example("AGT006"))}
    assert lint(files, select="AGT") == [(REVIEWER, 4, "AGT006"), (REVIEWER, 4, "AGT006")]


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({REVIEWER: subagent(example("AGT006", "Use instead"))}, select="AGT") == []


@pytest.mark.parametrize(
    ("tools", "said"),
    [
        ("read", "tools names 'read', which is no tool Claude Code has; did you mean 'Read'? tool names match exactly, case included"),
        ("Grepp", "tools names 'Grepp', which is no tool Claude Code has; did you mean 'Grep'? tool names match exactly, case included"),
    ],
)
def test_a_misspelt_tool_is_named_with_the_tool_meant(tools: str, said: str) -> None:
    (found,) = findings({f"{AGENTS}/r.md": subagent(f"tools: {tools}\n")}, select="AGT006")
    assert found.message == said


def test_a_tool_near_none_is_answered_with_the_tools_there_are() -> None:
    (found,) = findings({f"{AGENTS}/r.md": subagent("tools: Teleport\n")}, select="AGT006")
    assert found.message.startswith(
        "tools names 'Teleport', which is none of the tools memcheck knows Claude Code to have (Agent, AskUserQuestion, Bash, "
    )
    assert found.message.endswith(", or mcp__server__tool); check its spelling and case (a tool newer than that list is not known here)")


@pytest.mark.parametrize("tools", ["Read, Grep, Bash(git diff:*)", "[Read, mcp__github__create_issue]"])
def test_tools_with_a_rule_and_mcp_tools_are_not_reported(tools: str) -> None:
    assert lint({f"{AGENTS}/r.md": subagent(f"tools: {tools}\n")}, select="AGT") == []
