"""guard at commit time: which git processes it starts, counted by a ``git`` first on
PATH that writes down each command and runs the real one. Every git process costs a
few milliseconds of a hook that runs at each commit: the questions are asked together
(one ``rev-parse`` for the work tree, HEAD and a merge in progress; one ``cat-file``
for the settings and what they hold), and the staged tree is written only when its
settings can differ from HEAD's. What they leave out is tested here too."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from conftest import commit, counting_git, git, run_cli, write

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the counting git is a shell script")

# The commands guard runs on a staged change that leaves the settings alone, sorted:
# some run at once, and log in either order.
STAGED = ["cat-file", "diff", "ls-files", "rev-parse"]


@pytest.fixture
def calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ``git`` first on PATH that logs each command's subcommand (the first word
    after guard's global options) and runs the real git; returns the log."""
    return counting_git(
        tmp_path, monkeypatch, 'for a in "$@"; do case "$a" in -*|*=*) ;; *) printf "%s\\n" "$a" >> "$GIT_CALLS_LOG"; break;; esac; done'
    )


def guarded(repo: Path, log: Path, *args: str) -> tuple[int, str, list[str]]:
    log.unlink(missing_ok=True)
    proc = run_cli(repo, "guard", *args)
    return proc.returncode, proc.stdout, sorted(log.read_text().split()) if log.exists() else []


def test_a_staged_edit_costs_four_git_processes(repo: Path, calls: Path) -> None:
    commit(repo, {"README.md": "x\n", ".memcheck.yaml": "guard: {}\n", "docs/a.md": "a\n"}, "init")
    write(repo, "docs/a.md", "b\n")
    git(repo, "add", "-A")
    assert guarded(repo, calls) == (0, "No problems found.\n", STAGED)


def test_many_staged_files_cost_no_more_git_processes(repo: Path, calls: Path) -> None:
    commit(repo, {"README.md": "x\n"}, "init")
    for i in range(300):
        write(repo, f"src/p{i % 7}/f{i}.py", "x = 1\n")
    write(repo, "web/package-lock.json", "{}\n")
    git(repo, "add", "-A")
    assert guarded(repo, calls) == (0, "No problems found.\n", STAGED)


def test_symlinks_staged_and_tracked_are_read_at_one_cat_file(repo: Path, calls: Path) -> None:
    commit(repo, {"README.md": "x\n", "tools/vscode/tasks.json": "{}\n"}, "init")
    os.symlink("tools/vscode", repo / ".vscode")
    os.symlink("deploy.pem", repo / "notes.txt")
    git(repo, "add", "-A")
    code, out, commands = guarded(repo, calls)
    assert code == 1 and "notes.txt:1:1: GRD002" in out
    assert commands == sorted([*STAGED, "cat-file"])  # the settings, then every link's target


def test_the_staged_tree_is_written_when_the_settings_change(repo: Path, calls: Path) -> None:
    commit(repo, {"README.md": "x\n", ".memcheck.yaml": "guard: {}\n"}, "init")
    write(repo, ".memcheck.yaml", "guard: {disable: [env]}\n")
    git(repo, "add", "-A")
    code, out, commands = guarded(repo, calls)
    assert code == 0 and ".memcheck.yaml:1:1: GRD003" in out  # a person's loosening: a warning at the hook
    assert commands == sorted([*STAGED, "write-tree", "cat-file"])


@pytest.mark.parametrize(
    ("link", "target", "args", "settings"),
    [
        (".memcheck.yaml", "conf/memcheck.yaml", (), ".memcheck.yaml"),  # the settings file is a link
        ("ci", "conf", ("--config", "ci/memcheck.yaml"), "ci/memcheck.yaml"),  # a folder above it is
    ],
)
def test_settings_edited_through_a_symlink_are_still_a_loosening(
    repo: Path, calls: Path, link: str, target: str, args: tuple[str, ...], settings: str
) -> None:
    # Nothing staged names the settings file: a link on the way to it, and its target changes.
    commit(repo, {"README.md": "x\n", "conf/memcheck.yaml": "guard: {}\n"}, "init")
    os.symlink(target, repo / link)
    commit(repo, {}, "link the settings")
    write(repo, "conf/memcheck.yaml", "guard: {disable: [env]}\n")
    git(repo, "add", "-A")
    code, out, commands = guarded(repo, calls, *args)
    assert code == 0 and f"{settings}:1:1: GRD003" in out  # a person's loosening: a warning at the hook
    assert "write-tree" in commands


def test_a_folder_above_the_settings_replaced_by_a_link_is_judged(repo: Path, calls: Path) -> None:
    commit(repo, {"README.md": "x\n", "ci/memcheck.yaml": "guard: {}\n", "lax/memcheck.yaml": "guard: {disable: [env]}\n"}, "init")
    git(repo, "rm", "-q", "-r", "ci")
    os.symlink("lax", repo / "ci")
    git(repo, "add", "-A")
    code, out, commands = guarded(repo, calls, "--config", "ci/memcheck.yaml")
    assert code == 0 and "ci/memcheck.yaml:1:1: GRD003" in out  # a person's loosening: a warning at the hook
    assert "write-tree" in commands


def test_concluding_a_merge_writes_the_tree(repo: Path, calls: Path) -> None:
    commit(repo, {"README.md": "x\n"}, "init")
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, {"side.txt": "s\n"}, "side")
    git(repo, "checkout", "-q", "main")
    commit(repo, {"main.txt": "m\n"}, "main")
    git(repo, "merge", "-q", "--no-commit", "--no-ff", "side")
    code, out, commands = guarded(repo, calls)
    assert (code, out) == (0, "No problems found.\n")  # the side branch's own file is not the merge's doing
    assert set(STAGED) <= set(commands) and "write-tree" in commands


def test_nothing_staged_costs_the_same_processes(repo: Path, calls: Path) -> None:
    commit(repo, {"README.md": "x\n"}, "init")
    assert guarded(repo, calls) == (0, "No problems found.\n", STAGED)
