"""A commit hook's first questions to git, started before the hook is imported
(git.ask_ahead): each answers the first asking of the same question in the same
folder, by the same process, once; what git says after a change is asked anew."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from conftest import git, write

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
