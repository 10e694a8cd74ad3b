"""Skill discovery on a real repository: which files are skills (the Agent Skills
specification; Claude Code's plugins). Each SKL rule's cases are in
tests/unit/rules/test_skl0NN.py."""

from __future__ import annotations

from pathlib import Path

from conftest import check_json, git, write

from memcheck import config
from memcheck.workspace.discover import Workspace

GOOD = "---\nname: {name}\ndescription: Run the tests. Use when asked to test a change.\n{extra}---\n\nBody.\n"


def test_discovery_skill_folders_flat_skills_and_resources(repo: Path) -> None:
    write(repo, ".claude/skills/deploy/SKILL.md", GOOD.format(name="deploy", extra=""))
    write(repo, ".claude/skills/deploy/reference.md", "---\nname: not-a-skill\n---\n")  # a resource
    write(repo, ".claude/skills/deploy/examples/inner/SKILL.md", GOOD.format(name="inner", extra=""))  # a resource too
    write(repo, ".claude/skills/README.md", "---\nname: readme\ndescription: x\n---\n")
    write(repo, ".claude/skills/notes.md", "# no frontmatter: not a skill\n")
    write(repo, "pkg/.agents/skills/run-tests.md", GOOD.format(name="run-tests", extra=""))  # flat, any depth
    write(repo, "plugins/p/.claude-plugin/plugin.json", '{"name": "p"}\n')
    write(repo, "plugins/p/skills/lint/SKILL.md", GOOD.format(name="lint", extra=""))  # a plugin's skill
    write(repo, "src/app/skills/own/SKILL.md", "# the application's own: no agent's skill\n")
    ws = Workspace(config.load(repo))
    assert ws.skills == (".claude/skills/deploy/SKILL.md", "pkg/.agents/skills/run-tests.md", "plugins/p/skills/lint/SKILL.md")
    assert check_json(repo) == []


def test_a_hook_run_on_a_file_a_skill_ships_checks_its_links(repo: Path) -> None:
    """Issue 40's shape, as pre-commit gives it: only the skill's AGENTS.md changed;
    its dead link under references/ is reported (SKL012), as a whole check reports it."""
    skill = ".agents/skills/deploy"
    write(repo, f"{skill}/SKILL.md", "---\nname: deploy\ndescription: Deploys the app. Use when shipping.\n---\n\nRead AGENTS.md.\n")
    write(repo, f"{skill}/AGENTS.md", "# Deploy\n\n- [Gone](references/gone.md)\n")
    git(repo, "add", "-A")
    for args in (("check",), ("check", f"{skill}/AGENTS.md")):
        found = [(p["path"], p["line"], p["code"]) for p in check_json(repo, *args[1:])]
        assert (f"{skill}/AGENTS.md", 3, "SKL012") in found, args


def test_a_shared_skill_linked_into_claude_codes_folder_keeps_its_claude_code_keys(repo: Path) -> None:
    # `npx skills add` installs into .agents/skills and links each skill into .claude/skills
    # (AGENT-FILES §0 N3): Claude Code then reads the skill and its keys (SKL017 is silent);
    # without the link, Codex and Gemini CLI are the ones that load it, and they ignore `context`.
    write(repo, ".agents/skills/deploy/SKILL.md", GOOD.format(name="deploy", extra="context: fork\n"))
    git(repo, "add", "-A")
    assert [(p["code"], p["line"]) for p in check_json(repo)] == [("SKL017", 4)]
    (repo / ".claude/skills").mkdir(parents=True)
    (repo / ".claude/skills/deploy").symlink_to("../../.agents/skills/deploy")
    git(repo, "add", "-A")
    assert check_json(repo) == []
