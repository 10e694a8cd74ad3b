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
    # Reported as a link out (agents follow it), and nothing else: not read, not indexed.
    assert [(p["path"], p["code"]) for p in problems if "linked.md" in json.dumps(p)] == [(".memory/linked.md", "MEM022")]


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


_TREE = {
    ".claude/memory/MEMORY.md": "# Memory\n\n- [A](a.md) — a\n- [Gone](gone.md) — gone\n",
    ".claude/memory/a.md": memory("A", "a", "user", body="See [b](b.md).\n"),
    ".claude/memory/b.md": memory("B", "b", "project"),
    "AGENTS.md": "# Agents\n\n@docs/missing.md\n",
    "docs/notes.md": "# Notes\n",
    ".claude/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Ship it\n---\n\nSteps.\n",
    "broken.md": b"---\nname: \xff\n---\n",
}


def test_a_workspace_in_memory_finds_and_reports_what_the_same_files_on_disk_do(tmp_path: Path) -> None:
    from memcheck.engine.collect import collect
    from memcheck.engine.targets import targets_for
    from memcheck.workspace.memory import MemorySource

    disk = tmp_path / "disk"
    for path, text in _TREE.items():
        write(disk, path, text)
    files = {path: text if isinstance(text, bytes) else text.encode() for path, text in _TREE.items()}
    on_disk = Workspace(config.default_config(disk))
    in_memory = Workspace(config.default_config(tmp_path / "elsewhere"), MemorySource(files))
    assert not in_memory.in_git and in_memory.files == on_disk.files
    assert [(s.folder, s.files, s.has_index) for s in in_memory.stores] == [
        (".claude/memory", (".claude/memory/a.md", ".claude/memory/b.md"), True)
    ]
    assert in_memory.stores == on_disk.stores
    assert (
        (in_memory.guidance, in_memory.skills)
        == (on_disk.guidance, on_disk.skills)
        == (("AGENTS.md",), (".claude/skills/deploy/SKILL.md",))
    )
    assert in_memory.document("broken.md") == on_disk.document("broken.md")
    assert in_memory.document("nowhere.md").error == on_disk.document("nowhere.md").error == "cannot be read: No such file or directory"
    assert in_memory.exists(".claude") and in_memory.exists("docs/notes.md") and not in_memory.exists("docs/gone.md")
    assert in_memory.is_file("docs/../AGENTS.md") and not in_memory.is_file("docs") and not in_memory.is_inside_root("../AGENTS.md")

    def found(ws: Workspace) -> list[tuple[str, int, str]]:
        return [(p.path, p.line, p.code) for p in collect(ws, targets_for(ws, None))]

    assert found(in_memory) == found(on_disk) != []
