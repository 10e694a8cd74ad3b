"""git.ask_ahead in a real commit hook (`check --changed`, started as pre-commit starts
it): each question to git asked once, and none left running when the hook stops early.

The in-process tests of asking ahead are in tests/cli/test_git_ask_ahead.py.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import counting_git, git, run_process, write

from memcheck import git as memcheck_git


def test_the_hook_asks_git_what_it_asked_ahead_once(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`check --changed` at the top of a repository: each question is asked of git once
    (asked ahead, then read), as without asking ahead."""
    log = counting_git(tmp_path, monkeypatch, 'printf "%s\\n" "$*" >> "$GIT_CALLS_LOG"')
    write(repo, ".claude/memory/project_a.md", "---\nname: a\ndescription: about a\ntype: project\n---\n\nA.\n")
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n- [a](project_a.md) - about a\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "store")
    write(repo, ".claude/memory/project_a.md", "---\nname: a\ndescription: about a\ntype: project\n---\n\nA, more.\n")
    git(repo, "add", "-A")
    log.unlink(missing_ok=True)
    proc = run_process(repo, "check", "--changed")  # the hook as pre-commit starts it
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = log.read_text().splitlines()
    for question in (memcheck_git.STAGED_CHANGE, memcheck_git.INDEX_RECORDS, memcheck_git.head_commit_question("HEAD")):
        assert lines.count(" ".join(question)) == 1, lines
    # Asked ahead: whether git converts files is asked with the others, before HEAD's
    # tree is listed (which waits for HEAD's commit), not when the cache first asks a key.
    conversions = lines.index(" ".join(memcheck_git.CONVERSIONS))
    assert conversions < next(i for i, line in enumerate(lines) if " ls-tree " in f" {line} "), lines


@pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="reads /proc")
def test_a_hook_that_stops_on_a_settings_error_leaves_no_git_running(repo: Path) -> None:
    """The questions asked ahead that the hook never read (it stopped on the settings
    before asking git anything) end with it: no git process is left in the repository."""
    write(repo, ".claude/memory/project_a.md", "---\nname: a\ndescription: about a\ntype: project\n---\n\nA.\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "store")
    # git waits on a slow file-system monitor first: without the ending, its processes
    # would outlive the hook by seconds.
    write(repo, ".git/slow-fsmonitor", "#!/bin/sh\nsleep 3\nexit 1\n").chmod(0o755)
    git(repo, "config", "core.fsmonitor", ".git/slow-fsmonitor")
    write(repo, ".memcheck.yaml", "select: [\n")
    write(repo, ".claude/memory/project_a.md", "---\nname: a\ndescription: about a\ntype: project\n---\n\nA, more.\n")
    git(repo, "add", "-A")
    proc = run_process(repo, "check", "--changed")
    assert proc.returncode == 2 and "error" in proc.stderr, proc.stderr
    left = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and Path(os.readlink(entry / "cwd")) == repo.resolve():
                left.append((entry / "cmdline").read_bytes().split(b"\0")[0])
        except OSError:
            continue
    assert not [name for name in left if name.endswith(b"git")], left
