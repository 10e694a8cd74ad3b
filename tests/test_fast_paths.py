"""The shortcuts taken for speed give what the long way gives (no timings here: see bench/)."""
from __future__ import annotations

import importlib
from pathlib import Path

from conftest import memory, write
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck import config
from memcheck import index as idx
from memcheck.discover import Workspace, select_targets
from memcheck.hooks.lint import Targets, collect
from memcheck.rules import FAMILY_MODULES


@settings(max_examples=500)
@given(st.text(alphabet="abZ09_-.é%#?/:~ ", min_size=1, max_size=10), st.sampled_from(["", "a", "x/.memory"]))
def test_plain_file_names_classify_as_the_general_path_does(target: str, folder: str) -> None:
    # "./name" takes the general path (unquote, normpath) to the same place as "name".
    if idx._PLAIN_NAME.match(target):
        assert idx.classify(target, folder) == idx.classify("./" + target, folder)


def _tree(root: Path) -> None:
    write(root, ".memory/a.md", memory("A", "a", "user"))
    write(root, ".memory/MEMORY.md", "# Memory\n\n## User\n- [A](a.md) - a\n- [Gone](gone.md) - x\n")
    write(root, "pkg/.claude/memory/b.md", memory("B", "b", "project"))
    write(root, "pkg/notes/MEMORY.md", "- [C](c.md) \u2014 c\n")
    write(root, "pkg/notes/c.md", memory("C", "c", "reference"))
    write(root, "pkg/notes/d.md", memory("D", "d", "reference", body=""))
    write(root, "docs/MEMORY.md", "plain notes\n")
    write(root, "docs/readme.md", "# Not a memory\n")
    write(root, "AGENTS.md", "# Guide\n")


def test_paths_judge_only_their_folders_yet_find_what_the_whole_tree_gives(repo: Path) -> None:
    _tree(repo)
    ws = Workspace(config.load(repo))
    cases = [".memory/a.md", ".memory/MEMORY.md", "pkg/notes/d.md", "pkg", "pkg/", "docs/readme.md", "AGENTS.md", ".", "pkg/notes"]
    for path in cases:
        stores, _, _ = select_targets(Workspace(config.load(repo)), [str(repo / path)])
        wanted = "" if path == "." else path.rstrip("/")
        expected = [s for s in ws.stores if _hit(wanted, s.index) or any(_hit(wanted, f) for f in s.files) or _hit(wanted, s.folder)]
        assert stores == expected, path


def _hit(wanted: str, path: str) -> bool:
    """The long way: ``path`` is ``wanted`` or lies below it."""
    return wanted == "" or path == wanted or path.startswith(wanted + "/")


def test_checking_store_by_store_finds_what_checking_all_at_once_finds(repo: Path) -> None:
    _tree(repo)
    cfg = config.load(repo)
    ws = Workspace(cfg)
    targets = Targets(list(ws.stores), list(ws.guidance), list(ws.skills))
    at_once = set()
    for name in FAMILY_MODULES:
        check = getattr(importlib.import_module(name), "check", None)  # guard's rules are not checked here
        if check is not None:
            at_once.update(check(Workspace(cfg), targets))
    assert at_once and collect(Workspace(cfg), targets) == sorted(at_once)


def test_symlinked_folders_inside_the_root_are_read_and_outside_it_are_not(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    write(outside, "x.md", memory("X", "x", "user"))
    write(repo, "real/.memory/a.md", memory("A", "a", "user"))
    (repo / "inside").symlink_to(repo / "real", target_is_directory=True)
    (repo / "real/.memory/out").symlink_to(outside, target_is_directory=True)
    ws = Workspace(config.load(repo))
    assert ws.is_file("inside/.memory/a.md") and ws.exists("inside/.memory")
    assert not ws.is_file("real/.memory/out/x.md") and not ws.exists("real/.memory/out")
    assert not ws.is_file("../elsewhere/x.md") and not ws.is_file("real/.memory/missing.md")
