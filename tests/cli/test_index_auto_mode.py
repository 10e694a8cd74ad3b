"""Which mode `fix` and `check` pick for an index when the config does not say, through
the real CLI: a hand-written list in its own order is curated (sync), an index that
differs from the render only by blank lines is the render (markdownlint adds and
removes them), and an index that sits one folder up or down from its store is moved,
not doubled.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest
from conftest import check_json, git, index_findings, memory, run_cli, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memcheck import config as config_mod
from memcheck.engine.collect import collect
from memcheck.engine.targets import targets_for
from memcheck.hooks import fix as fixer
from memcheck.index.render import FLAT, FLAT_EMDASH, GROUPED
from memcheck.workspace.discover import Workspace

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"


def _store(repo: Path, kinds: dict[str, str] | None = None) -> None:
    """Memories a, b and c (types from ``kinds``, user by default)."""
    for stem in "abc":
        write(repo, f"{STORE}/{stem}.md", memory(stem.upper(), f"about {stem}", (kinds or {}).get(stem, "user")))


def _idx(repo: Path) -> list[dict[str, Any]]:
    return [p for p in check_json(repo) if str(p["code"]).startswith("IDX")]


def _explained(repo: Path, store: str = STORE) -> str:
    proc = run_cli(repo, "index", store, "--explain")
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _fix_is_a_no_op(repo: Path, index: str = INDEX) -> None:
    before = (repo / index).read_bytes()
    proc = run_cli(repo, "fix")
    assert "Fixing" not in proc.stdout, proc.stdout
    assert (repo / index).read_bytes() == before


# ---------------------------------------------------------------- item 7: a hand-written order is curated


@pytest.mark.parametrize(
    ("index", "kinds", "fact"),
    [
        pytest.param(
            "- [C](c.md) \u2014 about c\n- [A](a.md) \u2014 about a\n- [B](b.md) \u2014 about b\n",
            None,
            "entries are not in file-name order (line 2: c.md before a.md)",
            id="flat-emdash",
        ),
        pytest.param(
            "- [A](a.md) - about a\n- [C](c.md) - about c\n- [B](b.md) - about b\n",
            None,
            "entries are not in file-name order (line 3: c.md before b.md)",
            id="flat",
        ),
        pytest.param(
            "# Memory\n\n## User\n- [B](b.md) - about b\n- [A](a.md) - about a\n- [C](c.md) - about c\n",
            None,
            "entries are not in file-name order (line 5: b.md before a.md)",
            id="grouped-entries",
        ),
        pytest.param(
            "# Memory\n\n## Project\n- [C](c.md) - about c\n\n## User\n- [A](a.md) - about a\n- [B](b.md) - about b\n",
            {"c": "project"},
            "sections are not in type order (line 6: ## Project before ## User)",
            id="grouped-sections",
        ),
    ],
)
def test_a_complete_list_in_its_own_order_is_curated_and_correct(repo: Path, index: str, kinds: dict[str, str] | None, fact: str) -> None:
    _store(repo, kinds)
    write(repo, INDEX, index)
    assert _idx(repo) == []
    explained = _explained(repo)
    assert f"mode sync (automatic): {fact}" in explained
    assert f"{INDEX}: already up to date\n" in explained
    _fix_is_a_no_op(repo)


def test_a_list_in_its_own_order_missing_a_memory_gets_it_added_and_keeps_its_order(repo: Path) -> None:
    _store(repo)
    write(repo, INDEX, "- [C](c.md) \u2014 about c\n- [A](a.md) \u2014 about a\n")
    assert [p["code"] for p in _idx(repo)] == ["IDX003"]
    run_cli(repo, "fix")
    assert (repo / INDEX).read_text() == "- [C](c.md) \u2014 about c\n- [A](a.md) \u2014 about a\n- [B](b.md) \u2014 about b\n"
    assert _idx(repo) == []


def test_an_index_in_render_order_whose_memory_changed_type_is_still_regenerated(repo: Path) -> None:
    # It reads as a renderer wrote it; only the content moved on (c is a project
    # memory now): regenerating loses nothing, and the index is reported until it does.
    _store(repo, {"c": "project"})
    write(repo, INDEX, "# Memory\n\n## User\n- [A](a.md) - about a\n- [B](b.md) - about b\n- [C](c.md) - about c\n")
    (found,) = _idx(repo)
    assert (found["code"], found["line"], found["fixable"]) == ("IDX006", 6, True)
    assert "mode generate (automatic)" in _explained(repo)
    run_cli(repo, "fix")
    assert (
        repo / INDEX
    ).read_text() == "# Memory\n\n## User\n- [A](a.md) - about a\n- [B](b.md) - about b\n\n## Project\n- [C](c.md) - about c\n"
    assert _idx(repo) == []


def test_generate_mode_asked_for_still_reports_a_list_in_its_own_order(repo: Path) -> None:
    write(repo, ".memcheck.yaml", "index:\n  mode: generate\n")
    _store(repo)
    write(repo, INDEX, "- [C](c.md) \u2014 about c\n- [A](a.md) \u2014 about a\n- [B](b.md) \u2014 about b\n")
    (found,) = _idx(repo)
    assert (found["code"], found["line"]) == ("IDX006", 1)
    assert "mode generate (from index.mode in the config)" in _explained(repo)


@pytest.mark.parametrize(
    ("index", "fact"),
    [
        pytest.param("# Notes\n\n- [A](a.md) \u2014 about a\n", "line 1 (# Notes) is not a flat-emdash entry", id="title"),
        pytest.param(
            "- [A](a.md) \u2014 about a\n- see [B](b.md)\n", "line 2 (- see [B](b.md)) is not a flat-emdash entry", id="prose-entry"
        ),
        pytest.param(
            "# Memory\n\n## Topics\n- [A](a.md) - about a\n", "line 3 (## Topics) is not a grouped heading or entry", id="own-heading"
        ),
        pytest.param(
            "- [A](a.md) \u2014 about a\n- [B](b.md) - about b\n- [C](c.md) \u2014 about c\n",
            "line 2 (- [B](b.md) - about b) is not a flat-emdash entry",
            id="mixed-dashes",
        ),
    ],
)
def test_explain_names_the_line_that_makes_an_index_curated(repo: Path, index: str, fact: str) -> None:
    _store(repo)
    write(repo, INDEX, index)
    assert f"mode sync (automatic): {fact}" in _explained(repo)


# ---------------------------------------------------------------- item 8: blank lines are a formatter's


GROUPED_RENDER = "# Memory\n\n## User\n- [A](a.md) - about a\n- [B](b.md) - about b\n\n## Project\n- [C](c.md) - about c\n"


@pytest.mark.parametrize(
    "index",
    [
        # what markdownlint (MD022, MD032) wants: blank lines around headings and lists
        pytest.param(
            "# Memory\n\n## User\n\n- [A](a.md) - about a\n- [B](b.md) - about b\n\n## Project\n\n- [C](c.md) - about c\n",
            id="grouped-spaced",
        ),
        pytest.param(
            "# Memory\n## User\n- [A](a.md) - about a\n- [B](b.md) - about b\n## Project\n- [C](c.md) - about c\n", id="grouped-tight"
        ),
        pytest.param(
            "\n# Memory\n\n\n## User\n- [A](a.md) - about a\n\n- [B](b.md) - about b\n\n## Project\n- [C](c.md) - about c\n\n",
            id="grouped-loose",
        ),
    ],
)
def test_a_render_with_other_blank_lines_is_accepted_and_kept(repo: Path, index: str) -> None:
    _store(repo, {"c": "project"})
    write(repo, INDEX, index)
    assert _idx(repo) == []
    assert "mode generate (automatic)" in _explained(repo)
    _fix_is_a_no_op(repo)


def test_a_flat_render_with_blank_lines_between_entries_is_kept(repo: Path) -> None:
    _store(repo)
    write(repo, INDEX, "- [A](a.md) \u2014 about a\n\n- [B](b.md) \u2014 about b\n\n- [C](c.md) \u2014 about c\n")
    assert _idx(repo) == []
    _fix_is_a_no_op(repo)


def test_blank_lines_aside_a_stale_index_is_still_regenerated_in_the_render_s_own_spacing(repo: Path) -> None:
    _store(repo, {"c": "project"})
    write(repo, INDEX, "# Memory\n\n## User\n\n- [A](a.md) - about a\n- [B](b.md) - old\n")
    write(repo, ".memcheck.yaml", "index:\n  mode: generate\n")
    assert [p["code"] for p in _idx(repo)] == ["IDX003"]  # c is unlisted; fix regenerates
    run_cli(repo, "fix")
    assert (repo / INDEX).read_text() == GROUPED_RENDER


def test_blank_lines_inside_a_marker_block_are_kept(repo: Path) -> None:
    _store(repo)
    index = "# Team\n<!-- memcheck:start -->\n\n- [A](a.md) \u2014 about a\n\n- [B](b.md) \u2014 about b\n- [C](c.md) \u2014 about c\n\n<!-- memcheck:end -->\n"
    write(repo, ".memcheck.yaml", "index:\n  style: flat-emdash\n")
    write(repo, INDEX, index)
    assert _idx(repo) == []
    _fix_is_a_no_op(repo)


_stem = st.text(alphabet="abcdefghij0123456789_-", min_size=1, max_size=8).filter(lambda s: s[0].isalnum())
_desc = st.text(alphabet="abcdef xyz.,", max_size=12).map(str.strip)
_memories = st.lists(
    st.tuples(_stem, _desc, st.sampled_from(["user", "feedback", "project", "reference"])), min_size=1, max_size=8, unique_by=lambda m: m[0]
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_memories, st.sampled_from([FLAT, FLAT_EMDASH, GROUPED]), st.lists(st.integers(0, 3), min_size=1, max_size=40), st.booleans())
def test_any_blank_lines_around_the_render_s_lines_are_accepted_and_fix_keeps_them(
    stored: list[tuple[str, str, str]], style: str, blanks: list[int], mode_set: bool
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        git(root, "-c", "init.defaultBranch=main", "init", "-q")
        for stem, desc, kind in stored:
            write(root, f"{STORE}/{stem}.md", memory(stem, desc or "d", kind))
        values = {
            **config_mod.defaults(),
            "index": {**config_mod.defaults()["index"], "style": style, **({"mode": "generate"} if mode_set else {})},
        }
        ws = Workspace(config_mod.from_mapping(root, values))
        (store,) = ws.stores
        rendered = fixer.planned(ws, store)
        assert rendered is not None
        # Each line of the render gets 0-3 blank lines before it (0 drops those it had).
        lines = [ln for ln in rendered.text.decode().split("\n")[:-1] if ln]
        text = "".join("\n" * blanks[i % len(blanks)] + line + "\n" for i, line in enumerate(lines)) + "\n" * blanks[-1]
        write(root, INDEX, text)
        ws = Workspace(config_mod.from_mapping(root, values))
        (store,) = ws.stores
        assert [p.code for p in collect(ws, targets_for(ws, None)) if p.code.startswith("IDX")] == []
        assert fixer.planned(ws, store) is None


# ---------------------------------------------------------------- item 9: the index one folder up or down


MEMORIES_LISTED = "# Memory\n\n- [A](a.md) \u2014 about a\n- [B](b.md) \u2014 about b\n- [C](c.md) \u2014 about c\n"


@pytest.mark.parametrize("elsewhere", [".claude/MEMORY.md", f"{STORE}/notes/MEMORY.md"], ids=["one-up", "one-down"])
def test_an_index_one_folder_away_is_to_be_moved_not_doubled(repo: Path, elsewhere: str) -> None:
    _store(repo)
    write(repo, elsewhere, MEMORIES_LISTED)
    git(repo, "add", "-A")
    (found,) = _idx(repo)
    assert (found["code"], found["path"], found["fixable"]) == ("IDX001", INDEX, False)
    assert f"{elsewhere} lists its memories" in found["message"]
    assert f"`git mv {elsewhere} {INDEX}`" in found["message"]
    assert "`memcheck fix` writes no second one" in found["message"] and "then make its links" not in found["message"]
    proc = run_cli(repo, "fix")
    assert (proc.returncode, proc.stderr) == (1, "")
    assert not (repo / INDEX).exists()
    assert f"{INDEX}:1:1: IDX001 {found['message']}\n" in proc.stdout  # fix says it left the store without one, and why
    assert (repo / elsewhere).read_text() == MEMORIES_LISTED
    diff = run_cli(repo, "fix", "--diff")
    assert diff.returncode == 0 and diff.stdout == ""
    assert f"{INDEX}: {elsewhere} lists its memories" in _explained(repo)
    git(repo, "mv", elsewhere, INDEX)
    assert _idx(repo) == []


@pytest.mark.parametrize(
    "other",
    [
        pytest.param("# Notes\n\n- [A](memory/a.md) \u2014 about a\n", id="names-one-of-three"),
        pytest.param("# Project\n\nSee README.md and docs/a.md.x for more.\n", id="names-none"),
    ],
)
def test_an_index_one_folder_up_that_names_few_of_the_memories_is_another_file(repo: Path, other: str) -> None:
    _store(repo)
    write(repo, ".claude/MEMORY.md", other)
    git(repo, "add", "-A")
    (found,) = _idx(repo)
    assert (found["code"], found["fixable"]) == ("IDX001", True)
    assert "git mv" not in found["message"]
    run_cli(repo, "fix")
    assert (repo / INDEX).is_file()


def test_a_store_s_own_index_one_folder_down_is_not_taken_for_this_store_s(repo: Path) -> None:
    # .claude/memory/team/ is a store of its own (named in the config), whose index
    # happens to name files called as this store's are.
    write(repo, ".memcheck.yaml", "memory:\n  stores: [.claude/memory, .claude/memory/team]\n")
    _store(repo)
    for stem in "abc":
        write(repo, f"{STORE}/team/{stem}.md", memory(stem, f"team {stem}", "project"))
    write(repo, f"{STORE}/team/MEMORY.md", "- [a](a.md) \u2014 team a\n- [b](b.md) \u2014 team b\n- [c](c.md) \u2014 team c\n")
    git(repo, "add", "-A")
    found = index_findings(repo, INDEX)
    assert [(p["code"], p["fixable"]) for p in found] == [("IDX001", True)]
    run_cli(repo, "fix")
    assert (repo / INDEX).is_file()


def test_an_index_above_many_stores_is_read_once(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Claude Code's subagent stores share one parent folder: its MEMORY.md is read for
    # names once, not once per store (linear in the tree, not stores times its size).
    from memcheck.index import store as store_mod

    entries = "".join(f"- [{i}](agent{i}/m{i}.md)\n" for i in range(40))
    write(repo, ".claude/agent-memory/MEMORY.md", f"# Agents\n\n{entries}")
    for i in range(40):
        write(repo, f".claude/agent-memory/agent{i}/m{i}.md", memory(f"m{i}", "d", "user"))
    git(repo, "add", "-A")
    counting = _Counting(store_mod._WORD)
    monkeypatch.setattr(store_mod, "_WORD", counting)
    ws = Workspace(config_mod.default_config(repo))
    missing = [p for p in collect(ws, targets_for(ws, None)) if p.code == "IDX001"]
    # It lists every agent's memories: the index of all of them, moved into none.
    assert len(missing) == 40 and not [p for p in missing if "git mv" in p.message]
    assert counting.read == 1


class _Counting:
    """A compiled pattern that counts the texts it is run over."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.read = pattern, 0

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        self.read += 1
        return self.pattern.finditer(text)


def test_an_index_above_two_stores_is_moved_into_neither(repo: Path) -> None:
    # It is the index of both: a `git mv` into either would leave the other without
    # one, and two findings would each advise a different move of the same file.
    for agent in ("x", "y"):
        write(repo, f".claude/agent-memory/{agent}/a{agent}.md", memory(f"a{agent}", "A", "user"))
        write(repo, f".claude/agent-memory/{agent}/b{agent}.md", memory(f"b{agent}", "B", "project"))
    write(repo, ".claude/agent-memory/MEMORY.md", "".join(f"- [{n}{a}]({a}/{n}{a}.md) - {n}\n" for a in "xy" for n in "ab"))
    git(repo, "add", "-A")
    found = [p for p in check_json(repo) if p["code"] == "IDX001"]
    assert sorted(p["path"] for p in found) == [".claude/agent-memory/x/MEMORY.md", ".claude/agent-memory/y/MEMORY.md"]
    assert not [p for p in found if "git mv" in p["message"]]
    assert all(p["fixable"] for p in found)
