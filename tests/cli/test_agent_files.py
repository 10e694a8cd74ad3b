"""Agent files known from the agent data (subagents, Kiro steering, ...) through the
command line, on real git repositories: that a run given some files (pre-commit's
list) checks only those, and folders of agent files that are symlinks out of the
repository. What each AGT rule reports: tests/unit/rules/test_agt00*.py."""

from __future__ import annotations

from pathlib import Path

from conftest import codes_at, git, memory, run_cli, write

BROKEN = "---\nname: reviewer\ndescription: Reviews code: use after edits\n---\nYou review code.\n"
NO_NAME = "---\ndescription: Writes tests.\n---\nYou write tests.\n"


def test_a_run_given_one_agent_file_checks_only_that_one(repo: Path) -> None:
    write(repo, ".claude/agents/reviewer.md", BROKEN)
    write(repo, ".claude/agents/tester.md", NO_NAME)
    git(repo, "add", "-A")
    assert codes_at(repo, ".claude/agents/reviewer.md", ".claude/agents/reviewer.md") == ["AGT003"]
    assert codes_at(repo, ".claude/agents/tester.md", ".claude/agents/reviewer.md") == []
    assert codes_at(repo, ".claude/agents/tester.md") == ["AGT004"]


def test_a_run_given_memory_files_only_reads_no_agent_file(repo: Path) -> None:
    write(repo, ".claude/agents/reviewer.md", BROKEN)
    write(repo, ".claude/memory/a.md", memory("a", "about a", "project"))
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n## Project\n- [a](a.md) - about a\n")
    git(repo, "add", "-A")
    assert codes_at(repo, ".claude/agents/reviewer.md", ".claude/memory/a.md") == []


def test_kiro_steering_without_its_pattern(repo: Path) -> None:
    write(repo, ".kiro/steering/ts.md", "---\ninclusion: fileMatch\n---\nUse strict mode.\n")
    git(repo, "add", "-A")
    proc = run_cli(repo, "check", "--select", "GDN019")
    assert proc.stdout.splitlines()[0] == (
        ".kiro/steering/ts.md:1:1: GDN019 inclusion: fileMatch needs fileMatchPattern, and there is none: Kiro includes it for no file; add fileMatchPattern to the frontmatter"
    )


def test_a_folder_of_subagents_that_is_a_symlink_out_of_the_repository_is_an_error(repo: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    write(elsewhere, "reviewer.md", BROKEN)
    (repo / ".claude").mkdir()
    (repo / ".claude/agents").symlink_to(elsewhere, target_is_directory=True)
    (repo / ".github").mkdir()
    (repo / ".github/prompts").symlink_to(elsewhere, target_is_directory=True)
    write(repo, ".github/agents", "a file where the folder would be\n")
    git(repo, "add", "-A")
    proc = run_cli(repo, "check")
    # Claude Code and Copilot follow the links and load what is there; memcheck never
    # does, and says so, as it does of a subagent file that is such a symlink.
    assert proc.returncode == 1, proc.stdout
    assert proc.stdout.splitlines()[:2] == [
        ".claude/agents:1:1: AGT001 agents is a symlink out of the repository; memcheck does not follow it",
        ".github/prompts:1:1: AGT001 prompts is a symlink out of the repository; memcheck does not follow it",
    ]
    assert ".github/agents:" not in proc.stdout  # a plain file is no folder of agents


def test_a_prompt_file_that_runs_an_agent_git_ignores_is_empty_on_every_clone(repo: Path) -> None:
    """The prompt file names a custom agent kept on one machine only (git ignores it):
    every clone runs the prompt file with no prompt (an outside attack's recipe)."""
    prompt = ".github/prompts/review.prompt.md"
    write(repo, prompt, "---\nagent: reviewer\n---\n")
    write(repo, ".github/agents/reviewer.agent.md", "---\ndescription: Reviews.\n---\n\nReview the change.\n")
    assert codes_at(repo, prompt) == []
    write(repo, ".gitignore", ".github/agents/\n")
    git(repo, "add", "-A")
    assert codes_at(repo, prompt) == ["AGT015"]
