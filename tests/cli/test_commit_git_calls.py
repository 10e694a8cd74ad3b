"""The commit hooks (`check --changed`, `fix --changed`) with the cache warm: which git
processes they start, counted by a ``git`` first on PATH that writes down each
command line and runs the real one. Each costs a few milliseconds of every commit:
what git's index holds is asked once (the folders a hook lists and the cache's keys
come from it),
HEAD's tree is listed once (its folders picked from the whole, without the blobs'
sizes), HEAD's settings are not asked of git where HEAD's tree holds no settings file,
and what differs on disk is not asked where no file is read."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import commit, counting_git, git, run_cli, write

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the counting git is a shell script")


@pytest.fixture
def calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ``git`` first on PATH that logs each command line and runs the real git."""
    return counting_git(tmp_path, monkeypatch, 'printf "%s\\n" "$*" >> "$GIT_CALLS_LOG"')


def memory(i: int) -> str:
    return f"---\nname: topic {i}\ndescription: notes on topic {i}\ntype: project\n---\n\nTopic {i}.\n"


def store(repo: Path) -> None:
    files = {f".claude/memory/project_{i}.md": memory(i) for i in range(4)}
    files[".claude/memory/MEMORY.md"] = "# Memory\n\n" + "".join(f"- [topic {i}](project_{i}.md) - notes on topic {i}\n" for i in range(4))
    files["AGENTS.md"] = "# Agents\n\nRun the tests.\n"
    commit(repo, files, "base")


def logged(repo: Path, log: Path, *args: str) -> tuple[int, list[str]]:
    log.unlink(missing_ok=True)
    code = run_cli(repo, *args).returncode
    return code, log.read_text().splitlines() if log.exists() else []


def test_a_warm_commit_hook_lists_the_index_and_heads_tree_once(repo: Path, calls: Path) -> None:
    store(repo)
    write(repo, ".claude/memory/project_1.md", memory(1) + "More.\n")
    git(repo, "add", "-A")
    run_cli(repo, "fix", "--changed")  # the index as fix writes it, staged: nothing left to fix
    git(repo, "add", "-A")
    for hook in (("check", "--changed"), ("fix", "--changed", "--exit-non-zero-on-fix")):
        first, _ = logged(repo, calls, *hook)
        again, lines = logged(repo, calls, *hook)
        assert (first, again) == (0, 0)
        listings = [line for line in lines if " ls-files " in f" {line} "]
        assert len(listings) == 1, lines  # git's index listed once, with its blob ids: the store's folder and the keys from it
        assert len([line for line in lines if " ls-tree " in f" {line} "]) == 1, lines  # HEAD's tree listed once
        assert not [line for line in lines if "cat-file" in line], lines  # HEAD holds no settings file: none read
        # What differs on disk from the index is asked only where a file is read (every
        # part kept: none is), or where the disk lacks a staged file.
        assert not [line for line in lines if " diff " in f" {line} " and "--cached" not in line], lines
        # HEAD's tree listed without the blobs' sizes (git reads each blob's header for them).
        assert not [line for line in lines if " ls-tree " in f" {line} " and " -l " in f" {line} "], lines
        # The staged change, the index, HEAD's commit, HEAD's tree, whether git converts
        # files: one process each (no renames asked where the change deletes nothing;
        # fix's second reading of the tree, where it wrote nothing, is its first).
        assert len(lines) == 5, lines


def test_heads_settings_file_is_still_read(repo: Path, calls: Path) -> None:
    """Where HEAD holds a settings file, it is read (its secret rules judge the change)."""
    store(repo)
    commit(repo, {".memcheck.yaml": "fail-on: error\n"}, "settings")
    write(repo, ".claude/memory/project_1.md", memory(1) + "More.\n")
    git(repo, "add", "-A")
    _, lines = logged(repo, calls, "check", "--changed")
    assert [line for line in lines if "cat-file" in line], lines


FOLDERS_FILES = ["a/x.md", "a/b/y.md", "a-b/z.md", "ab/w.md", "a.md", "b/a/v.md", "c d/u.md"]


