"""AGT017 agent-memory-ignored: memory: project in a repository that ignores it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import example, findings, lint

REVIEWER = ".claude/agents/reviewer.md"


def subagent(keys: str) -> str:
    return "---\n" + keys + "---\nYou review code.\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    return tmp_path


def test_the_docs_example_is_reported(repo: Path) -> None:
    files = {".gitignore": ".claude/agent-memory/\n", REVIEWER: subagent(example("AGT017"))}
    assert lint(files, select="AGT", root=repo) == [(REVIEWER, 4, "AGT017")]
    message = findings(files, select="AGT", root=repo)[0].message
    assert (
        "keeps what this subagent learns in .claude/agent-memory/code-reviewer/ to be committed and shared, but git ignores that folder"
        in message
    )


def test_the_docs_use_instead_is_not_reported(repo: Path) -> None:
    files = {".gitignore": ".claude/agent-memory/\n", REVIEWER: subagent(example("AGT017", "Use instead"))}
    assert lint(files, select="AGT", root=repo) == []


def test_memory_that_is_not_ignored_is_not_reported(repo: Path) -> None:
    files = {".gitignore": ".claude/settings.local.json\n", REVIEWER: subagent(example("AGT017"))}
    assert lint(files, select="AGT017", root=repo) == []


def test_a_broader_ignore_pattern_counts(repo: Path) -> None:
    # `.claude/*` with the agents folder taken back in: the memory is still ignored.
    files = {".gitignore": ".claude/*\n!.claude/agents/\n", REVIEWER: subagent(example("AGT017"))}
    assert lint(files, select="AGT017", root=repo) == [(REVIEWER, 4, "AGT017")]


def test_without_git_nothing_is_said() -> None:
    assert lint({".gitignore": ".claude/agent-memory/\n", REVIEWER: subagent(example("AGT017"))}, select="AGT017") == []
