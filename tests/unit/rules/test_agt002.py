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


def test_a_readme_in_the_agents_folder_is_not_an_agent() -> None:
    files = {".claude/agents/README.md": "# Our agents\n\nOne file per subagent.\n", ".claude/agents/platforms/README.md": "# Platforms\n"}
    assert lint(files, select="AGT002") == []


OK_AGENT = "---\nname: reviewer\ndescription: Reviews code.\n---\n\nYou review code.\n"


def test_a_subfolder_of_templates_beside_real_agents_is_not_reported() -> None:
    # The agents folder has agents with frontmatter; a subfolder none of whose files
    # has any holds what they read (report templates), not agents.
    files = {
        ".claude/agents/reviewer.md": OK_AGENT,
        ".claude/agents/templates/reviewer/report.md": "# Review of {repo}\n",
        ".claude/agents/templates/summary.md": "# Summary\n",
    }
    assert lint(files, select="AGT002") == []


def test_an_agent_without_frontmatter_is_still_reported_where_agents_are() -> None:
    files = {
        ".claude/agents/reviewer.md": OK_AGENT,
        ".claude/agents/planner.md": "# Planner\n\nYou plan.\n",  # beside the agents
        ".claude/agents/design/ui.md": OK_AGENT.replace("reviewer", "ui"),
        ".claude/agents/design/brand.md": "# Brand\n\nYou design.\n",  # beside an agent in its subfolder
    }
    assert lint(files, select="AGT002") == [(".claude/agents/design/brand.md", 1, "AGT002"), (".claude/agents/planner.md", 1, "AGT002")]
    # With no agent anywhere to tell what the folder holds, every file is reported.
    alone = {".claude/agents/templates/report.md": "# Report\n", ".claude/agents/a.md": "# A\n"}
    assert lint(alone, select="AGT002") == [(".claude/agents/a.md", 1, "AGT002"), (".claude/agents/templates/report.md", 1, "AGT002")]
