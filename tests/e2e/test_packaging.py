"""What a user installs is what the tests test: the wheel carries every file memcheck
reads at run time, the README's quick start works as written in a clean virtualenv,
and the dependency floors that CI tests are the ones pyproject.toml declares."""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT, git, memory, write
from packaging.requirements import Requirement
from packaging.version import Version

import memcheck

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
FLOORS = REPO_ROOT / ".ci" / "floors.txt"


def _requirements() -> list[Requirement]:
    """memcheck's dependencies, and the language server's (the `server` extra)."""
    extras = PYPROJECT["project"]["optional-dependencies"]
    return [Requirement(r) for r in [*PYPROJECT["project"]["dependencies"], *extras["server"]]]


def _floor(req: Requirement) -> Version:
    (lower,) = [s for s in req.specifier if s.operator == ">="]
    return Version(lower.version)


def _through_extras() -> list[Requirement]:
    """What the extras of the dependencies bring (pathspec[re2]: google-re2), as the
    installed distributions declare it."""
    found = []
    for req in _requirements():
        for extra in sorted(req.extras):
            for text in importlib.metadata.requires(req.name) or []:
                brought = Requirement(text)
                if brought.marker is not None and brought.marker.evaluate({"extra": extra}):
                    found.append(brought)
    return found


def test_the_floors_ci_tests_are_the_floors_pyproject_declares() -> None:
    declared = {r.name.lower(): _floor(r) for r in [*_requirements(), *_through_extras()]}
    assert "google-re2" in declared  # pathspec[re2]'s
    test_tools = {Requirement(r).name.lower() for r in PYPROJECT["project"]["optional-dependencies"]["test"]}
    pinned = {}
    for line in FLOORS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            req = Requirement(line)
            if req.name.lower() in test_tools:  # a test tool held back to run beside the floors
                assert req.name.lower() not in declared
                continue
            (spec,) = req.specifier
            assert spec.operator == "==", line
            pinned[req.name.lower()] = Version(spec.version)
    # Every dependency, of every Python (tomli: below 3.11, where the floors run is).
    assert pinned == declared


def test_every_dependency_has_a_floor_and_no_ceiling() -> None:
    # A ceiling would make pip refuse a newer release where memcheck works with it;
    # the newest run of the matrix is what finds one that does not.
    for req in _requirements():
        assert _floor(req), req
        assert not [s for s in req.specifier if s.operator in ("<", "<=", "==", "~=")], req


def _small_repository(root: Path) -> Path:
    root.mkdir()
    git(root, "-c", "init.defaultBranch=main", "init", "-q")
    write(root, ".claude/memory/tests.md", memory("Tests", "How to run the tests", "project"))
    write(root, ".claude/memory/MEMORY.md", "# Memory\n\n- [Gone](gone.md) - a memory that is not there\n")
    write(root, "AGENTS.md", "# Agents\n\nRun the tests before you commit.\n")
    return root


def _copy_of_this_checkout(dest: Path) -> Path:
    """The files a clone of this checkout holds, as they are in the work tree."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO_ROOT, capture_output=True, check=True
    )
    for name in sorted(set(listed.stdout.decode().split("\0")) - {""}):
        source = REPO_ROOT / name
        if source.is_file() and not source.is_symlink():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """memcheck's wheel, built from a copy of this checkout as a release is built."""
    source = _copy_of_this_checkout(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(out), str(source)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    (built,) = out.glob("memcheck-*.whl")
    return built


@pytest.mark.e2e
@pytest.mark.slow
def test_the_wheel_installs_in_a_clean_virtualenv_and_runs(wheel: Path, tmp_path: Path) -> None:
    assert wheel.name == f"memcheck-{memcheck.__version__}-py3-none-any.whl"
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    install = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)], capture_output=True, text=True)
    assert install.returncode == 0, install.stderr
    exe = str(venv / "bin" / "memcheck")
    # Run from a folder outside this checkout, so nothing is imported from src/.
    repo = _small_repository(tmp_path / "repo")
    version = subprocess.run([exe, "--version"], cwd=repo, capture_output=True, text=True)
    assert version.stdout == f"memcheck {memcheck.__version__}\n", version.stderr
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import memcheck; print(memcheck.__file__)"], cwd=repo, capture_output=True, text=True
    )
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout
    # The dead index link is found, so the rules, the default config and the config
    # schema (package data) all came with the wheel.
    check = subprocess.run([exe, "check", "--format", "json"], cwd=repo, capture_output=True, text=True)
    assert check.returncode == 1 and check.stderr == "", check.stderr
    assert '"IDX' in check.stdout or '"MEM' in check.stdout, check.stdout
    write(repo, ".memcheck.yaml", "fail-on: error\nnot-a-key: 1\n")
    config = subprocess.run([exe, "check"], cwd=repo, capture_output=True, text=True)
    assert config.returncode == 2 and "not-a-key" in config.stderr, config.stderr
    (repo / ".memcheck.yaml").unlink()
    rules = subprocess.run([exe, "rule", "MEM003"], cwd=repo, capture_output=True, text=True)
    assert rules.returncode == 0 and "MEM003" in rules.stdout
    guard = subprocess.run([exe, "guard", "--list"], cwd=repo, capture_output=True, text=True)
    assert guard.returncode == 0, guard.stderr


def _readme_command(marker_text: str) -> str:
    """The ```bash block after the paragraph that says ``marker_text``."""
    m = re.search(re.escape(marker_text) + r".*?```bash\n(.*?)\n```", README, re.S)
    assert m, f"README.md has no command after {marker_text!r}"
    return m.group(1).strip()


@pytest.mark.e2e
@pytest.mark.slow
def test_the_readme_quick_start_works_as_written(tmp_path: Path) -> None:
    command = _readme_command("## Quick start")
    assert command.startswith("python3 -m venv .venv && .venv/bin/pip install .") and "memcheck check" in command
    checkout = _copy_of_this_checkout(tmp_path / "memcheck")
    # `python3` as a new user's shell finds it: the Python running these tests (the
    # one their virtualenv was made from).
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(["bash", "-euo", "pipefail", "-c", command], cwd=checkout, capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # memcheck's own checkout: what it holds for agents, or that it holds none.
    assert re.search(
        r"^(No problems found in |No agent files found \(guidance files, memory stores, skills\): nothing to check\.)", proc.stdout, re.M
    ), proc.stdout
    # The command put memcheck in that checkout's own virtualenv, which then checks
    # any repository by its path, as the README says.
    repo = _small_repository(tmp_path / "repo")
    other = subprocess.run([str(checkout / ".venv" / "bin" / "memcheck"), "check", str(repo)], capture_output=True, text=True)
    assert other.returncode == 1 and "gone.md" in other.stdout, other.stdout + other.stderr


def test_the_changelog_and_the_release_procedure_name_this_version() -> None:
    changelog = (REPO_ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog
    assert re.search(rf"^## \[{re.escape(memcheck.__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, re.M), (
        "CHANGELOG.md has no section for this version"
    )
    assert f"[{memcheck.__version__}]: " in changelog
    releasing = (REPO_ROOT / "RELEASING.md").read_text(encoding="utf-8")
    for step in ("src/memcheck/__init__.py", "CHANGELOG.md", "git tag -a v", "python3 .ci/matrix.py", "-m build", "rev: v"):
        assert step in releasing, step
