"""A tree or a change none of whose paths could be an agent file (see
workspace/candidates.py) is reported as before, without the checks: the same lines,
exit codes and errors as a run that looks."""

from __future__ import annotations

from pathlib import Path

import pytest
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


def test_an_agent_file_git_does_not_track_yet_is_still_checked(repo: Path) -> None:
    # The tracked files are looked at first (git's index, at once): none could be an
    # agent file here, so the untracked ones are waited for, and one of them is.
    _plain_repo(repo)
    write(repo, "docs/AGENTS.md", "# Docs\n\nSee [the guide](guide.md).\n")
    proc = run_cli(repo, "check")
    assert "nothing to check" not in proc.stdout
    assert "1 guidance file" in proc.stdout, proc.stdout


def test_the_whole_tree_is_listed_as_one_git_listing_lists_it(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A large tree's tracked and untracked files are listed by two git processes (the
    index at once, the walk for untracked files meanwhile): together, what one listing
    of both gives."""
    import subprocess

    from memcheck import git as mgit
    from memcheck import listing

    monkeypatch.setattr(listing, "_SPLIT_FROM", 0)  # this small tree listed as a large one is

    _plain_repo(repo)
    write(repo, ".gitignore", "build/\n*.log\n")
    write(repo, "build/out.md", "ignored\n")
    write(repo, "run.log", "ignored\n")
    write(repo, "notes/new.md", "untracked\n")
    write(repo, "b c/d.md", "untracked, with a space\n")
    git(repo, "add", ".gitignore")
    git(repo, "rm", "-q", "--cached", "README.txt")  # on disk, no longer tracked: listed as untracked
    one = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=repo, capture_output=True, check=True
    ).stdout
    expected = sorted(set(one.decode().split("\0")) - {""})
    listing = mgit.FileListing(repo)
    assert listing.any_first(lambda path: path == ".gitignore")
    assert not listing.any_first(lambda path: path == "notes/new.md")  # untracked: not waited for
    assert listing.files() == expected
    assert listing.files() == expected  # asked again, the same
    assert "notes/new.md" in expected and "README.txt" in expected and "build/out.md" not in expected
