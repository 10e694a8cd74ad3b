"""fix fixes only what is reported, as ruff's fixes do: suppression comments,
select/ignore and per-path-ignores limit what it changes in an index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import invoke, memory, run_cli, write

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"
LISTED = "# Memory\n\n## Project\n- [alpha](alpha.md) - about alpha\n"


def _store(repo: Path, index: str = LISTED) -> None:
    write(repo, f"{STORE}/alpha.md", memory("alpha", "about alpha", "project"))
    write(repo, INDEX, index)


def _check_codes(repo: Path) -> list[str]:
    proc = run_cli(repo, "check", "--format", "json")
    assert proc.returncode in (0, 1), proc.stderr
    return [p["code"] for p in json.loads(proc.stdout)["problems"]]


@pytest.mark.parametrize("no_index", (False, True), ids=("index", "no-index"))
def test_a_memory_suppressing_idx003_is_not_added(repo: Path, no_index: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    _store(repo)
    if no_index:
        (repo / INDEX).unlink()
    write(repo, f"{STORE}/private.md", memory("private", "keep out", "project", extra="# memcheck-disable-file IDX003\n"))
    diff = run_cli(repo, "fix", "--diff")
    assert "private" not in diff.stdout
    result = invoke(repo, "fix", monkeypatch=monkeypatch)
    assert result.exit_code == 0, result.output
    assert "private" not in (repo / INDEX).read_text(encoding="utf-8")
    assert "alpha.md" in (repo / INDEX).read_text(encoding="utf-8")
    assert _check_codes(repo) == []  # the comment still suppresses something: no MCK001


def test_an_entry_suppressing_idx002_is_kept(repo: Path) -> None:
    kept = "<!-- memcheck-disable-next-line IDX002 -->\n- [gone](gone.md) - archived elsewhere\n"
    _store(repo, LISTED + kept + "- [dead](dead.md) - removed\n")
    proc = run_cli(repo, "fix")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (repo / INDEX).read_text(encoding="utf-8") == LISTED + kept
    assert _check_codes(repo) == []


@pytest.mark.parametrize(
    "how",
    (
        pytest.param(("--select", "MEM007"), id="select-other"),
        pytest.param(("--ignore", "IDX"), id="ignore-prefix"),
        pytest.param(("--ignore", "IDX003"), id="ignore-code"),
        pytest.param((), id="config-ignore"),
    ),
)
def test_fix_adds_nothing_with_idx003_off(repo: Path, how: tuple[str, ...]) -> None:
    _store(repo)
    write(repo, f"{STORE}/beta.md", memory("beta", "about beta", "project"))
    if not how:
        write(repo, ".memcheck.yaml", "ignore: [IDX003]\n")
    assert run_cli(repo, "fix", "--diff", *how).stdout == ""
    proc = run_cli(repo, "fix", *how)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (repo / INDEX).read_text(encoding="utf-8") == LISTED


def test_fix_removes_nothing_with_idx002_off(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _store(repo, LISTED + "- [dead](dead.md) - removed\n")
    write(repo, f"{STORE}/beta.md", memory("beta", "about beta", "project"))
    result = invoke(repo, "fix", "--ignore", "IDX002", monkeypatch=monkeypatch)
    assert result.exit_code == 0, result.output
    text = (repo / INDEX).read_text(encoding="utf-8")
    assert "- [dead](dead.md) - removed" in text and "- [beta](beta.md) - about beta" in text
