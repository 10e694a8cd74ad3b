"""`memcheck check --user`: the user-level locations of seeds 000, 001 and 004, with
``~/`` paths. $HOME is the isolated folder conftest sets up."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import check_json, invoke, memory, run_cli, write


@pytest.fixture
def home() -> Path:
    home = Path(os.environ["HOME"])
    write(home, ".config/amp/AGENTS.md", "# Mine\n\n@~/notes/missing.md is mine\n")
    write(home, ".config/AGENTS.md", '---\nalwaysApply: "yes"\n---\n\nRules.\n')
    write(home, ".claude/CLAUDE.md", "# Claude\n\nSee @rules/gone.md\n")
    write(home, ".agh/memory/prefs.md", memory("Prefs", "User prefs", "user"))
    write(home, ".nano_claude/memory/style.md", memory("Style", "Coding style", "decision"))
    write(home, ".nano_claude/memory/MEMORY.md", "- [style](style.md) \u2014 Coding style\n")
    write(home, ".claude/skills/Bad_Name/SKILL.md", "---\nname: Bad_Name\ndescription: x\n---\n")
    write(home, ".config/agents/skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploy.\n---\n")
    write(home, ".config/amp/skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploy again.\n---\n")
    write(home, "projects/other/AGENTS.md", "@nowhere.md\n")  # not a user-level location
    # Claude Code's auto memory of one project: its index names a memory that is gone.
    write(home, ".claude/projects/-work-app/memory/user_role.md", memory("Role", "Backend engineer", "user"))
    write(
        home,
        ".claude/projects/-work-app/memory/MEMORY.md",
        "- [Role](user_role.md) \u2014 Backend engineer\n- [Old](gone.md) \u2014 gone\n",
    )
    return home


def test_user_locations_are_checked_with_tilde_paths(repo: Path, home: Path) -> None:
    write(repo, "AGENTS.md", "# Project\n")
    assert run_cli(repo, "check").returncode == 0  # without --user, home is not looked at
    found = {(p["path"], p["code"]) for p in check_json(repo, "--user")}
    assert found == {
        ("~/.config/AGENTS.md", "GDN005"),
        ("~/.claude/CLAUDE.md", "GDN009"),
        ("~/.agh/memory/MEMORY.md", "IDX001"),
        ("~/.nano_claude/memory/style.md", "MEM007"),
        ("~/.claude/skills/Bad_Name/SKILL.md", "SKL004"),
        ("~/.config/amp/skills/deploy/SKILL.md", "SKL009"),
        ("~/.claude/projects/-work-app/memory/MEMORY.md", "IDX002"),
    }


def test_user_flag_through_click_runner(repo: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = invoke(repo, "check", "--user", monkeypatch=monkeypatch)
    assert result.exit_code == 1
    assert "~/.claude/CLAUDE.md:3:5: GDN009 @rules/gone.md imports .claude/rules/gone.md" in result.output


def test_empty_home_adds_nothing(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Project\n")
    assert run_cli(repo, "check", "--user").returncode == 0


def test_a_home_path_in_a_code_span_is_checked_only_with_user(repo: Path) -> None:
    home = Path(os.environ["HOME"])
    routing = "# Claude\n\n| topic | file |\n| --- | --- |\n| deploys | `~/.claude/knowledge/deploys.md` |\n| style | `~/.claude/knowledge/style.md` |\n"
    write(home, ".claude/CLAUDE.md", routing)
    write(home, ".claude/knowledge/style.md", "Style.\n")
    write(repo, "CLAUDE.md", routing)  # in a repository, another machine's home: not judged
    assert run_cli(repo, "check").returncode == 0
    found = [(p["path"], p["line"], p["code"], p["message"]) for p in check_json(repo, "--user") if p["code"] == "REF001"]
    assert found == [
        (
            "~/.claude/CLAUDE.md",
            5,
            "REF001",
            "`~/.claude/knowledge/deploys.md` names no file of your home folder; fix the path or remove it",
        )
    ]


# --- a home kept in a dotfiles checkout (issue 41) ---------------------------------------


def test_a_claude_folder_linked_into_dotfiles_is_checked(repo: Path, tmp_path: Path) -> None:
    # ~/.claude a symlink to a dotfiles checkout: its files are the user's, and the
    # agents read them through the link. It used to be "nothing to check".
    home = Path(os.environ["HOME"])
    dotfiles = tmp_path / "dotfiles" / "claude"
    write(dotfiles, "CLAUDE.md", "# Mine\n\nSee @missing.md\n")
    write(dotfiles, "skills/Bad_Name/SKILL.md", "---\nname: Bad_Name\ndescription: x\n---\n")
    (home / ".claude").symlink_to(dotfiles, target_is_directory=True)
    found = {(p["path"], p["code"]) for p in check_json(repo, "--user")}
    assert found == {("~/.claude/CLAUDE.md", "GDN009"), ("~/.claude/skills/Bad_Name/SKILL.md", "SKL004")}


def test_a_linked_user_claude_md_is_no_link_out_of_a_repository(repo: Path, tmp_path: Path) -> None:
    # GDN018 is about a repository's file that leads out of it; the user's own
    # ~/.claude/CLAUDE.md linked into dotfiles is read through the link, and counted.
    home = Path(os.environ["HOME"])
    write(tmp_path / "dotfiles", "CLAUDE.md", "# Mine\n\nBe terse.\n")
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "CLAUDE.md").symlink_to(tmp_path / "dotfiles" / "CLAUDE.md")
    assert check_json(repo, "--user") == []
    result = run_cli(repo, "check", "--user")
    assert result.returncode == 0
    assert "No problems found in 1 guidance file." in result.stdout + result.stderr


@pytest.mark.slow  # 50,000 files made and walked: three seconds of CPU
def test_a_user_folder_too_large_to_be_skills_is_walked_in_part_and_said_so(repo: Path, tmp_path: Path) -> None:
    # ~/.claude/skills -> / walked the whole disk (minutes, memory growing): the walk
    # of a folder of the user's stops at USER_FOLDER_FILES files, and says so.
    from memcheck.workspace.disk import USER_FOLDER_FILES

    home = Path(os.environ["HOME"])
    disk = tmp_path / "disk"
    write(disk, "a/SKILL.md", "---\nname: Bad_Name\ndescription: x\n---\n")
    (disk / "z").mkdir()
    for i in range(USER_FOLDER_FILES):
        os.close(os.open(disk / "z" / str(i), os.O_CREAT | os.O_WRONLY))
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "skills").symlink_to(disk, target_is_directory=True)
    result = run_cli(repo, "check", "--user")
    assert f"~/.claude/skills holds more than {USER_FOLDER_FILES:,} files" in result.stderr
    assert "~/.claude/skills/a/SKILL.md:2:1: SKL004" in result.stdout  # the first folders by name are checked
