"""AGT014 prompt-too-long: a Copilot custom agent's body over 30,000 characters."""

from __future__ import annotations

from conftest import example, findings, lint

AGENT = ".github/agents/reviewer.agent.md"


def test_the_docs_example_is_reported() -> None:
    text = example("AGT014").replace("(31,000 characters of instructions)", "x" * 31_000)
    files = {AGENT: text}
    assert lint(files, select="AGT") == [(AGENT, 4, "AGT014")]
    assert "31,001 characters, over the 30,000 Copilot allows" in findings(files, select="AGT")[0].message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({AGENT: example("AGT014", "Use instead")}, select="AGT") == []


def test_exactly_the_limit_is_not_reported() -> None:
    assert lint({AGENT: "---\ndescription: x\n---\n" + "y" * 30_000}, select="AGT014") == []


def test_a_claude_subagent_has_no_such_limit() -> None:
    assert lint({".claude/agents/r.md": "---\nname: r\ndescription: x\n---\n" + "y" * 40_000}, select="AGT014") == []
