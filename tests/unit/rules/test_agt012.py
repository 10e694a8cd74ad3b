"""AGT012 key-ignored-by-host: a custom agent key one of the places it runs ignores."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint, with_frontmatter

AGENT = ".github/agents/planner.agent.md"


def agent(keys: str) -> str:
    return with_frontmatter(keys, "Plan the change.\n")


def test_the_docs_example_is_reported() -> None:
    files = {AGENT: agent(example("AGT012"))}
    assert lint(files, select="AGT,AGT012") == [(AGENT, 3, "AGT012")]
    assert findings(files, select="AGT,AGT012")[0].message.startswith("handoffs is ignored by GitHub.com's cloud agent")


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({AGENT: agent(example("AGT012", "Use instead"))}, select="AGT,AGT012") == []


@pytest.mark.parametrize(
    ("keys", "reported"),
    [
        pytest.param("description: x\nmcp-servers: {}\n", True, id="mcp-servers-for-both"),
        pytest.param("description: x\ntarget: github-copilot\nmcp-servers: {}\n", False, id="mcp-servers-for-github"),
        pytest.param("description: x\ntarget: vscode\nmetadata: {a: b}\n", True, id="metadata-for-vscode"),
        pytest.param("description: x\ntarget: github-copilot\nargument-hint: a file\n", True, id="hint-for-github"),
    ],
)
def test_the_target_decides(keys: str, reported: bool) -> None:
    assert bool(lint({AGENT: agent(keys)}, select="AGT012")) is reported


def test_it_is_off_unless_selected() -> None:
    """Judged on unseen repositories: wanted on none of 22 findings (agents written for VS Code)."""
    files = {AGENT: agent(example("AGT012"))}
    assert lint(files, select="AGT") == []
    assert lint(files, select="AGT012") == [(AGENT, 3, "AGT012")]
