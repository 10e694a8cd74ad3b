"""The test harness's own shortcuts (tests/conftest.py) give what they stand for."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import conftest
import pytest
from conftest import commit, examples, git
from hypothesis import given, settings
from hypothesis import strategies as st


def _files(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file and folder under ``root`` (its content and mode) but the sample
    hooks, which git never runs."""
    found = {}
    for folder, dirs, names in os.walk(root):
        for name in [*dirs, *names]:
            path = Path(folder, name)
            if not name.endswith(".sample"):
                found[str(path.relative_to(root))] = (b"" if path.is_dir() else path.read_bytes(), path.stat().st_mode)
    return found


def test_the_repo_fixture_is_what_git_init_makes(repo: Path, tmp_path: Path, _new_repo: Path) -> None:
    made = tmp_path / "made"
    made.mkdir()
    subprocess.run(["git", "-c", "init.defaultBranch=main", "init", "-q"], cwd=made, check=True)
    assert _files(repo) == _files(made)
    assert subprocess.run(
        ["git", "rev-parse", "--show-toplevel"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip() == str(repo)
    # Each test has a copy of its own: what one writes never reaches the next one's.
    (repo / ".git" / "description").write_text("changed by a test\n")
    subprocess.run(["git", "commit", "-q", "--allow-empty", "-m", "x"], cwd=repo, check=True)
    assert _files(_new_repo) == _files(made)


@pytest.mark.parametrize(
    ("fast", "stated", "drawn"), [(False, 1500, 1500), (False, 25, 25), (True, 1500, 150), (True, 100, 20), (True, 10, 10)]
)
def test_a_property_draws_its_stated_budget_unless_slow_tests_are_left_out(
    monkeypatch: pytest.MonkeyPatch, fast: bool, stated: int, drawn: int
) -> None:
    monkeypatch.setattr(conftest, "_FAST_RUN", fast)
    assert examples(stated) == drawn


@pytest.mark.parametrize(("fast", "drawn"), [(False, 300), (True, 30)])
def test_a_property_test_draws_examples_of_the_budget_it_states(monkeypatch: pytest.MonkeyPatch, fast: bool, drawn: int) -> None:
    monkeypatch.setattr(conftest, "_FAST_RUN", fast)
    calls: list[int] = []

    @settings(max_examples=300, deadline=None, database=None)
    @given(st.integers())
    def prop(n: int) -> None:
        calls.append(n)

    item = cast(pytest.Item, SimpleNamespace(obj=prop))
    conftest._fast_budget(item)
    conftest._fast_budget(item)  # each parametrized case of one test: cut once, not again
    prop()
    assert len(calls) == drawn


def test_commit_answers_the_head_git_names(repo: Path) -> None:
    def rev_parse() -> str:
        return git(repo, "rev-parse", "HEAD").strip()

    first = commit(repo, {"a.txt": "a\n"}, "first")  # the branch's loose ref
    assert first == rev_parse()
    git(repo, "pack-refs", "--all")  # no loose ref left: git is asked
    assert not (repo / ".git/refs/heads/main").exists() and conftest._head(repo) == first
    git(repo, "checkout", "-q", "--detach")
    assert commit(repo, message="detached") == rev_parse() != first


def test_each_test_runs_with_an_empty_home_and_git_config_of_its_own(repo: Path) -> None:
    home = Path(os.environ["HOME"])
    assert [p.name for p in home.iterdir()] == [".gitconfig-empty"]
    assert Path(os.environ["GIT_CONFIG_GLOBAL"]) == home / ".gitconfig-empty"
    git(repo, "config", "--global", "user.name", "Written by this test")
    assert git(repo, "config", "--global", "--list") == "user.name=Written by this test\n"


def test_a_home_written_by_one_test_is_not_the_next_ones(repo: Path) -> None:
    # The test above wrote its global config; this one, in any order, starts empty.
    assert git(repo, "config", "--global", "--list") == ""
