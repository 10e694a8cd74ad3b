"""SKL015 rejected-on-upload: a skill name or description Claude's skill upload refuses."""

from __future__ import annotations

from conftest import example, findings, lint


def _skill(folder: str, fields: str) -> dict[str, str]:
    return {f".claude/skills/{folder}/SKILL.md": f"---\n{fields}---\n\nBody.\n"}


def test_the_docs_example_is_reported_for_the_name_and_the_description() -> None:
    path = ".claude/skills/claude-helper/SKILL.md"
    found = findings(_skill("claude-helper", example("SKL015")), select="SKL015")
    assert [(p.path, p.line, p.code, p.severity) for p in found] == [(path, 2, "SKL015", "warning"), (path, 3, "SKL015", "warning")]
    assert (
        found[0].message
        == "name 'claude-helper' contains the reserved word 'claude': Claude's API and claude.ai refuse to upload the skill; rename it"
    )
    assert (
        found[1].message
        == "description holds the XML tag '<b>': Claude's API and claude.ai refuse to upload the skill; write it as plain text"
    )


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint(_skill("review-helper", example("SKL015", "Use instead")), select="SKL015") == []


def test_a_skill_claude_code_does_not_load_is_not_reported() -> None:
    # Agents that read the skill from the repository take it as it is.
    path = ".agents/skills/claude-helper/SKILL.md"
    assert lint({path: "---\n" + example("SKL015") + "---\n\nBody.\n"}, select="SKL015") == []


def test_it_is_off_unless_selected() -> None:
    """Judged on unseen repositories: wanted on 1 of 17 findings (skills nobody uploads)."""
    files = _skill("claude-helper", example("SKL015"))
    assert [f for f in lint(files) if f[2] == "SKL015"] == []
    assert lint(files, select="SKL") == []
