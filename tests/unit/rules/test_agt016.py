"""AGT016 missing-skill: a subagent preloading a skill the repository does not have."""

from __future__ import annotations

from conftest import example, findings, lint, subagent

REVIEWER = ".claude/agents/reviewer.md"
SKILL = ".claude/skills/code-review/SKILL.md"
SKILL_TEXT = "---\nname: code-review\ndescription: Reviews code. Use when reviewing.\n---\nReview.\n"


def test_the_docs_example_is_reported() -> None:
    files = {REVIEWER: subagent(example("AGT016")), SKILL: SKILL_TEXT}
    assert lint(files, select="AGT") == [(REVIEWER, 4, "AGT016")]
    message = findings(files, select="AGT")[0].message
    assert "there is no .claude/skills/review-checklist/SKILL.md: unless every user has that skill in ~/.claude/skills" in message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({REVIEWER: subagent(example("AGT016", "Use instead")), SKILL: SKILL_TEXT}, select="AGT") == []


def test_a_name_no_skill_can_have_and_a_plugins_skill() -> None:
    files = {REVIEWER: subagent("skills: [Code_Review, 'my-plugin:review']\n"), SKILL: SKILL_TEXT}
    (found,) = findings(files, select="AGT")
    assert found.message.startswith("skills names 'Code_Review', which is not a skill's name")


def test_a_nested_projects_skills_are_its_own() -> None:
    files = {
        "app/.claude/agents/r.md": "---\nname: r\ndescription: x\nskills: [code-review]\n---\nx\n",
        "app/.claude/skills/code-review/SKILL.md": SKILL_TEXT,
        REVIEWER: subagent("skills: [code-review]\n"),
    }
    assert lint(files, select="AGT016") == [(REVIEWER, 4, "AGT016")]
