"""SKL002 missing-frontmatter: a SKILL.md with no YAML frontmatter."""

from __future__ import annotations

from conftest import example, findings, lint

SKILL = ".claude/skills/run-tests/SKILL.md"


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({SKILL: example("SKL002")})
    assert (found.path, found.line, found.code, found.severity) == (SKILL, 1, "SKL002", "error")
    assert found.message == "no YAML frontmatter: start the file with '---', name and description, then '---'"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({SKILL: example("SKL002", "Use instead")}) == []


def test_no_rule_that_reads_the_frontmatter_runs_without_one() -> None:
    # No name (SKL004) and no description (SKL006) either: the one cause is said once.
    assert lint({SKILL: "# Deploy\n"}) == [(SKILL, 1, "SKL002")]


def test_a_flat_markdown_file_without_frontmatter_is_no_skill() -> None:
    # Directly in a skills root, only a file with skill frontmatter is a skill.
    assert lint({".claude/skills/notes.md": "# Notes\n"}) == []
