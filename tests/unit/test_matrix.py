"""The CI matrix (.ci/matrix.py) plans a run for every supported Python and the floors,
says what it skips, and fails a run whose step fails or hangs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from conftest import REPO_ROOT, load_script


@pytest.fixture
def matrix() -> ModuleType:
    return load_script(REPO_ROOT / ".ci" / "matrix.py")


def _only(matrix: ModuleType, monkeypatch: pytest.MonkeyPatch, present: set[str]) -> None:
    monkeypatch.setattr(matrix, "find_python", lambda v: f"/opt/python{v}" if v in present else None)


def test_every_supported_python_gets_a_run_and_the_oldest_the_floors(matrix: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    versions = matrix.supported()
    assert versions[0] == "3.10" and len(versions) >= 4
    _only(matrix, monkeypatch, set(versions))
    runs, notes = matrix.plan([])
    assert notes == []
    names = [run.name for run, _ in runs]
    assert names == ["newest", *(f"smoke-{v}" for v in versions[:-1]), "floors"]
    newest, floors = runs[0][0], runs[-1][0]
    assert newest.python == versions[-1] and newest.pytest_args == () and newest.constraints is None
    # The smoke runs leave out the slow tests (ruff and mypy among them, which judge the
    # code alike on every Python): the newest and floors runs have them.
    assert {run.pytest_args for run, _ in runs[1:-1]} == {("-m", "smoke and not slow")}
    assert floors.python == versions[0] and floors.constraints == REPO_ROOT / ".ci" / "floors.txt"


def test_a_missing_python_is_a_note_and_a_missing_oldest_skips_the_floors(matrix: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    versions = matrix.supported()
    _only(matrix, monkeypatch, set(versions[1:-1]))  # neither the oldest nor the newest
    runs, notes = matrix.plan([])
    assert [run.name for run, _ in runs] == ["newest", *(f"smoke-{v}" for v in versions[1:-2])]
    assert runs[0][0].python == versions[-2]  # the full suite on the newest present
    assert f"Python {versions[0]} is not on this machine: its run is skipped" in notes
    assert any("floors run is skipped" in n for n in notes)
    assert any(f"the full suite runs on {versions[-2]}" in n for n in notes)


def test_an_unknown_run_is_refused_with_the_runs_there_are(
    matrix: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    versions = matrix.supported()
    _only(matrix, monkeypatch, set(versions) - {versions[1]})
    with pytest.raises(SystemExit, match=f"no run named smoke-{versions[1]} here"):
        matrix.plan([f"smoke-{versions[1]}"])
    assert f"Python {versions[1]} is not on this machine" in capsys.readouterr().err  # why it is not there


def test_a_failing_or_hung_step_fails_its_run_and_the_summary(
    matrix: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(RuntimeError, match=r"the tests failed \(exit 3\)"):
        matrix._step("the tests", [sys.executable, "-c", "raise SystemExit(3)"])
    monkeypatch.setattr(matrix, "STEP_SECONDS", 1)
    with pytest.raises(RuntimeError, match="still running after"):
        matrix._step("the tests", [sys.executable, "-c", "import time; time.sleep(30)"])
    # main() goes on past a failed run, then sums up in the plain closing form.
    monkeypatch.setattr(
        matrix, "plan", lambda names: ([(matrix.Run("a", "3.x", ()), "py"), (matrix.Run("b", "3.x", ()), "py")], ["a note"])
    )
    monkeypatch.setattr(matrix, "execute", lambda run, python, keep: run.name == "b")
    assert matrix.main([]) == 1
    out = capsys.readouterr().out
    assert "matrix: note: a note" in out and "matrix: a: FAILED" in out and out.rstrip().endswith("matrix: 1 passed, 1 failed")


def test_a_real_interpreter_is_found_by_its_version(matrix: ModuleType) -> None:
    running = f"{sys.version_info[0]}.{sys.version_info[1]}"
    found = matrix.find_python(running)
    assert found is not None
    proc = subprocess.run([found, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True)
    assert proc.stdout.strip() == running
    assert matrix.find_python("3.1") is None  # no such Python anywhere
    assert Path(found).exists()


@pytest.mark.parametrize("keep", [False, True], ids=["removed", "kept"])
def test_a_runs_virtualenv_is_removed_after_it_unless_kept(
    matrix: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, keep: bool
) -> None:
    # About 250 MB a run: the matrix leaves no .matrix/ behind unless asked to.
    monkeypatch.setattr(matrix, "VENVS", tmp_path / ".matrix")

    def step(what: str, cmd: list[str]) -> None:
        (tmp_path / ".matrix" / "newest" / "bin").mkdir(parents=True, exist_ok=True)
        raise RuntimeError(f"{what} failed (exit 1)")  # a failed run is cleaned up too

    monkeypatch.setattr(matrix, "_step", step)
    assert matrix.execute(matrix.Run("newest", "3.11", ()), sys.executable, keep) is False
    assert (tmp_path / ".matrix" / "newest").exists() is keep
    assert (tmp_path / ".matrix").exists() is keep


def test_the_development_page_says_what_the_matrix_costs_and_leaves(matrix: ModuleType) -> None:
    page = (REPO_ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    section = page.split("## Running the tests", 1)[1].split("\nFor everyday work", 1)[0]
    assert "`.matrix/`" in section and "`--keep` keeps them" in section and "minutes" in section
    assert "--keep" in (matrix.__doc__ or "")
