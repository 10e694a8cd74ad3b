"""AGT003 invalid-frontmatter: agent file frontmatter that cannot be parsed."""

from __future__ import annotations

from conftest import example, findings, lint

REVIEWER = ".claude/agents/code-reviewer.md"


def test_the_docs_example_a_description_running_on_into_its_examples_is_an_error() -> None:
    files = {REVIEWER: "---\nname: code-reviewer\n" + example("AGT003") + "---\nYou review code.\n"}
    assert lint(files, select="AGT") == [(REVIEWER, 3, "AGT003")]
    (found,) = findings(files, select="AGT")
    assert found.severity == "error"
    assert found.message.startswith("Claude Code does not load this subagent: ") and found.message.endswith(
        "quote the value of 'description'"
    )


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({REVIEWER: example("AGT003", "Use instead")}, select="AGT") == []


def test_copilot_agent_frontmatter_that_does_not_parse_is_a_warning_claiming_no_more_than_is_known() -> None:
    (found,) = findings({".github/agents/a.agent.md": "---\ndescription: Reviews: code\n---\nx\n"}, select="AGT003")
    assert found.severity == "warning" and found.message.startswith("Copilot may read none of this custom agent's settings: ")


def test_an_unquoted_colon_in_a_one_line_description_is_a_warning_that_says_no_more_than_is_known() -> None:
    """Issue 40 (a third unseen set): a one-line `description` with `: ` was seen
    loaded in Claude Code's agent list; that it does not load is not what a source says."""
    files = {REVIEWER: "---\nname: code-reviewer\ndescription: Reviews code: use after editing\ncolor: cyan\n---\nx\n"}
    (found,) = findings(files, select="AGT")
    assert (found.line, found.severity) == (3, "warning")
    assert found.message.startswith("Claude Code may not load this subagent: frontmatter is not valid YAML")
    last = {REVIEWER: "---\nname: code-reviewer\ndescription: Reviews code: use after editing\n---\nx\n"}
    assert findings(last, select="AGT")[0].severity == "warning"
