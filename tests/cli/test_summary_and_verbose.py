"""What a run says it looked at: the summary line of a clean run, of a run with
findings and of one that finds no agent file (text and JSON), and ``-v``'s account
on standard error of the config, stores, guidance files, skills and timing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import git, memory, run_cli, write

INDEX = "# Memory\n\n## User\n- [prefs](user_prefs.md) - Prefers short answers\n"
SKILL = "---\nname: deploy\ndescription: Deploy the app when asked to ship it.\n---\n\nRun the deploy script.\n"


def _tree(repo: Path) -> None:
    """Two guidance files, a store of one memory with its index, a skill: all clean."""
    write(repo, "AGENTS.md", "# Project\n\nRun the tests before a commit.\n")
    write(repo, "docs/AGENTS.md", "# Docs\n\nKeep lines short.\n")
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    write(repo, ".claude/memory/MEMORY.md", INDEX)
    write(repo, ".claude/skills/deploy/SKILL.md", SKILL)


CHECKED = "2 guidance files, 1 store (1 memory) and 1 skill"


def test_a_clean_run_says_what_it_checked(repo: Path) -> None:
    _tree(repo)
    proc = run_cli(repo, "check")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, f"No problems found in {CHECKED}.\n", "")


def test_a_run_with_findings_keeps_its_counts_and_adds_what_it_checked(repo: Path) -> None:
    _tree(repo)
    write(repo, ".claude/memory/feedback_x.md", memory("x", "An unlisted memory", "feedback"))
    proc = run_cli(repo, "check")
    assert proc.returncode == 1
    assert (
        proc.stdout.splitlines()[-1]
        == "Found 1 problem (1 error, 0 warnings) in 2 guidance files, 1 store (2 memories) and 1 skill; 1 fixable with `memcheck fix`."
    )


def test_fix_says_what_it_checked_after_what_it_wrote(repo: Path) -> None:
    _tree(repo)
    write(repo, ".claude/memory/feedback_x.md", memory("x", "An unlisted memory", "feedback"))
    proc = run_cli(repo, "fix")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == [
        "Fixing .claude/memory/MEMORY.md: added 1 (feedback_x.md)",
        "No problems found in 2 guidance files, 1 store (2 memories) and 1 skill.",
    ]


def test_only_what_the_paths_bring_in_is_counted(repo: Path) -> None:
    _tree(repo)
    assert run_cli(repo, "check", ".claude/memory/user_prefs.md").stdout == "No problems found in 1 store (1 memory).\n"
    assert run_cli(repo, "check", "docs").stdout == "No problems found in 1 guidance file.\n"


def test_a_tree_of_subagents_and_steering_alone_is_not_called_empty(repo: Path) -> None:
    write(repo, ".claude/agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews diffs.\n---\n\nReview the diff.\n")
    write(repo, ".kiro/steering/style.md", "---\ninclusion: always\n---\n\nKeep lines short.\n")
    proc = run_cli(repo, "check")
    assert (proc.returncode, proc.stdout) == (0, "No problems found in 2 other agent files.\n")
    assert json.loads(run_cli(repo, "check", "--format", "json").stdout)["summary"]["checked"]["others"] == 2
    # -v names the files the summary counts.
    said = _verbose_lines(run_cli(repo, "check", "-v").stderr)
    assert said[1:-2] == ["agent file .claude/agents/reviewer.md", "agent file .kiro/steering/style.md"]
    assert said[-2].startswith("cache: 1 of 1 parts kept from earlier runs, in "), said  # the plain check above kept it


@pytest.mark.parametrize("command", ["check", "fix"])
def test_a_tree_without_agent_files_says_so_and_exits_0(repo: Path, command: str) -> None:
    write(repo, "README.md", "# A project\n")
    write(repo, "src/main.py", "print('hi')\n")
    proc = run_cli(repo, command)
    assert (proc.returncode, proc.stdout) == (0, "No agent files found (guidance files, memory stores, skills): nothing to check.\n")
    assert run_cli(repo, command, ".").stdout == proc.stdout  # the repository's own folder is the whole tree
    given = run_cli(repo, command, "src/main.py")
    assert (given.returncode, given.stdout) == (0, "No agent files in the paths given: nothing to check.\n")
    assert run_cli(repo, command, "-q").stdout == ""


def test_a_commit_that_touches_no_agent_file_says_so(repo: Path) -> None:
    _tree(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "agent files")
    write(repo, "src/main.py", "print('hi')\n")
    git(repo, "add", "src/main.py")
    for command in ("check", "fix"):
        proc = run_cli(repo, command, "--changed")
        assert (proc.returncode, proc.stdout) == (0, "The change touches no agent files: nothing to check.\n"), command


@pytest.mark.parametrize("path", [".mcp.json", ".claude/settings.json"])
def test_a_commit_that_puts_a_token_into_a_file_agents_read_is_checked(repo: Path, path: str) -> None:
    # Neither is an agent file, but the secret rules read both; a commit touching one
    # alone was "nothing to check" in the hook (an outside attack).
    write(repo, "AGENTS.md", "# Guide\n")
    write(repo, path, "{}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "start")
    write(repo, path, '{"env": {"DB_PASSWORD": "Zq8kP2mW9tR4vHs7Lx0b"}}\n')
    git(repo, "add", path)
    proc = run_cli(repo, "check", "--changed")
    assert proc.returncode == 1 and f"{path}:1:" in proc.stdout and "SEC003" in proc.stdout


def test_json_summary_carries_the_same_counts(repo: Path) -> None:
    _tree(repo)
    for command in ("check", "fix"):
        summary = json.loads(run_cli(repo, command, "--format", "json").stdout)["summary"]
        assert summary["checked"] == {"guidance": 2, "stores": 1, "memories": 1, "skills": 1, "others": 0}, command
        assert summary["problems"] == 0


def _verbose_lines(stderr: str) -> list[str]:
    lines = stderr.splitlines()
    assert all(line.startswith("memcheck: ") for line in lines), stderr
    return [line.removeprefix("memcheck: ") for line in lines]


TIMING = re.compile(r"timing: config and discovery \d+\.\d{3} s, (checks|fix and checks) \d+\.\d{3} s, output \d+\.\d{3} s")


def test_verbose_names_the_config_stores_guidance_skills_and_timing(repo: Path) -> None:
    _tree(repo)
    write(repo, ".memcheck.yaml", "index:\n  mode: sync\n")
    quiet = run_cli(repo, "check")
    loud = run_cli(repo, "check", "-v")
    assert (loud.returncode, loud.stdout) == (quiet.returncode, quiet.stdout)  # stdout is the report alone
    lines = _verbose_lines(loud.stderr)
    assert lines[:-2] == [
        "config: .memcheck.yaml",
        "store .claude/memory: 1 memory; .claude/memory/MEMORY.md, mode sync, style grouped",
        "guidance file AGENTS.md",
        "guidance file docs/AGENTS.md",
        "skill .claude/skills/deploy/SKILL.md",
    ]
    # The plain check before kept every part's findings: the second takes them.
    assert lines[-2] == f"cache: 3 of 3 parts kept from earlier runs, in {repo / '.git' / 'memcheck' / 'cache'}"
    assert TIMING.fullmatch(lines[-1]), lines[-1]
    fresh = _verbose_lines(run_cli(repo, "check", "-v", "--no-cache").stderr)
    assert fresh[-2] == "cache: off (--no-cache)"


def test_verbose_says_when_no_config_was_found(repo: Path) -> None:
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    write(repo, ".claude/memory/feedback_x.md", memory("x", "Another", "feedback"))
    lines = _verbose_lines(run_cli(repo, "check", "--verbose").stderr)
    assert lines[0] == "config: none found at the repository root (.memcheck.yaml, pyproject.toml [tool.memcheck]): defaults"
    assert lines[1] == "store .claude/memory: 2 memories; no index yet (fix writes .claude/memory/MEMORY.md, mode generate)"


def test_verbose_never_goes_into_the_output_file(repo: Path) -> None:
    _tree(repo)
    proc = run_cli(repo, "check", "-v", "--format", "json", "-o", "report.json")
    assert proc.stdout == "" and "config: " in proc.stderr
    assert json.loads((repo / "report.json").read_text(encoding="utf-8"))["summary"]["problems"] == 0


@pytest.mark.parametrize("args", [("fix", "-v"), ("check", "--fix", "-v")])
def test_fix_verbose_and_check_fix_verbose(repo: Path, args: tuple[str, ...]) -> None:
    _tree(repo)
    write(repo, ".claude/memory/feedback_x.md", memory("x", "An unlisted memory", "feedback"))
    proc = run_cli(repo, *args)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("Fixing .claude/memory/MEMORY.md: added 1 (feedback_x.md)\n")
    lines = _verbose_lines(proc.stderr)
    assert lines[0] == "config: none found at the repository root (.memcheck.yaml, pyproject.toml [tool.memcheck]): defaults"
    assert "store .claude/memory: 2 memories; .claude/memory/MEMORY.md, mode generate, style grouped" in lines
    assert TIMING.fullmatch(lines[-1]) and "fix and checks" in lines[-1], lines[-1]


def test_fix_diff_verbose_keeps_the_diff_alone_on_standard_output(repo: Path) -> None:
    _tree(repo)
    write(repo, ".claude/memory/feedback_x.md", memory("x", "An unlisted memory", "feedback"))
    quiet = run_cli(repo, "fix", "--diff")
    loud = run_cli(repo, "fix", "--diff", "-v")
    assert (loud.returncode, loud.stdout) == (quiet.returncode, quiet.stdout) == (1, quiet.stdout)
    lines = _verbose_lines(loud.stderr)
    assert lines[0].startswith("config: ") and lines[-1].startswith("timing: config and discovery ") and " diff " in lines[-1]
