"""GDN021 skill-out-of-sight: guidance names skills its agent cannot see."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import example, findings, lint

SKILL = "---\nname: release\ndescription: Ship a release.\n---\nSteps.\n"
EXAMPLE = {"CLAUDE.md": "Use the `release` skill to ship.\n", ".agents/skills/release/SKILL.md": SKILL}


def _linked_as_the_doc_says(root: Path, shown: str) -> None:
    # The doc shows the `ln -s` that makes the link: made here as it says.
    ln, s, target, link = shown.removeprefix("$ ").split()
    assert (ln, s) == ("ln", "-s")
    (root / link).parent.mkdir(parents=True, exist_ok=True)
    (root / link).symlink_to(target)


DOCS_EXAMPLE = {"CLAUDE.md": example("GDN021"), ".agents/skills/release/SKILL.md": example("GDN021", nth=2)}


def test_the_docs_example_claude_md_names_a_skill_only_in_agents_skills_is_reported() -> None:
    (found,) = findings(DOCS_EXAMPLE)
    assert (found.path, found.line, found.code) == ("CLAUDE.md", 1, "GDN021")
    assert found.message == (
        "CLAUDE.md names skills Claude Code cannot see: release (only in .agents/skills; Claude Code loads skills from .claude/skills); "
        "link or copy them into .claude/skills"
    )


def test_the_docs_use_instead_a_symlink_into_claude_skills_is_not_reported(tmp_path: Path) -> None:
    # A symlink is on disk only: made in a temporary folder as the doc's `ln -s` says.
    _linked_as_the_doc_says(tmp_path, example("GDN021", "Use instead"))
    assert lint(DOCS_EXAMPLE, root=tmp_path) == []


def test_a_copy_passes() -> None:
    assert lint({**EXAMPLE, ".claude/skills/release/SKILL.md": SKILL}, select="GDN021") == []


@pytest.mark.parametrize(
    ("files", "reported"),
    [
        pytest.param(
            {"CLAUDE.md": "See .agents/skills/release for shipping.\n", ".agents/skills/release/SKILL.md": SKILL},
            [("CLAUDE.md", 1)],
            id="by-its-folder",
        ),
        pytest.param({"AGENTS.md": "Use the `release` skill.\n", ".agents/skills/release/SKILL.md": SKILL}, [], id="codex-sees-it"),
        # Judged on an unseen repository: a routing table tells the agent to read each
        # skill's file, which its file tools open whatever skills it loads.
        pytest.param(
            {
                "AGENTS.md": "| Keywords | Read |\n|---|---|\n| ESP32 | `.claude/skills/release/SKILL.md` |\n",
                ".claude/skills/release/SKILL.md": SKILL,
            },
            [],
            id="its-skill-file-to-read",
        ),
        pytest.param(
            {"AGENTS.md": "Use the `release` skill.\n", ".claude/skills/release/SKILL.md": SKILL},
            [("AGENTS.md", 1)],
            id="codex-does-not-see-claude-skills",
        ),
        pytest.param(
            {"CLAUDE.md": "Run `release` when done.\n", ".agents/skills/release/SKILL.md": SKILL}, [], id="a-line-not-about-skills"
        ),
        pytest.param(
            {"CLAUDE.md": "A skilled reviewer runs `release` last.\n", ".agents/skills/release/SKILL.md": SKILL},
            [],
            id="skilled-is-not-skill",
        ),
        pytest.param(
            {"CLAUDE.md": "Run `release` when done; skills live elsewhere.\n", ".agents/skills/release/SKILL.md": SKILL},
            [],
            id="skills-in-another-clause",
        ),
        pytest.param(
            {"CLAUDE.md": "Skills: use `release` for tags.\n", ".agents/skills/release/SKILL.md": SKILL},
            [("CLAUDE.md", 1)],
            id="a-skills-label",
        ),
        pytest.param(
            {"CLAUDE.md": "# Team\n\nShip with the /release skill.\n", ".agents/skills/release/SKILL.md": SKILL},
            [("CLAUDE.md", 3)],
            id="slash-name-on-its-line",
        ),
    ],
)
def test_skills_named_for_an_agent_that_cannot_see_them(files: dict[str, str], reported: list[tuple[str, int]]) -> None:
    assert [(p, line) for p, line, _ in lint(files, select="GDN021")] == reported


def _skill(name: str) -> str:
    return f"---\nname: {name}\ndescription: Does {name}.\n---\nSteps.\n"


def test_a_table_mapping_tasks_to_skills_names_them() -> None:
    """Issue 40's shape: CLAUDE.md maps tasks to skills in a table whose rows never
    say "skill"; the skills live only in .agents/skills, which Claude Code does not load."""
    names = [f"task-{i:02d}" for i in range(25)]
    rows = "".join(f"| Do thing {i} | `{name}` |\n" for i, name in enumerate(names))
    files = {
        "CLAUDE.md": "# Project\n\nWhen the task is one of these, use its tool.\n\n| Task | Skill |\n|------|-------|\n" + rows,
        **{f".agents/skills/{name}/SKILL.md": _skill(name) for name in names},
    }
    (found,) = findings(files, select="GDN021")
    assert (found.path, found.line) == ("CLAUDE.md", 7)
    assert found.message.startswith(
        "CLAUDE.md names skills Claude Code cannot see: task-00, task-01, task-02, task-03, task-04 and 20 more"
    )


def test_a_table_column_that_is_not_about_skills_names_none() -> None:
    files = {
        "CLAUDE.md": "# Skills\n\n| Command | Does |\n|---|---|\n| `release` | ships |\n\n| Task | Skill | Notes |\n|---|---|---|\n| ship | none | `release` later |\n",
        ".agents/skills/release/SKILL.md": _skill("release"),
    }
    assert lint(files, select="GDN021") == []


def test_an_agent_whose_plugins_the_settings_turn_on_may_have_the_skill_from_one() -> None:
    # .claude/settings.json enables a plugin that provides `release` to Claude Code:
    # memcheck cannot see a plugin's skills, so it cannot say Claude Code lacks it.
    settings = {".claude/settings.json": '{"enabledPlugins": {"workflow@team": true}}'}
    assert lint({**EXAMPLE, **settings}) == []
    # Codex has no plugins there: an AGENTS.md naming a skill only in .claude/skills is still told.
    codex = {"AGENTS.md": "Use the `ship` skill to ship.\n", ".claude/skills/ship/SKILL.md": SKILL.replace("release", "ship")}
    assert [(p, c) for p, _, c in lint({**codex, **settings})] == [("AGENTS.md", "GDN021")]
    # A plugin turned off brings nothing.
    assert [c for _, _, c in lint({**EXAMPLE, ".claude/settings.json": '{"enabledPlugins": {"workflow@team": false}}'})] == ["GDN021"]
