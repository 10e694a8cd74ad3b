"""AGT002 missing-frontmatter: an agent file without the frontmatter its kind requires."""

from __future__ import annotations

from conftest import example, findings, lint

REVIEWER = ".claude/agents/code-reviewer.md"


def test_the_docs_example_a_subagent_without_frontmatter_is_reported() -> None:
    files = {REVIEWER: example("AGT002")}
    assert lint(files, select="AGT") == [(REVIEWER, 1, "AGT002")]
    (found,) = findings(files, select="AGT")
    assert (
        found.message
        == "no YAML frontmatter, so Claude Code does not load this subagent; start the file with '---', description and name, then '---'"
    )


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({REVIEWER: example("AGT002", "Use instead")}, select="AGT") == []


def test_a_prompt_file_needs_no_frontmatter() -> None:
    assert lint({".github/prompts/p.prompt.md": "Explain this file.\n"}, select="AGT") == []
