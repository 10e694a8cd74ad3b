"""Every command, as the installed `memcheck` console script, on one small repository:
the check each supported Python gets in the matrix's smoke runs (with the module,
pattern, YAML and hostile-file tests), so a command that crashes on one interpreter or
dependency release is caught there and not by a user."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import git, memory, write

import memcheck

pytestmark = [pytest.mark.smoke, pytest.mark.e2e]

# The console script pip installed beside this interpreter, as pre-commit and users run it.
MEMCHECK = str(Path(sys.executable).with_name("memcheck"))


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([MEMCHECK, *args], cwd=root, capture_output=True, text=True, timeout=120)


@pytest.fixture
def small_repository(repo: Path) -> Path:
    write(repo, ".claude/memory/testing.md", memory("Testing", "How the tests run", "project"))
    write(repo, ".claude/memory/deploy.md", memory("Deploy", "How to deploy", "project"))
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n- [Testing](testing.md) - How the tests run\n")
    write(repo, "CLAUDE.md", "# Project\n\n@AGENTS.md\n")
    write(repo, "AGENTS.md", "# Agents\n\nRun `make test` before you commit.\n")
    write(repo, ".claude/skills/release/SKILL.md", "---\nname: release\ndescription: Cut a release of this project.\n---\n\nSteps.\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "start")
    return repo


def test_version_and_help(small_repository: Path) -> None:
    assert _run(small_repository, "--version").stdout == f"memcheck {memcheck.__version__}\n"
    helped = _run(small_repository, "--help")
    assert helped.returncode == 0 and "check" in helped.stdout and "guard" in helped.stdout


def test_check_finds_the_unlisted_memory(small_repository: Path) -> None:
    proc = _run(small_repository, "check", "--format", "json")
    assert proc.returncode == 1 and proc.stderr == "", proc.stderr
    problems = json.loads(proc.stdout)["problems"]
    assert ("IDX003", ".claude/memory/MEMORY.md") in {(p["code"], p["path"]) for p in problems}
    for fmt in ("text", "github", "sarif"):
        other = _run(small_repository, "check", "--format", fmt)
        assert other.returncode == 1 and other.stderr == "" and "IDX003" in other.stdout, (fmt, other.stderr)


def test_index_then_fix_then_a_clean_check(small_repository: Path) -> None:
    planned = _run(small_repository, "index", ".claude/memory")
    assert planned.returncode == 0 and "deploy.md" in planned.stdout, planned.stderr
    fixed = _run(small_repository, "fix")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert (small_repository / ".claude/memory/MEMORY.md").read_text(encoding="utf-8") == planned.stdout
    clean = _run(small_repository, "check")
    assert clean.returncode == 0 and clean.stdout == "No problems found in 2 guidance files, 1 store (2 memories) and 1 skill.\n", (
        clean.stdout + clean.stderr
    )


def test_guard_blocks_a_staged_secret_and_lists_what_is_guarded(small_repository: Path) -> None:
    assert _run(small_repository, "guard").returncode == 0  # nothing staged
    write(small_repository, ".env", "TOKEN=x\n")
    git(small_repository, "add", ".env")
    blocked = _run(small_repository, "guard")
    assert blocked.returncode == 1 and ".env" in blocked.stdout, blocked.stdout + blocked.stderr
    listed = _run(small_repository, "guard", "--list")
    assert listed.returncode == 0 and ".env" in listed.stdout, listed.stderr


def test_context_says_what_claude_code_loads(small_repository: Path) -> None:
    proc = _run(small_repository, "context", ".", "--agent", "claude-code", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert "CLAUDE.md" in proc.stdout and "AGENTS.md" in proc.stdout  # AGENTS.md through the @import


def test_rules_and_rule(small_repository: Path) -> None:
    listed = _run(small_repository, "rules", "--format", "json")
    assert listed.returncode == 0 and "MEM003" in listed.stdout, listed.stderr
    one = _run(small_repository, "rule", "IDX003")
    assert one.returncode == 0 and "IDX003" in one.stdout, one.stderr
    unknown = _run(small_repository, "rule", "NOPE999")
    assert unknown.returncode == 2 and unknown.stderr.startswith("memcheck: error: ") and "Traceback" not in unknown.stderr
