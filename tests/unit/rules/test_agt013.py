"""AGT013 deprecated-key: infer in a Copilot custom agent."""

from __future__ import annotations

from conftest import example, findings, lint, with_frontmatter

AGENT = ".github/agents/reviewer.agent.md"


def agent(keys: str) -> str:
    return with_frontmatter(keys, "Review pull requests.\n")


def test_the_docs_example_is_reported() -> None:
    files = {AGENT: agent(example("AGT013"))}
    assert lint(files, select="AGT") == [(AGENT, 3, "AGT013")]
    assert "disable-model-invocation: true" in findings(files, select="AGT")[0].message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({AGENT: agent(example("AGT013", "Use instead"))}, select="AGT") == []


def test_a_wrong_type_of_infer_is_still_agt005s_too() -> None:
    assert lint({AGENT: agent("description: x\ninfer: 'true'\n")}, select="AGT") == [(AGENT, 3, "AGT005"), (AGENT, 3, "AGT013")]
