"""AGT015 empty-prompt: a subagent or custom agent with nothing below its frontmatter."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint

REVIEWER = ".claude/agents/code-reviewer.md"


def test_the_docs_example_is_reported() -> None:
    files = {REVIEWER: example("AGT015")}
    assert lint(files, select="AGT") == [(REVIEWER, 1, "AGT015")]
    assert findings(files, select="AGT")[0].message.startswith("nothing below the frontmatter: this Claude Code subagent has no prompt")


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({REVIEWER: example("AGT015", "Use instead")}, select="AGT") == []


@pytest.mark.parametrize(
    "path",
    [".cursor/agents/reviewer.md", ".github/agents/reviewer.agent.md", ".github/prompts/review.prompt.md"],
)
def test_every_kind_of_agent(path: str) -> None:
    assert lint({path: "---\nname: reviewer\ndescription: Reviews.\n---\n\n  \n"}, select="AGT015") == [(path, 1, "AGT015")]


def test_a_cursor_subagent_is_a_kind_of_its_own() -> None:
    from memcheck.agents import kinds

    kind = kinds.kind_of_path(".cursor/agents/reviewer.md")
    assert kind is not None and kind.id == "cursor-subagent" and kind.role == "agent"
    assert set(kind.keys) == {"name", "description", "model", "readonly", "is_background"}
    assert lint({".cursor/agents/r.md": "---\nname: r\nreadonly: maybe\n---\nx\n"}, select="AGT") == [(".cursor/agents/r.md", 3, "AGT005")]


def test_a_prompt_file_that_runs_a_custom_agent_of_the_repository_has_its_prompt() -> None:
    # spec-kit's prompt files, judged on an unseen repository: the prompt file names the
    # custom agent to run, whose body is the prompt.
    prompt = ".github/prompts/speckit.analyze.prompt.md"
    files = {
        prompt: "---\nagent: speckit.analyze\n---\n",
        ".github/agents/speckit.analyze.agent.md": "---\ndescription: Analyzes.\n---\n\nAnalyze the spec.\n",
    }
    assert lint(files, select="AGT015") == []
    # No such agent in the repository (a typo, or one deleted): the prompt is empty.
    files[prompt] = "---\nagent: speckit.analyse\n---\n"
    assert lint(files, select="AGT015") == [(prompt, 1, "AGT015")]
    # An agent whose body is a comment alone has no prompt to give (an outside attack).
    files[prompt] = "---\nagent: speckit.analyze\n---\n"
    files[".github/agents/speckit.analyze.agent.md"] = "---\ndescription: Analyzes.\n---\n\n<!-- TODO write the prompt -->\n"
    assert lint(files, select="AGT015") == [(prompt, 1, "AGT015")]
    # A built-in agent (`agent: agent`) brings no prompt of its own.
    assert lint({prompt: "---\nagent: agent\n---\n"}, select="AGT015") == [(prompt, 1, "AGT015")]
