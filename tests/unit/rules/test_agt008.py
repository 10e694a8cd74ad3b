"""AGT008 unknown-hook-event: a subagent hook under an event Claude Code does not have."""

from __future__ import annotations

from conftest import example, findings, lint, subagent

REVIEWER = ".claude/agents/reviewer.md"


def test_the_docs_example_is_reported() -> None:
    files = {REVIEWER: subagent(example("AGT008"))}
    assert lint(files, select="AGT") == [(REVIEWER, 4, "AGT008")]
    message = findings(files, select="AGT")[0].message
    assert "'BeforeToolUse', which is not one of Claude Code's hook events" in message
    assert "use one of its events (PreToolUse, PostToolUse, Stop, ...)" in message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({REVIEWER: subagent(example("AGT008", "Use instead"))}, select="AGT") == []


def test_a_misspelt_event_is_named() -> None:
    files = {REVIEWER: subagent("hooks:\n  PostToolUSe: []\n  SubagentStop: []\n")}
    (found,) = findings(files, select="AGT")
    assert found.code == "AGT008" and found.message.endswith("did you mean PostToolUse?")


def test_a_copilot_agents_hooks_are_not_judged_by_claude_codes_events() -> None:
    # VS Code's agent hooks are its own; only a kind with a list of events is judged.
    files = {".github/agents/a.agent.md": "---\ndescription: x\ntarget: vscode\nhooks:\n  onStart: []\n---\nx\n"}
    assert [f for f in lint(files, select="AGT") if f[2] == "AGT008"] == []
