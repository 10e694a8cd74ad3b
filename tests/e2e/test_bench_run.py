"""bench/run.py's building blocks on tiny trees: the trees, the hook commands, the
pre-commit configs, the groups and their tables, and --against's build (no timing is
judged here: the figures come out of bench/run.py, never out of a test)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT

BENCH = REPO_ROOT / "bench"
sys.path.insert(0, str(BENCH))
import against  # noqa: E402  (a script folder, not a package)
import commit_trees  # noqa: E402
import compare  # noqa: E402
import run  # noqa: E402
import timing  # noqa: E402

pytestmark = pytest.mark.e2e
MEMCHECK = [sys.executable, "-m", "memcheck"]


def test_hook_commands_are_the_published_hooks() -> None:
    assert compare.hook_commands() == [
        ("memcheck", ["check", "--changed"]),
        ("memcheck-fix", ["fix", "--changed", "--exit-non-zero-on-fix"]),
        ("memcheck-guard", ["guard"]),
    ]


def test_store_repo_stages_one_edited_memory_and_restore_puts_back_what_a_hook_wrote(tmp_path: Path) -> None:
    root = commit_trees.store_repo(tmp_path / "r", memories=8, guidance=2, skills=1)
    state = commit_trees.staged_state(root)
    assert state[1] == f"M  {commit_trees.EDITED}\n"
    assert not commit_trees.restore(root, state)
    (root / ".claude/memory/MEMORY.md").write_text("rewritten\n")
    (root / ".claude/memory/new.md").write_text("new\n")
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    assert commit_trees.restore(root, state)
    assert commit_trees.staged_state(root) == state
    assert not (root / ".claude/memory/new.md").exists()


def test_precommit_config_runs_under_the_real_pre_commit(tmp_path: Path) -> None:
    root = commit_trees.store_repo(tmp_path / "r", memories=4, guidance=1, skills=1)
    # `true` would be a YAML boolean, which pre-commit refuses as an entry.
    config = commit_trees.precommit_config(tmp_path / "noop.yaml", [("noop", ["true"])])
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "-c", str(config)],
        cwd=root,
        capture_output=True,
        text=True,
        env={**timing.child_env(), "PRE_COMMIT_HOME": str(tmp_path / "home")},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "noop" in done.stdout


def test_groups_measure_both_builds_and_print_every_target(tmp_path: Path) -> None:
    # The same code on both sides: only the rows and the table are judged.
    ctx = compare.Context(
        tmp_path,
        1,
        sys.executable,
        compare.Side("new", MEMCHECK),
        compare.Side("ref", MEMCHECK),
        None,
        store_memories=6,
        staged_paths=30,
        startup_runs=1,
        warmup=0,
    )
    res = compare.Results()
    compare.group_commit(ctx, res)
    compare.group_startup(ctx, res)
    compare.group_guard(ctx, res)
    compare.group_precommit(ctx, res, [sys.executable, "-m", "pre_commit"])
    table = compare.goals_table(res)
    for figure in (
        "commit path, the next commit: memcheck |",
        "commit path, the next commit: memcheck-fix |",
        "commit path, the next commit: memcheck-guard |",
        "commit path, the next commit: the hooks together |",
        "commit path, the same commit again: memcheck |",
        "commit path, the same commit again: the hooks together |",
        "commit path, cold: the hooks together vs ref |",
        "pre-commit with the three hooks, over one that does nothing |",
        "check with no agent files vs import click |",
        "check with no agent files vs ref |",
        "guard over 30 staged paths vs git diff --cached |",
    ):
        assert f"| {figure}" in table
    assert table.count("| commit path,") == 12
    # Every command ran to its end (memcheck's own exit codes: 0 clean, 1 findings).
    assert {key: m.code for key, m in res.measures.items() if m.code not in (0, 1)} == {}
    assert "precommit:noop" in res.measures and res.measures["precommit:noop"].code == 0
    assert "| start-up: check with no agent files (ref) |" in compare.measures_table(res)


def test_a_hook_that_writes_has_the_tree_put_back_and_is_named(tmp_path: Path) -> None:
    # A stand-in for a `fix` that rewrites the index on every run.
    writer = ["sh", "-c", 'if [ "$1" = fix ]; then echo more >> .claude/memory/MEMORY.md; fi', "memcheck"]
    ctx = compare.Context(tmp_path, 1, sys.executable, compare.Side("new", writer), None, None, store_memories=4)
    res = compare.Results()
    compare.group_commit(ctx, res)
    assert res.notes == [
        "The commit path: memcheck-fix, cold (new) changed the tree in 2 of its 2 runs; it was put back before the next command.",
        "The commit path: memcheck-fix, warm (new) changed the tree in 2 of its 2 runs; it was put back before the next command.",
    ]
    root = tmp_path / "commit-path"
    assert (
        subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True, text=True).stdout == f"M  {commit_trees.EDITED}\n"
    )


def test_only_names_known_groups(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run.main(["--only", "commit,nonsense"])
    assert "unknown group 'nonsense'" in capsys.readouterr().err


@pytest.mark.slow
def test_against_builds_an_installed_copy_once(tmp_path: Path) -> None:
    built = against.build("HEAD", tmp_path, log=False)
    assert built.commit == subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO_ROOT, capture_output=True, text=True).stdout.strip()
    where = subprocess.run(
        [built.python, "-c", "import memcheck; print(memcheck.__file__)"], capture_output=True, text=True, check=True
    ).stdout
    assert Path(where).resolve().is_relative_to((tmp_path / "against" / built.commit / "venv").resolve())  # installed, not the sources
    assert subprocess.run([*built.memcheck, "--version"], capture_output=True).returncode == 0
    stamp = built.folder / "built"
    before = stamp.stat().st_mtime_ns
    assert against.build_in_child(built.commit[:10], tmp_path) == built  # as bench/run.py builds it
    assert stamp.stat().st_mtime_ns == before
