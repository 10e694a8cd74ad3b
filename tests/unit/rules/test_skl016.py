"""SKL016 no-skill-file: a folder in a skills folder agents discover with no SKILL.md."""

from __future__ import annotations

from conftest import example, findings, lint

GOOD = "---\nname: deploy\ndescription: Deploys the app. Use when shipping.\n---\n\nBody.\n"


def test_the_docs_example_a_skill_file_named_in_another_case_is_reported() -> None:
    path = example("SKL016").strip()
    (found,) = findings({path: GOOD})
    assert (found.path, found.line, found.code, found.severity) == (".claude/skills/deploy/skill.md", 1, "SKL016", "warning")
    assert "SKILL.md" in found.message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({example("SKL016", "Use instead").strip(): GOOD}) == []


def test_a_lowercase_skill_file_names_the_agents_that_do_not_load_it_from_their_sources() -> None:
    (shared,) = findings({".agents/skills/deploy/skill.md": GOOD})
    assert "Codex and Gemini CLI load a skill from SKILL.md by that exact name, and Amp is not known to load skill.md" in shared.message
    (claude,) = findings({".claude/skills/deploy/skill.md": GOOD})
    assert "Claude Code is not known to load skill.md" in claude.message
    assert "reference validator accepts either" in claude.message


def test_a_folder_of_files_without_a_skill_file() -> None:
    assert lint({".claude/skills/deploy/notes.md": "# Notes\n", ".agents/skills/ship/run.sh": "make ship\n"}) == [
        (".agents/skills/ship/run.sh", 1, "SKL016"),
        (".claude/skills/deploy/notes.md", 1, "SKL016"),
    ]


def test_a_folder_that_groups_skills_is_not_loose() -> None:
    assert lint({".claude/skills/group/deploy/SKILL.md": GOOD}) == []


def test_a_skill_md_inside_another_skill_is_a_skill_file_all_the_same() -> None:
    """Issue 40 (a third unseen set): a skill's test fixture holds
    `.claude/skills/extract/SKILL.md`; it is no skill (a file of the outer one), but
    it is named SKILL.md: SKL016 said "named SKILL.md ... rename it to SKILL.md"."""
    fixture = "skills/sync-docs/tests/fixtures/case/.claude/skills/extract/SKILL.md"
    assert [f for f in lint({"skills/sync-docs/SKILL.md": GOOD, fixture: GOOD}) if f[2] == "SKL016"] == []
    # A folder beside it with a lowercase skill.md is still reported.
    lower = "skills/sync-docs/tests/fixtures/case/.claude/skills/ship/skill.md"
    assert ("skills/sync-docs/tests/fixtures/case/.claude/skills/ship/skill.md", 1, "SKL016") in lint(
        {"skills/sync-docs/SKILL.md": GOOD, fixture: GOOD, lower: GOOD}
    )


def test_a_folder_without_a_skill_file_is_reported_however_another_skill_names_it() -> None:
    # An outside attack's recipes: the review skill names the deploy folder, its missing
    # SKILL.md or a file that is not there; Claude Code loads no deploy skill all the same.
    for mention in (
        "Use the deploy skill at .claude/skills/deploy/SKILL.md.",
        "Run .claude/skills/deploy/scripts/gone.sh",
        "The deploy skill lives in .claude/skills/deploy/",
    ):
        files = {
            ".claude/skills/deploy/README.md": "# Deploy\n",
            ".claude/skills/review/SKILL.md": GOOD.replace("name: deploy", "name: review") + f"\n{mention}\n",
        }
        assert (".claude/skills/deploy/README.md", 1, "SKL016") in lint(files), mention
