"""The shortcuts taken for speed give what the long way gives (no timings here: see bench/)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from conftest import git, memory, run_cli, write
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck import config
from memcheck.engine.collect import collect
from memcheck.index.links import classify, is_plain_name
from memcheck.index.render import render
from memcheck.index.survey import listed_files
from memcheck.rules import FAMILY_MODULES
from memcheck.text.document import Document
from memcheck.workspace.discover import Workspace
from memcheck.workspace.selection import hook_folders, select_targets
from memcheck.workspace.targets import Targets


@settings(max_examples=500)
@given(st.text(alphabet="abZ09_-.é%#?/:~ ", min_size=1, max_size=10), st.sampled_from(["", "a", "x/.memory"]))
def test_plain_file_names_classify_as_the_general_path_does(target: str, folder: str) -> None:
    # "./name" takes the general path (unquote, normpath) to the same place as "name".
    if is_plain_name(target):
        assert classify(target, folder) == classify("./" + target, folder)


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


def _problems(root: Path, *paths: str, jobs: str = "1") -> list[str]:
    proc = run_cli(root, "check", *paths, env={"MEMCHECK_JOBS": jobs})
    assert proc.returncode in (0, 1) and proc.stderr == "", proc.stderr
    return proc.stdout.splitlines()[:-1]  # without the summary line


def test_a_hook_run_on_memory_files_lists_only_their_folders_and_finds_the_same(repo: Path) -> None:
    _tree(repo)
    write(repo, "pkg/notes/e.md", memory("E", "e", "infra"))  # untracked, and not in the index
    git(repo, "add", "pkg/notes/c.md", "pkg/notes/MEMORY.md")
    full = _problems(repo)
    for named in ("pkg/notes/c.md", "pkg/notes/e.md", ".memory/a.md"):
        store = named.rpartition("/")[0]
        assert hook_folders(config.load(repo), [str(repo / named)]) == [store]
        expected = [line for line in full if line.startswith(store + "/")]
        assert expected and _problems(repo, named) == expected, named
    # Anything that could be a guidance file or a skill, or is a folder, lists the tree.
    write(repo, ".claude/skills/deploy/SKILL.md", "---\nname: deploy\n---\n")
    for named in ("AGENTS.md", ".claude/skills/deploy/SKILL.md", "pkg", "pkg/notes/missing.md"):
        assert hook_folders(config.load(repo), [str(repo / named)]) is None, named


def test_stores_judged_while_checking_are_the_stores_judged_first(repo: Path) -> None:
    # A full check leaves folders that only a MEMORY.md makes stores for the checking
    # processes to judge; fix and the hook path judge them first. Same stores either way.
    _tree(repo)
    ws = Workspace(config.load(repo))
    unjudged = ws.stores_among(ws.folders_with_markdown, judge=False)
    assert {s.folder for s in unjudged if not s.judged} == {"pkg/notes", "docs"}
    assert [s.folder for s in unjudged if ws.is_store(s)] == [s.folder for s in ws.stores]
    assert "docs/MEMORY.md" not in "\n".join(_problems(repo, jobs="2"))
    assert _problems(repo, jobs="2") == _problems(repo, jobs="1")


# File names and texts that escaping, unquoting and link syntax treat specially.
_NAME_CHARS = "ab_-.é %#?()[]<>\\"
_TEXT_CHARS = "ab [](#)\\<>:-é"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            # Plain names and text half the time, so the short way is taken often.
            st.from_regex(r"[a-z0-9_-]{1,8}", fullmatch=True) | st.text(alphabet=_NAME_CHARS, min_size=1, max_size=8),
            st.from_regex(r"[a-z ]{0,12}", fullmatch=True) | st.text(alphabet=_TEXT_CHARS, max_size=12),
            st.from_regex(r"[a-z ]{0,12}", fullmatch=True) | st.text(alphabet=_TEXT_CHARS, max_size=12),
            st.sampled_from(["user", "project", "odd"]),
        ),
        min_size=1,
        max_size=5,
        unique_by=lambda m: m[0],
    ),
    st.sampled_from(["grouped", "flat", "flat-emdash"]),
)
@pytest.mark.slow  # a property test: seconds of examples
def test_an_index_that_is_its_own_render_leaves_nothing_for_the_link_rules(memories: list[tuple[str, str, str, str]], style: str) -> None:
    # The index check skips IDX002-IDX005 for an index that is exactly memcheck's render
    # of its memories; the long way must find nothing there either.
    import tempfile

    import yaml

    from memcheck.checks.index import check_store, links
    from memcheck.checks.index.state import IndexState
    from memcheck.index.plan import is_own_render
    from memcheck.index.store import store_memories, store_plan

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for stem, name, description, kind in memories:
            front = yaml.safe_dump({"name": name, "description": description, "type": kind}, allow_unicode=True)
            write(root, f".claude/memory/{stem}.md", f"---\n{front}---\n\nBody.\n")
        ws = Workspace(config.load(root))
        (store,) = ws.stores
        rendered = render(style, store_memories(ws, store), ws.config.memory.types)
        write(root, ".claude/memory/MEMORY.md", rendered)
        ws = Workspace(config.load(root))
        (store,) = ws.stores
        doc = ws.document(store.index)
        found = store_memories(ws, store)
        plan = store_plan(ws, store, doc.text, found)
        if is_own_render(plan, doc.text, found):
            assert list(links.check(ws, store, IndexState(ws, store, doc))) == []
            assert listed_files(doc.text, found) == {m.filename for m in found}
            assert [p for p in check_store(ws, store) if p.code != "IDX009"] == []


def test_an_index_written_by_fix_takes_the_short_way(repo: Path) -> None:
    from memcheck.index.plan import is_own_render
    from memcheck.index.store import store_memories, store_plan

    write(repo, ".claude/memory/a.md", memory("A", "first", "user"))
    write(repo, ".claude/memory/b_2.md", memory("B", "second", "project"))
    assert "Fixing .claude/memory/MEMORY.md" in run_cli(repo, "fix").stdout
    ws = Workspace(config.load(repo))
    (store,) = ws.stores
    doc = ws.document(store.index)
    found = store_memories(ws, store)
    assert is_own_render(store_plan(ws, store, doc.text, found), doc.text, found)
    assert run_cli(repo, "check").returncode == 0


@pytest.mark.slow  # takes seconds: a large tree, or every case of a table against the old code
def test_checking_leaves_no_cyclic_garbage(repo: Path) -> None:
    # Checks run with the cycle collector off (engine.collect.no_cycle_collection): whatever
    # they allocate must be freed by reference counting alone, or memory would grow
    # with the tree. Every rule family runs here, findings and secrets included.
    import gc

    _tree(repo)
    write(repo, "AGENTS.md", "# Guide\n\nSee @docs/more.md and @missing.md.\n")
    write(repo, "docs/more.md", "More, and back to @../AGENTS.md.\n")
    write(repo, ".claude/skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploy it\n---\n\nSteps.\n")
    write(repo, ".memory/key.md", memory("K", "k", "user", body="token ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5\n"))
    cfg = config.load(repo)
    gc.collect()
    ws = Workspace(cfg)
    found = collect(ws, Targets(list(ws.stores), list(ws.guidance), list(ws.skills)))
    assert {p.code[:3] for p in found} >= {"IDX", "GDN", "SEC"}
    del ws, found
    assert gc.collect() == 0


def test_the_secret_rules_split_a_file_into_lines_only_when_something_is_found() -> None:
    from memcheck.text import document, secrets

    plain = document.parse("m.md", b"---\nname: a\n---\n\nNo secret here: api token docs.\n")
    assert secrets.find(plain) == []
    assert "lines" not in plain.__dict__  # the cached property was never asked
    token = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"
    held = document.parse("m.md", f"---\nname: a\n---\n\nSee {token}\n".encode())
    assert [(s.line, s.col) for s in secrets.find(held)] == [(5, 5)]


_WORKED_OUT: list[str] = []


def _first_line(ws: Workspace, doc: Document) -> str:
    _WORKED_OUT.append(doc.path)
    return doc.text.split("\n")[0]


def test_what_is_worked_out_from_a_document_is_dropped_with_it_and_with_it_alone() -> None:
    from memcheck.workspace.memory import MemorySource

    settings = config.from_mapping(Path("/nonexistent/memcheck-in-memory"), config.defaults())
    source = MemorySource({"a.md": b"A\n", "b.md": b"B\n"})
    ws = Workspace(settings, source)
    _WORKED_OUT.clear()
    for _ in range(2):
        assert [ws.derived(ws.document(p), _first_line) for p in ("a.md", "b.md")] == ["A", "B"]
    assert _WORKED_OUT == ["a.md", "b.md"]  # once each
    ws.forget(["a.md"])
    assert [ws.derived(ws.document(p), _first_line) for p in ("a.md", "b.md")] == ["A", "B"]
    assert _WORKED_OUT == ["a.md", "b.md", "a.md"]  # a.md again, b.md kept
    # The next workspace (the language server's) keeps what the change left standing.
    after = Workspace(settings, source)
    after.reuse_documents(ws, ["b.md"])
    assert [after.derived(after.document(p), _first_line) for p in ("a.md", "b.md")] == ["A", "B"]
    assert _WORKED_OUT == ["a.md", "b.md", "a.md", "b.md"]
