"""A commit's tree as a Source (what `check --new-since REF` reads REF's files
through): the files git holds there, read from git, symlinks followed inside the
tree only, whatever the work tree holds now."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import commit, git, memory, write

from memcheck.workspace.source import OUTSIDE_LINK
from memcheck.workspace.tree import TreeSource


@pytest.fixture
def tree(repo: Path) -> TreeSource:
    write(repo, "AGENTS.md", "# Agents\n")
    write(repo, "docs/style.md", "Style.\n")
    write(repo, ".claude/memory/user_a.md", memory("a", "About a", "user"))
    write(repo, "big.md", b"x" * (1 << 20) + b"more\n")
    os.symlink("AGENTS.md", repo / "CLAUDE.md")
    os.symlink("../../docs", repo / ".claude/memory/docs")
    os.symlink("/etc/hostname", repo / "outside.md")
    os.symlink("nowhere.md", repo / "dangling.md")
    sha = commit(repo, message="tree")
    # The work tree moves on: the source still reads the commit.
    write(repo, "AGENTS.md", "# Changed\n")
    (repo / "docs/style.md").unlink()
    write(repo, "untracked.md", "new\n")
    source = TreeSource(repo, sha)
    yield source
    source.close()


def test_a_folder_s_entries_are_the_commit_s_whatever_the_work_tree_holds(tree: TreeSource) -> None:
    # A glob no file matches is tried on the checkout's folders: the commit's.
    assert tree.entries_in("") == ([".claude", "docs"], ["AGENTS.md", "CLAUDE.md", "big.md", "dangling.md", "outside.md"])
    assert tree.entries_in(".claude/memory") == ([], ["docs", "user_a.md"])  # a symlink is never a folder to enter
    assert tree.entries_in("docs") == ([], ["style.md"])
    assert tree.entries_in("nowhere") == ([], [])


def test_lists_what_the_commit_holds(tree: TreeSource) -> None:
    listing = tree.listing()
    assert listing.files == sorted(
        [
            ".claude/memory/docs",
            ".claude/memory/user_a.md",
            "AGENTS.md",
            "CLAUDE.md",
            "big.md",
            "dangling.md",
            "docs/style.md",
            "outside.md",
        ]
    )
    assert listing.by_git and listing.in_git and not listing.partial


def test_reads_the_commits_content(tree: TreeSource) -> None:
    assert tree.read("AGENTS.md").text == "# Agents\n"
    assert tree.read("docs/style.md").text == "Style.\n"
    assert tree.read("CLAUDE.md").text == "# Agents\n"  # a link inside the tree is followed
    assert tree.read(".claude/memory/docs/style.md").text == "Style.\n"  # through a linked folder
    assert tree.read("outside.md").error == OUTSIDE_LINK
    assert tree.read("untracked.md").error == "cannot be read: No such file or directory"
    big = tree.read("big.md")
    assert big.error == "is larger than 1024 KiB; not read" and big.size == (1 << 20) + 5


def test_answers_what_is_at_a_path(tree: TreeSource) -> None:
    assert tree.is_file("docs/style.md") and tree.is_file("CLAUDE.md") and tree.is_file(".claude/memory/docs/style.md")
    assert not tree.is_file("docs") and tree.exists("docs") and tree.exists(".claude/memory/docs")
    assert not tree.is_file("dangling.md") and not tree.exists("dangling.md")
    assert not tree.is_file("outside.md") and not tree.is_inside_root("outside.md") and not tree.is_inside_root("../x.md")
    assert tree.link_out("outside.md") == "/etc/hostname" and tree.link_out("CLAUDE.md") is None
    assert tree.regular_files_in("") == frozenset({"AGENTS.md", "big.md"})
    assert tree.git_symlinks(["CLAUDE.md", "AGENTS.md", "outside.md"]) == {"CLAUDE.md", "outside.md"}
    entry = tree.entry("CLAUDE.md")
    assert entry is not None and entry.kind == "link" and entry.real == tree.entry("AGENTS.md").real  # type: ignore[union-attr]
    assert tree.entry("outside.md").kind == "outside"  # type: ignore[union-attr]
    assert tree.entry("docs") is None and tree.special_kind("AGENTS.md") is None


def test_a_name_with_a_newline_is_read(repo: Path) -> None:
    write(repo, "odd\nname.md", "odd\n")
    sha = commit(repo, message="odd")
    source = TreeSource(repo, sha)
    try:
        assert source.read("odd\nname.md").text == "odd\n"
    finally:
        source.close()


def test_some_folders_only(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Agents\n")
    write(repo, ".claude/memory/user_a.md", memory("a", "About a", "user"))
    sha = commit(repo, message="tree")
    source = TreeSource(repo, sha, folders=[".claude/memory"])
    try:
        listing = source.listing()
        assert listing.files == [".claude/memory/user_a.md"] and listing.partial
    finally:
        source.close()
    assert git(repo, "status", "--porcelain") == ""


def test_a_commits_guidance_files_and_twins_are_its_checkouts(repo: Path) -> None:
    """A commit's tree gives no sizes (git is not asked them): its symlinks are told by
    their mode, and a small file whose text names another guidance file is its own
    file there, as in a checkout of the commit."""
    from memcheck.config import default_config
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.disk import DiskSource

    write(repo, "AGENTS.md", "# Agents\n")
    os.symlink("AGENTS.md", repo / "CLAUDE.md")
    write(repo, "sub/AGENTS.md", "# Sub\n")
    write(repo, "sub/CLAUDE.md", "AGENTS.md")  # names its sibling, as a link checked out as text would
    sha = commit(repo, message="tree")
    source = TreeSource(repo, sha)
    try:
        assert source.entry("AGENTS.md") == ("file", None, "AGENTS.md")
        at_commit = Workspace(default_config(repo), source)
        on_disk = Workspace(default_config(repo), DiskSource(repo))
        assert (at_commit.guidance, at_commit.twins) == (on_disk.guidance, on_disk.twins)
        assert at_commit.twins == {"CLAUDE.md": "AGENTS.md"}
    finally:
        source.close()


def test_a_large_store_reads_each_memory_as_the_commit_holds_it(repo: Path) -> None:
    # A store's memories are read from git in batches (more names than one write to
    # git holds, some memories too large to keep until asked, one git rejects): each
    # read, in any order and twice, still gives what the commit holds.
    import random

    sizes = {i: (100_000 if i % 37 == 0 else 40 + i) for i in range(300)}
    for i, size in sizes.items():
        write(repo, f".claude/memory/project_{i:03d}.md", memory(f"m{i}", f"memory {i}", "project", "x" * size + "\n"))
    sha = commit(repo, message="store")
    for i in sizes:
        write(repo, f".claude/memory/project_{i:03d}.md", "changed since\n")
    order = list(sizes) * 2
    random.Random(7).shuffle(order)
    source = TreeSource(repo, sha)
    try:
        for i in order:
            doc = source.read(f".claude/memory/project_{i:03d}.md")
            assert doc.error is None and doc.body.strip() == "x" * sizes[i] and f"name: m{i}\n" in doc.text, i
    finally:
        source.close()


def test_a_store_of_files_too_large_to_keep_is_listed_once_and_asks_git_for_each_twice_at_most(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Files read ahead are kept only when small: a folder of larger ones was listed
    # and asked of git again at each read (time quadratic in the folder's files).
    from memcheck import git
    from memcheck.workspace import tree

    for i in range(300):
        write(repo, f".claude/memory/project_{i:03d}.md", memory(f"m{i}", f"memory {i}", "project"))
    sha = commit(repo, message="store")
    monkeypatch.setattr(tree, "_KEPT_AHEAD", 0)  # as if every memory were too large to keep
    asked: list[str] = []
    read_batch = git.BlobReader._read_batch

    def counted(self: git.BlobReader, blobs: list[str], limit: int) -> list[tuple[bytes, int] | None]:
        asked.extend(blobs)
        return read_batch(self, blobs, limit)

    monkeypatch.setattr(git.BlobReader, "_read_batch", counted)
    source = TreeSource(repo, sha)
    listed: list[str] = []

    class Folders(dict[str, frozenset[str]]):
        def get(self, folder: str, default: object = None) -> object:  # type: ignore[override]
            listed.append(folder)
            return super().get(folder, default)

    vars(source)["_regular_by_folder"] = Folders(source._regular_by_folder)
    try:
        for i in range(300):
            assert f"name: m{i}\n" in source.read(f".claude/memory/project_{i:03d}.md").text
    finally:
        source.close()
    assert len(asked) <= 2 * 300
    assert listed == [".claude/memory"]  # the folder's files listed once, not at each read
