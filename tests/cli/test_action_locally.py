"""docs/github-action.md's way to run what the action runs, on a branch of a clone: the
commands as written there, against a real remote."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

from conftest import REPO_ROOT, git, memory, write


def _commands() -> list[list[str]]:
    page = (REPO_ROOT / "docs/github-action.md").read_text(encoding="utf-8")
    section = page.split("## Running what the action runs, on your machine", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block is not None
    return [shlex.split(line.split("#", 1)[0]) for line in block.group(1).splitlines() if line.strip()]


def test_the_commands_the_docs_give_judge_a_branch_as_the_action_does(repo: Path, tmp_path: Path) -> None:
    remote = tmp_path / "origin.git"
    git(tmp_path, "-c", "init.defaultBranch=main", "init", "-q", "--bare", str(remote))
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    write(repo, ".claude/memory/MEMORY.md", "- [prefs](user_prefs.md) — Prefers short answers\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "store")
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "origin", "HEAD:main")
    git(repo, "checkout", "-q", "-b", "topic")
    write(repo, ".claude/memory/feedback_new.md", memory("new", "Run the tests first", "feedback"))  # not in the index
    write(repo, "deploy.pem", "KEY\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "topic")
    fetch, check, guard = _commands()
    assert fetch[:2] == ["git", "fetch"]
    subprocess.run(fetch, cwd=repo, check=True, capture_output=True)
    assert check[0] == guard[0] == "memcheck"
    linted = subprocess.run([sys.executable, "-m", "memcheck", *check[1:]], cwd=repo, capture_output=True, text=True)
    assert linted.returncode == 1 and "IDX003" in linted.stdout, linted.stdout + linted.stderr
    guarded = subprocess.run([sys.executable, "-m", "memcheck", *guard[1:]], cwd=repo, capture_output=True, text=True)
    assert guarded.returncode == 1, guarded.stdout + guarded.stderr
    assert guarded.stdout.startswith("### Guarded paths") and "deploy.pem" in guarded.stdout
    assert "range origin/main..HEAD" in guarded.stdout and "and of origin/main" not in guarded.stdout, guarded.stdout