@pytest.mark.parametrize("folders", [["a"], ["a/b"], ["a", "ab"], ["c d"], [""], ["missing"], ["a.md"]])
def test_folders_picked_from_the_index_are_what_git_lists(repo: Path, folders: list[str]) -> None:
    """A hook's folders picked from git's whole index (and from HEAD's whole tree) are
    the files git lists for them itself: a folder and below it, never a name that only
    begins the same way."""
    from memcheck import git as mgit
    from memcheck import gitrefs
    from memcheck.workspace.staged import StagedFiles
    from memcheck.workspace.tree import TreeSource

    head = commit(repo, {name: "x\n" for name in FOLDERS_FILES}, "files")
    staged = StagedFiles(repo)
    picked = mgit.FileListing(repo, folders, cached_only=True, indexed=staged.files).files()
    assert picked == mgit.FileListing(repo, folders, cached_only=True).files()
    tree = TreeSource(repo, head, folders)
    try:
        assert tree.listing().files == sorted(gitrefs.tree_entries(repo, head, folders) or {})
        assert tree.whole_listing() == sorted(gitrefs.tree_entries(repo, head) or {})
    finally:
        tree.close()


def test_a_renamed_memory_still_asks_git_for_renames(repo: Path, calls: Path) -> None:
    """A change that deletes a path may rename it: git's rename detection is asked, and
    the renamed memory's older findings stay older."""
    store(repo)
    git(repo, "mv", ".claude/memory/project_1.md", ".claude/memory/project_one.md")
    _, lines = logged(repo, calls, "check", "--changed")
    assert [line for line in lines if "--name-status" in line and "-M" in line], lines


def test_a_commit_whose_files_on_disk_are_the_staged_ones_asks_no_work_tree_diff(repo: Path, calls: Path) -> None:
    """The next commit reads its changed memory: the bytes on disk hash to the blob git's
    index holds, so they are the commit's, and git is not asked what differs on disk
    (a ``git diff`` that looks at every file of the tree); a staged memory edited again
    since is read from the index (test_staged_view.py holds what is judged then)."""
    store(repo)
    run_cli(repo, "check", "--changed")  # the cache warm
    write(repo, ".claude/memory/project_1.md", memory(1) + "More.\n")
    git(repo, "add", "-A")
    code, lines = logged(repo, calls, "check", "--changed")
    assert code == 0
    assert not [line for line in lines if " diff " in f" {line} " and "--cached" not in line], lines
    write(repo, ".claude/memory/project_1.md", memory(1) + "Still more.\n")
    git(repo, "add", "-A")
    write(repo, ".claude/memory/project_1.md", memory(1) + "[dead](gone.md)\n")  # not staged: not in the commit
    log = calls
    log.unlink(missing_ok=True)
    proc = run_cli(repo, "check", "--changed", "--all")
    lines = log.read_text().splitlines()
    assert proc.returncode == 0 and "MEM021" not in proc.stdout, proc.stdout  # the dead link is not in the commit
    assert [line for line in lines if " diff " in f" {line} " and "--cached" not in line], lines


def test_dead_links_of_many_guidance_files_ask_git_what_it_ignores_once(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GDN013 leaves a dead link to a path git ignores: whether git ignores each is
    asked once for every guidance file's dead links together, not a process a file
    (a thousand guidance files with dead links took six times as long)."""
    files = {f"p{i}/AGENTS.md": f"# P{i}\n\nSee [notes](missing-{i}.md).\n" for i in range(6)}
    files[".gitignore"] = "missing-3.md\n"
    commit(repo, files, "guidance")
    log = counting_git(tmp_path, monkeypatch, 'printf "%s\\n" "$*" >> "$GIT_CALLS_LOG"')
    proc = run_cli(repo, "check", "--no-cache", "--select", "GDN013")
    lines = log.read_text().splitlines() if log.exists() else []
    assert len([line for line in lines if "check-ignore" in line]) == 1, lines
    reported = {line.split(":")[0] for line in proc.stdout.splitlines() if "GDN013" in line}
    assert reported == {f"p{i}/AGENTS.md" for i in range(6) if i != 3}, proc.stdout


def test_dead_links_out_of_a_store_ask_git_what_it_ignores_once(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """IDX002 leaves an index's dead link to a path git ignores: whether git ignores
    each is asked once for the index's links that leave the store, not once a link."""
    entries = "".join(f"- [doc {i}](../../docs/gone-{i}.md) - doc {i}\n" for i in range(6))
    commit(repo, {".claude/memory/MEMORY.md": "# Memory\n\n" + entries, ".gitignore": "docs/gone-3.md\n"}, "index")
    log = counting_git(tmp_path, monkeypatch, 'printf "%s\\n" "$*" >> "$GIT_CALLS_LOG"')
    proc = run_cli(repo, "check", "--no-cache", "--select", "IDX002")
    lines = log.read_text().splitlines() if log.exists() else []
    assert len([line for line in lines if "check-ignore" in line]) == 1, lines
    reported = [line for line in proc.stdout.splitlines() if "IDX002" in line]
    assert len(reported) == 5 and not [line for line in reported if "gone-3" in line], proc.stdout
