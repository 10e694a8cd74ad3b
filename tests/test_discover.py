"""Discovery sees the files git sees, finds stores, and never leaves the root."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import git, memory, run_cli, write

from memcheck import config
from memcheck.text.patterns import glob_matches_folder
from memcheck.workspace.discover import Workspace


def _stores(root: Path) -> list[tuple[str, tuple[str, ...], bool]]:
    ws = Workspace(config.load(root))
    return [(s.folder, s.files, s.has_index) for s in ws.stores]


def test_git_ignored_files_are_not_seen_but_untracked_ones_are(repo: Path) -> None:
    write(repo, ".gitignore", "ignored/\n")
    write(repo, "ignored/.memory/a.md", memory("A", "a", "user"))
    write(repo, ".memory/tracked.md", memory("T", "t", "user"))
    git(repo, "add", ".memory/tracked.md")
    write(repo, ".memory/untracked.md", memory("U", "u", "user"))
    assert _stores(repo) == [(".memory", (".memory/tracked.md", ".memory/untracked.md"), False)]


def test_outside_git_every_file_is_seen_except_dot_git(tmp_path: Path) -> None:
    write(tmp_path, "x/.claude/memory/a.md", memory("A", "a", "user"))
    write(tmp_path, ".git/.memory/b.md", memory("B", "b", "user"))  # not a real repository: git refuses it
    ws = Workspace(config.default_config(tmp_path))
    assert not ws.in_git
    assert [s.folder for s in ws.stores] == ["x/.claude/memory"]


def test_symlinks_out_of_the_root_are_never_followed(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text(memory("S", "outside", "user"))
    write(repo, ".memory/a.md", memory("A", "a", "user"))
    (repo / ".memory/linked.md").symlink_to(outside)
    assert _stores(repo) == [(".memory", (".memory/a.md",), False)]
    problems = json.loads(run_cli(repo, "check", "--format", "json").stdout)["problems"]
    assert "linked.md" not in json.dumps(problems)


def test_store_globs_match_at_any_depth_one_segment_per_star() -> None:
    assert glob_matches_folder(".claude/agent-memory/*", "apps/web/.claude/agent-memory/helper")
    assert not glob_matches_folder(".claude/agent-memory/*", ".claude/agent-memory")
    assert not glob_matches_folder(".claude/agent-memory/*", ".claude/agent-memory/a/b")
    assert glob_matches_folder(".memory", ".memory") and not glob_matches_folder(".memory", "x.memory")


def test_exclude_patterns(repo: Path) -> None:
    write(repo, ".memory/a.md", memory("A", "a", "user"))
    write(repo, "vendor/.memory/b.md", "no frontmatter")
    write(repo, ".memcheck.yaml", "exclude: ['vendor/']\n")
    assert [s[0] for s in _stores(repo)] == [".memory"]
