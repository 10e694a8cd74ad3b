"""AGT005 invalid-value: an agent file frontmatter value of the wrong type or value."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint

AGENTS = ".claude/agents"
REVIEWER = f"{AGENTS}/code-reviewer.md"


def subagent(keys: str) -> str:
    """A subagent with its two required keys and ``keys`` after them (from line 4)."""
    return "---\nname: code-reviewer\ndescription: Reviews code.\n" + keys + "---\nYou review code.\n"


def test_the_docs_example_an_unknown_model_and_memory_are_reported() -> None:
    files = {REVIEWER: subagent(example("AGT005"))}
    assert lint(files, select="AGT") == [(REVIEWER, 4, "AGT005"), (REVIEWER, 5, "AGT005")]
    assert findings(files, select="AGT")[1].message == "memory 'team' is not a value Claude Code knows; use one of user, project, local"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({REVIEWER: subagent(example("AGT005", "Use instead"))}, select="AGT") == []


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        pytest.param("---\nname: Code_Reviewer\ndescription: x\n---\nx\n", [2], id="subagent-bad-name"),
        pytest.param("---\nname: r\ndescription: x\nmodel: claude-opus-4-6\n---\nx\n", [], id="subagent-full-model-id"),
        pytest.param("---\nname: code,reviewer\ndescription: x\nmodel: sonnet,opus\n---\nx\n", [2, 4], id="subagent-one-value-with-commas"),
        pytest.param(
            "---\nname: r\ndescription: x\nskills: run-tests\nhooks: [Stop]\n---\nx\n", [4, 5], id="subagent-skills-and-hooks-types"
        ),
        pytest.param("---\nname: r\ndescription: x\nmaxTurns: 0\n---\nx\n", [4], id="subagent-max-turns-zero"),
    ],
)
def test_subagent_values(text: str, lines: list[int]) -> None:
    assert lint({f"{AGENTS}/r.md": text}, select="AGT") == [(f"{AGENTS}/r.md", line, "AGT005") for line in lines]


def test_a_copilot_agents_unknown_target_is_reported() -> None:
    assert lint({".github/agents/x.agent.md": "---\ndescription: x\ntarget: web\n---\nx\n"}, select="AGT") == [
        (".github/agents/x.agent.md", 3, "AGT005")
    ]


def test_an_unknown_permission_mode_beside_a_misspelt_disallowed_tool_is_each_its_rules() -> None:
    files = {f"{AGENTS}/r.md": "---\nname: r\ndescription: x\npermissionMode: ask\ndisallowedTools: [Writ]\n---\nx\n"}
    assert lint(files, select="AGT") == [(f"{AGENTS}/r.md", 4, "AGT005"), (f"{AGENTS}/r.md", 5, "AGT006")]
