"""A commit hook's first questions to git, started before the hook is imported
(git.ask_ahead): each answers the first asking of the same question in the same
folder, by the same process, once; what git says after a change is asked anew."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from conftest import git, run_process, write

from memcheck import git as memcheck_git


def _staged(repo: Path, rel: str) -> None:
    write(repo, rel, f"{rel}\n")
    git(repo, "add", rel)


def test_a_question_asked_ahead_answers_once_and_a_later_one_sees_the_change(repo: Path) -> None:
    _staged(repo, "a.md")
    root = repo.resolve()
    memcheck_git.ask_ahead(root, [memcheck_git.INDEX_RECORDS])
    assert len(memcheck_git._ASKED_AHEAD) == 1
    first = memcheck_git.plain(root, memcheck_git.INDEX_RECORDS)
    assert first is not None and b"\ta.md\0" in first
    assert not memcheck_git._ASKED_AHEAD  # read: nothing left waiting
    _staged(repo, "b.md")
    again = memcheck_git.plain(root, memcheck_git.INDEX_RECORDS)  # asked anew: git's index now
    assert again is not None and b"\tb.md\0" in again


def test_a_question_asked_ahead_in_one_folder_does_not_answer_another(repo: Path, tmp_path: Path) -> None:
    _staged(repo, "a.md")
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q")
    _staged(other, "z.md")
    memcheck_git.ask_ahead(repo.resolve(), [memcheck_git.INDEX_RECORDS])
    answer = memcheck_git.plain(other.resolve(), memcheck_git.INDEX_RECORDS)
    assert answer is not None and b"\tz.md\0" in answer and b"a.md" not in answer
    assert memcheck_git.plain(repo.resolve(), memcheck_git.INDEX_RECORDS) is not None  # its own, still waiting


@pytest.mark.skipif(sys.platform == "win32", reason="os.fork")
def test_a_forked_process_asks_for_itself(repo: Path) -> None:
    """A checking process forked from the hook (engine/queue.py) never reads the pipe of
    a question its parent asked ahead: the parent's answer stays whole."""
    _staged(repo, "a.md")
    root = repo.resolve()
    memcheck_git.ask_ahead(root, [memcheck_git.INDEX_RECORDS])
    child = os.fork()
    if child == 0:  # pragma: no cover (the child's exit status is the assertion)
        answer = memcheck_git.plain(root, memcheck_git.INDEX_RECORDS)
        os._exit(0 if answer is not None and b"\ta.md\0" in answer else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    answer = memcheck_git.plain(root, memcheck_git.INDEX_RECORDS)
    assert answer is not None and b"\ta.md\0" in answer


@pytest.mark.e2e
def test_the_hook_asks_git_what_it_asked_ahead_once(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`check --changed` at the top of a repository: each question is asked of git once
    (asked ahead, then read), as without asking ahead."""
    from conftest import counting_git

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


@pytest.mark.e2e
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
