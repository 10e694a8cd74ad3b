"""A bare `memcheck check --changed` judges what the commit holds, as the hooks do
under pre-commit: the staged files with their staged content, not the work tree
(pre-commit stashes unstaged changes first; a bare run reads them from git's index)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import git, invoke, memory, run_cli, write

INDEX = ".claude/memory/MEMORY.md"


def _committed_store(repo: Path) -> None:
    write(repo, ".claude/memory/project_a.md", memory("a", "About a", "project"))
    write(repo, INDEX, "# Memory\n\n## Project\n- [a](project_a.md) - About a\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "store")


def _codes_and_messages(stdout: str) -> list[tuple[str, str]]:
    return [(p["code"], p["message"]) for p in json.loads(stdout)["problems"]]


def test_staged_content_is_judged_not_the_disk(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _committed_store(repo)
    write(repo, ".claude/memory/project_b.md", memory("b", "About b", "project"))
    git(repo, "add", ".claude/memory/project_b.md")
    # The index on disk lists b, but that edit is not staged: the commit lacks it.
    write(repo, INDEX, "# Memory\n\n## Project\n- [a](project_a.md) - About a\n- [b](project_b.md) - About b\n")
    proc = run_cli(repo, "check", "--changed", "--format", "json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert [c for c, _ in _codes_and_messages(proc.stdout)] == ["IDX003"]
    assert run_cli(repo, "check", "--format", "json").returncode == 0  # the work tree itself is fine
    result = invoke(repo, "check", "--changed", monkeypatch=monkeypatch)
    assert result.exit_code == 1 and "IDX003 memory file project_b.md is not listed" in result.output


def test_an_unstaged_deletion_is_still_in_the_commit(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _committed_store(repo)
    write(repo, ".claude/memory/project_b.md", memory("b", "About b", "project"))
    write(repo, INDEX, "# Memory\n\n## Project\n- [a](project_a.md) - About a\n- [b](project_b.md) - About b\n")
    git(repo, "add", "-A")
    (repo / ".claude/memory/project_a.md").unlink()  # deleted on disk, not in the commit
    proc = run_cli(repo, "check", "--changed")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = invoke(repo, "check", "--changed", monkeypatch=monkeypatch)
    assert result.exit_code == 0, result.output


def test_fix_changed_adds_no_untracked_memory_and_keeps_an_unstaged_index(repo: Path) -> None:
    _committed_store(repo)
    write(repo, ".claude/memory/scratch.md", memory("scratch", "Not for the commit", "project"))
    write(repo, ".claude/memory/project_b.md", memory("b", "About b", "project"))
    git(repo, "add", ".claude/memory/project_b.md")
    proc = run_cli(repo, "fix", "--changed")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (repo / INDEX).read_text(
        encoding="utf-8"
    ) == "# Memory\n\n## Project\n- [a](project_a.md) - About a\n- [b](project_b.md) - About b\n"


def test_deleting_the_index_of_a_store_it_alone_made_is_reported(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "memory/project_a.md", memory("a", "About a", "project"))
    write(repo, "memory/project_b.md", memory("b", "About b", "project"))
    write(repo, "memory/MEMORY.md", "# Memory\n\n## Project\n- [a](project_a.md) - About a\n- [b](project_b.md) - About b\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "store")
    git(repo, "rm", "-q", "memory/MEMORY.md")
    proc = run_cli(repo, "check", "--changed")
    assert proc.returncode == 1 and "IDX001 memory store memory/ has no MEMORY.md" in proc.stdout, proc.stdout + proc.stderr
    result = invoke(repo, "check", "--changed", monkeypatch=monkeypatch)
    assert result.exit_code == 1 and "IDX001" in result.output


def test_a_new_index_fix_writes_is_not_called_ignored(repo: Path) -> None:
    write(repo, ".claude/memory/project_a.md", memory("a", "About a", "project"))
    git(repo, "add", "-A")
    proc = run_cli(repo, "fix", "--changed")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Fixing .claude/memory/MEMORY.md: added 1 (project_a.md)" in proc.stdout
    assert "IDX012" not in proc.stdout and "No problems found in 1 store (1 memory)." in proc.stdout


def test_the_staged_source_holds_the_commit_and_the_disk_source_the_work_tree(repo: Path) -> None:
    from memcheck import config
    from memcheck import git as memcheck_git
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.disk import StagedSource
    from memcheck.workspace.staged import StagedFiles

    _committed_store(repo)
    git(repo, "rm", "-q", "--cached", INDEX)  # on disk, not in the commit
    write(repo, ".claude/memory/project_a.md", memory("a", "Edited, not staged", "project"))
    write(repo, ".claude/memory/scratch.md", memory("scratch", "Untracked", "project"))
    staged = StagedFiles(repo)
    ws = Workspace(config.load(repo), StagedSource(staged, memcheck_git.FileListing(repo, [".claude/memory"], cached_only=True)))
    assert ws.files == [".claude/memory/project_a.md"] and ws.partial and ws.staged is staged
    assert ws.document(".claude/memory/project_a.md").frontmatter.data["description"] == "About a"
    assert not ws.is_file(INDEX) and not ws.exists(INDEX) and ws.exists(".claude")
    staged.written.add(INDEX)  # as fix does once it wrote the index
    assert ws.is_file(INDEX) and ws.exists(INDEX)
    on_disk = Workspace(config.load(repo))
    assert on_disk.files == [INDEX, ".claude/memory/project_a.md", ".claude/memory/scratch.md"] and on_disk.staged is None
    assert on_disk.document(".claude/memory/project_a.md").frontmatter.data["description"] == "Edited, not staged"


@pytest.mark.parametrize(
    "hide",
    [
        pytest.param(("update-index", "--assume-unchanged"), id="assume-unchanged"),
        pytest.param(("update-index", "--skip-worktree"), id="skip-worktree"),
    ],
)
def test_a_file_git_is_told_not_to_look_at_is_judged_as_staged(repo: Path, hide: tuple[str, str]) -> None:
    """git does not compare such a file with the disk, and calls it unchanged whatever
    the disk holds; the commit still holds the staged blob, and that is what is judged
    (found by an outside attack: the disk's `type: bogus` was reported while the staged
    copy said `project`). The work tree's check reads the disk's own copy."""
    _committed_store(repo)
    write(repo, ".claude/memory/project_a.md", memory("a", "About a, staged", "project"))
    git(repo, "add", "-A")
    git(repo, *hide, ".claude/memory/project_a.md")
    write(repo, ".claude/memory/project_a.md", memory("a", "About a", "bogus"))
    proc = run_cli(repo, "check", "--changed", "--format", "json")
    assert "MEM007" not in [c for c, _ in _codes_and_messages(proc.stdout)], proc.stdout
    proc = run_cli(repo, "check", "--format", "json")
    assert "MEM007" in [c for c, _ in _codes_and_messages(proc.stdout)], proc.stdout


def test_index_records_found_by_search_and_by_the_split_listing_agree(repo: Path) -> None:
    """A commit's first few files are looked up in git's index by a search of its
    listing, the rest in the listing split once (a search each would grow with the
    files read times the index's size): both give each file's record alike, names with
    a tab or a space, one that ends another's, and a file git is told not to look at."""
    from memcheck.workspace.staged import StagedFiles

    names = [f"notes/n{i}.md" for i in range(12)] + ["a.md", "x/a.md", "tab\tname.md", "with space.md"]
    for name in names:
        write(repo, name, name + "\n")
    git(repo, "add", "-A")
    git(repo, "update-index", "--skip-worktree", "x/a.md")
    searched, split = StagedFiles(repo), StagedFiles(repo)
    split._asked = 10**9  # past the searches: the split listing answers
    for name in [*names, "missing.md", "a"]:
        assert searched._searched(name) == split._record(name), name
        assert (split._record(name) is None) == (name in ("missing.md", "a"))
    assert split.looked_away("x/a.md") and not split.looked_away("a.md")
