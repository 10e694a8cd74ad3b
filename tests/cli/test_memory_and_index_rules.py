"""MEM and IDX findings on planted defects, through the real CLI (SPEC §3, §4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import git, invoke, memory, run_cli, write
from hypothesis import given
from hypothesis import strategies as st

from memcheck.agents import links


def _problems(root: Path, *args: str) -> list[dict[str, object]]:
    proc = run_cli(root, "check", "--format", "json", *args)
    assert proc.returncode in (0, 1), proc.stderr
    assert proc.stderr == ""
    return json.loads(proc.stdout)["problems"]  # type: ignore[no-any-return]


def _codes_by_path(problems: list[dict[str, object]]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for p in problems:
        found.setdefault(str(p["path"]), set()).add(str(p["code"]))
    return found


@pytest.fixture
def planted(repo: Path) -> Path:
    """A repository with one defect of each kind in `.claude/memory` and a clean `.memory`."""
    bad = ".claude/memory"
    write(repo, f"{bad}/ok.md", memory("Fine", "A fine memory", "user"))
    write(repo, f"{bad}/bad_type.md", memory("Bad type", "Type outside the taxonomy", "decision"))
    write(repo, f"{bad}/no_frontmatter.md", "# Just a heading\n\nText.\n")
    write(repo, f"{bad}/no_name.md", "---\ndescription: Has no name\ntype: project\n---\n\nBody.\n")
    write(repo, f"{bad}/dup_key.md", "---\nname: Dup\ndescription: Duplicate key\ntype: user\ntype: feedback\n---\n\nBody.\n")
    write(repo, f"{bad}/unlisted.md", memory("Unlisted", "Nobody lists me", "reference"))
    write(
        repo,
        f"{bad}/MEMORY.md",
        "# Memory index\n\n"
        "- [Fine](ok.md) \u2014 A fine memory\n"
        "- [Bad type](bad_type.md) \u2014 Type outside the taxonomy\n"
        "- [no_frontmatter](no_frontmatter.md) \u2014 heading only\n"
        "- [no_name](no_name.md) \u2014 Has no name\n"
        "- [Dup](dup_key.md) \u2014 Duplicate key\n"
        "- [Gone](deleted_memory.md) \u2014 this file was deleted\n",
    )
    write(repo, ".memory/a.md", memory("Alpha", "First clean memory", "user"))
    write(repo, ".memory/b.md", memory("Beta", "Second clean memory", "project"))
    write(
        repo,
        ".memory/MEMORY.md",
        "# Memory\n\n## User\n- [Alpha](a.md) - First clean memory\n\n## Project\n- [Beta](b.md) - Second clean memory\n",
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "planted")
    return repo


def test_each_planted_defect_is_reported_on_the_right_file(planted: Path) -> None:
    problems = _problems(planted)
    by_path = _codes_by_path(problems)
    m = ".claude/memory"
    assert "MEM007" in by_path[f"{m}/bad_type.md"]
    assert "MEM002" in by_path[f"{m}/no_frontmatter.md"]
    assert "MEM006" in by_path[f"{m}/no_name.md"]
    assert "MEM005" in by_path[f"{m}/dup_key.md"]
    index_problems = [p for p in problems if p["path"] == f"{m}/MEMORY.md"]
    assert {(p["code"], "unlisted.md" in str(p["message"])) for p in index_problems} >= {("IDX003", True)}
    assert any(p["code"] == "IDX002" and "deleted_memory.md" in str(p["message"]) and p["line"] == 8 for p in index_problems)
    # the clean store and the clean memory file get nothing
    assert not [p for p in problems if str(p["path"]).startswith(".memory/")]
    assert f"{m}/ok.md" not in by_path
    assert f"{m}/unlisted.md" not in by_path  # its problem is the index's, reported there


def test_fix_leaves_no_fixable_index_finding_and_a_second_fix_changes_nothing(planted: Path) -> None:
    first = run_cli(planted, "fix", "--format", "json")
    assert first.returncode == 1  # unfixable memory-file findings remain
    report = json.loads(first.stdout)
    assert report["fixed"] == [".claude/memory/MEMORY.md"]
    assert not [p for p in report["problems"] if p["code"].startswith("IDX") and p["fixable"]]
    index = (planted / ".claude/memory/MEMORY.md").read_bytes()
    assert b"deleted_memory.md" not in index
    assert b"- [Unlisted](unlisted.md) \xe2\x80\x94 Nobody lists me\n" in index  # appended in the index's style
    assert index.startswith(b"# Memory index\n\n- [Fine](ok.md)")  # curated text kept (sync mode)
    snapshot = {p: p.read_bytes() for p in planted.rglob("*.md")}
    second = run_cli(planted, "fix", "--format", "json")
    assert json.loads(second.stdout)["fixed"] == []
    assert {p: p.read_bytes() for p in planted.rglob("*.md")} == snapshot


def test_clean_repository_exits_zero_with_summary(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, ".memory/a.md", memory("Alpha", "First", "user"))
    write(repo, ".memory/MEMORY.md", "# Memory\n\n## User\n- [Alpha](a.md) - First\n")
    result = invoke(repo, "check", monkeypatch=monkeypatch)
    assert result.exit_code == 0
    assert result.output == "No problems found in 1 store (1 memory).\n"


def test_metadata_type_counts_and_fallback_frontmatter_still_builds_the_index(repo: Path) -> None:
    write(repo, ".memory/a.md", "---\nname: Alpha\ndescription: Deploy: Railway\nmetadata:\n  type: project\n---\nBody\n")
    fixed = run_cli(repo, "fix")
    assert fixed.returncode == 1  # MEM004 is left for the user
    assert (repo / ".memory/MEMORY.md").read_text() == "# Memory\n\n## Project\n- [Alpha](a.md) - Deploy: Railway\n"
    codes = {p["code"] for p in _problems(repo)}
    assert codes == {"MEM004"}


def test_duplicate_names_non_slug_and_stale(repo: Path) -> None:
    write(repo, ".memory/a.md", memory("Same", "one", "user", extra="updated: 2020-01-01\n"))
    write(repo, ".memory/b.md", memory("Same", "two", "user"))
    write(repo, ".memory/Bad Name.md", memory("Other", "three", "user"))
    run_cli(repo, "fix")
    by_path = _codes_by_path(_problems(repo))
    assert by_path == {".memory/b.md": {"MEM011"}, ".memory/Bad Name.md": {"MEM012"}}
    write(repo, ".memcheck.yaml", "memory:\n  stale-after-days: 30\n")
    assert "MEM016" in _codes_by_path(_problems(repo))[".memory/a.md"]


def test_generate_mode_reports_a_drifted_index(repo: Path) -> None:
    # With index.mode unset, an entry whose description is not its memory's is a
    # curator's hook, kept (sync); generate mode, asked for, reports and replaces it.
    write(repo, ".memcheck.yaml", "index:\n  mode: generate\n")
    write(repo, ".memory/a.md", memory("Alpha", "new description", "user"))
    write(repo, ".memory/MEMORY.md", "# Memory\n\n## User\n- [Alpha](a.md) - old description\n")
    (problem,) = _problems(repo)
    assert (problem["code"], problem["line"], problem["fixable"]) == ("IDX006", 4, True)
    proc = run_cli(repo, "fix")
    assert proc.returncode == 0 and proc.stdout.startswith(".memory/MEMORY.md".join(["Fixing ", ": rewrote 1 (a.md)\n"]))
    assert _problems(repo) == []


def test_paths_bring_in_the_whole_store(repo: Path) -> None:
    write(repo, ".memory/a.md", memory("A", "a", "user"))
    write(repo, ".memory/b.md", memory("B", "b", "nope"))
    write(repo, ".memory/MEMORY.md", "- [A](a.md) \u2014 a\n")
    write(repo, ".claude/memory/c.md", "no frontmatter\n")
    problems = _problems(repo, ".memory/a.md")
    assert {(p["path"], p["code"]) for p in problems} == {(".memory/b.md", "MEM007"), (".memory/MEMORY.md", "IDX003")}
    write(repo, "README.md", "project\n")
    assert _problems(repo, "README.md") == []


def test_select_ignore_and_per_path_ignores(repo: Path) -> None:
    write(repo, ".memory/a.md", "no frontmatter\n")
    write(repo, ".memory/Bad name.md", memory("B", "b", "user"))
    write(repo, ".memory/MEMORY.md", "- [B](Bad%20name.md) \u2014 b\n- [a](a.md)\n")  # the exact render
    assert {p["code"] for p in _problems(repo)} == {"MEM002", "MEM012"}
    write(repo, ".memcheck.yaml", "ignore: [MEM012]\n")
    assert {p["code"] for p in _problems(repo)} == {"MEM002"}
    write(repo, ".memcheck.yaml", "select: [MEM01]\n")
    assert {p["code"] for p in _problems(repo)} == {"MEM012"}
    write(repo, ".memcheck.yaml", "per-path-ignores:\n  '.memory/a.md': [MEM]\n")
    assert {p["code"] for p in _problems(repo)} == {"MEM012"}


def test_symlinked_index_is_never_written_through(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("- stale\n")
    write(repo, ".memory/a.md", memory("A", "a", "user"))
    (repo / ".memory/MEMORY.md").symlink_to(outside)
    proc = run_cli(repo, "fix")
    assert outside.read_text() == "- stale\n"
    assert (
        f".memory/MEMORY.md:1:1: IDX014 MEMORY.md is a symlink to {outside}, outside the repository: agents load the index at the start of every session, so they read that file; memcheck does not follow it"
        in proc.stdout
    )
    assert proc.returncode == 1


def _nearest_by_walk(key: str, stems: dict[str, str]) -> str | None:
    """The old way: every stem of the store tried against every broken link."""

    def norm(text: str) -> str:
        return text.replace("-", "").replace("_", "").replace(" ", "")

    return next((path.rpartition("/")[2][:-3] for stem, path in stems.items() if norm(stem) == norm(key)), None)


@given(st.lists(st.text("ab-_ ", min_size=1, max_size=5), max_size=8, unique=True), st.text("ab-_ ", max_size=6))
def test_the_nearest_memory_is_the_one_the_walk_over_the_store_found(stems: list[str], key: str) -> None:
    by_stem = {stem: f".claude/memory/{stem.upper()}.md" for stem in stems}
    assert links.nearest_stems(by_stem).get(links.loose(key)) == _nearest_by_walk(key, by_stem)


def test_a_type_the_instructions_list_is_judged_alike_by_every_way_of_running(repo: Path) -> None:
    """MEM007 leaves a type CLAUDE.md's memory template lists: the commit hook (which
    checks the staged memory alone) and a check of one named file say what the whole
    tree's check says (an outside attack found both reporting it)."""
    store = ".claude/memory"
    write(repo, "CLAUDE.md", "# Project\n\n```yaml\ntype: {user, feedback, project, decision, reference}\n```\n")
    write(repo, f"{store}/user_a.md", memory("a", "a note", "user"))
    write(repo, f"{store}/MEMORY.md", "# Memory\n\n- [a](user_a.md) - a note\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    write(repo, f"{store}/why_queue.md", memory("why queue", "why we queue", "decision"))
    write(repo, f"{store}/MEMORY.md", "# Memory\n\n- [a](user_a.md) - a note\n- [why queue](why_queue.md) - why we queue\n")
    git(repo, "add", "-A")
    for args in ((), ("--changed",), (f"{store}/why_queue.md",)):
        assert [p["code"] for p in _problems(repo, *args)] == [], args
    write(repo, f"{store}/why_queue.md", memory("why queue", "why we queue", "decison"))
    git(repo, "add", "-A")
    for args in ((), ("--changed",), (f"{store}/why_queue.md",)):
        assert [p["code"] for p in _problems(repo, *args)] == ["MEM007"], args
