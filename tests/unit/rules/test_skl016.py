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


# A folder of scripts and reference pages that the skills beside it run and read by
# path, with a README and no SKILL.md: the skills' shared resources, not a skill.
def _skill(name: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: Does {name}. Use when asked to.\n---\n\n{body}"


def test_a_shared_folder_the_skills_beside_it_use_by_path_is_not_reported() -> None:
    files = {
        ".agents/skills/shared/README.md": "# Shared skill resources\n\nScripts the skills run.\n",
        ".agents/skills/shared/sync-check.sh": "git fetch origin main\n",
        ".agents/skills/shared/pr-body-guide.md": "# PR bodies\n",
        ".agents/skills/build/SKILL.md": _skill("build", "First run `bash .agents/skills/shared/sync-check.sh`.\n"),
        ".agents/skills/ship/SKILL.md": _skill("ship", "Write the body as [the guide](../shared/pr-body-guide.md) says.\n"),
    }
    assert lint(files) == []


def test_a_folder_no_skill_names_is_still_reported() -> None:
    files = {
        ".agents/skills/shared/README.md": "# Shared skill resources\n",
        ".agents/skills/shared/sync-check.sh": "git fetch origin main\n",
        ".agents/skills/build/SKILL.md": _skill("build", "Run `make build`.\n"),
    }
    assert lint(files) == [(".agents/skills/shared/README.md", 1, "SKL016")]


def test_a_folder_only_a_page_that_is_no_skill_names_is_still_reported() -> None:
    # A page about the folder is no skill using it.
    files = {
        ".agents/skills/shared/sync-check.sh": "git fetch origin main\n",
        ".agents/skills/build/SKILL.md": _skill("build", "Run `make build`.\n"),
        "docs/skills.md": "Run `bash .agents/skills/shared/sync-check.sh` before a release.\n",
    }
    assert lint(files) == [(".agents/skills/shared/sync-check.sh", 1, "SKL016")]
