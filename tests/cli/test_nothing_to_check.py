"""A tree or a change none of whose paths could be an agent file (see
workspace/candidates.py) is reported as before, without the checks: the same lines,
exit codes and errors as a run that looks."""
from __future__ import annotations

from pathlib import Path

from conftest import git, run_cli, write


def _plain_repo(repo: Path) -> None:
    write(repo, "README.txt", "A project.\n")
    write(repo, "src/main.py", "x = 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")


def test_a_baseline_that_cannot_be_read_still_fails(repo: Path) -> None:
    _plain_repo(repo)
    for args in (["check"], ["check", "src/main.py"], ["fix", "src/main.py"]):
        proc = run_cli(repo, *args, "--baseline", "missing.json")
        assert proc.returncode == 2, args
        assert proc.stderr.startswith("memcheck: error: baseline ") and "does not exist" in proc.stderr


def test_fix_diff_prints_nothing_for_a_change_with_no_agent_file(repo: Path) -> None:
    _plain_repo(repo)
    write(repo, "src/main.py", "x = 2\n")
    git(repo, "add", "-A")
    for args in (["fix", "--diff", "--changed"], ["fix", "--diff", "src/main.py"]):
        proc = run_cli(repo, *args)
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", ""), args


def test_a_change_that_deletes_a_file_is_still_checked(repo: Path) -> None:
    # A guidance file may link the deleted file: every guidance file is checked.
    _plain_repo(repo)
    write(repo, "AGENTS.md", "# Project\n\nSee [the entry point](src/main.py).\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "guidance")
    git(repo, "rm", "-q", "src/main.py")
    proc = run_cli(repo, "check", "--changed", "--all")
    assert "nothing to check" not in proc.stdout
    assert "1 guidance file" in proc.stdout, proc.stdout
