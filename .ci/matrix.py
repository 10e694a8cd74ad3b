"""Run memcheck's tests on every Python and every dependency range it claims.

    python3 .ci/matrix.py            # every run below, in order
    python3 .ci/matrix.py floors     # only the runs named
    python3 .ci/matrix.py --keep     # keep each run's virtualenv under .matrix/

The runs, each in a fresh virtualenv under .matrix/ with the test extra (about 250 MB
each, removed once its run ends unless --keep is given):

- newest:       the full suite on the newest supported Python found, with the newest
                release of every dependency;
- smoke-3.X:    the smoke subset (`-m "smoke and not slow"`: every module imported
                and every pattern compiled, every command on a small repository, the
                YAML and hostile tests, its property tests on their fast budget) on
                each other supported Python; ruff and mypy (slow) judge the code the
                same whatever runs them (mypy reads the standard library as the
                oldest Python has it), so they run once, in the newest run;
- floors:       the full suite but type checking on the oldest supported Python
                (skipped with a note where it is missing), with the lowest release
                of each dependency that pyproject.toml allows (.ci/floors.txt,
                which tests/e2e/test_packaging.py keeps in step).

A supported Python that is not on this machine is skipped with a note, never
silently. The supported versions are read from pyproject.toml's classifiers.

The standard library does it, rather than nox or tox: both look an interpreter up by
its name on PATH, where pyenv's shim for a version that is installed but not active
answers with an error (CI machines here have 3.10 to 3.13 under pyenv, one active),
and both would have to be installed before anything runs.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
VENVS = ROOT / ".matrix"
FLOORS = ROOT / ".ci" / "floors.txt"
# Printed after each install: what the run used.
REPORTED = ("click", "PyYAML", "pathspec", "GitPython", "tomli", "pygls", "pytest", "hypothesis", "pre-commit")


class Run(NamedTuple):
    name: str
    python: str  # "3.X"
    pytest_args: tuple[str, ...]
    constraints: Path | None = None


def supported() -> list[str]:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    versions = re.findall(r'"Programming Language :: Python :: (3\.\d+)"', text)
    return sorted(set(versions), key=lambda v: int(v.split(".")[1]))


def _version_of(python: str) -> str | None:
    try:
        # venv alone is not enough: Debian's python3 without python3-venv lacks ensurepip.
        proc = subprocess.run(
            [python, "-c", "import sys, venv, ensurepip; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def find_python(version: str) -> str | None:
    """An interpreter of this version that runs and has venv: this one, one on PATH,
    or one that pyenv installed (whether or not it is active)."""
    candidates = [sys.executable, shutil.which(f"python{version}")]
    pyenv_root = os.environ.get("PYENV_ROOT") or str(Path.home() / ".pyenv")
    installed = glob.glob(os.path.join(pyenv_root, "versions", f"{version}.*", "bin", f"python{version}"))
    candidates += sorted(installed, key=lambda p: [int(x) for x in re.findall(r"\d+", Path(p).parents[1].name)], reverse=True)
    candidates += [f"/usr/bin/python{version}", f"/usr/local/bin/python{version}"]
    for candidate in candidates:
        if candidate and _version_of(candidate) == version:
            return candidate
    return None


def plan(names: list[str]) -> tuple[list[tuple[Run, str]], list[str]]:
    """The runs to make, each with its interpreter, and notes on what is skipped."""
    versions = supported()
    found = {v: find_python(v) for v in versions}
    present = [v for v in versions if found[v]]
    notes = [f"Python {v} is not on this machine: its run is skipped" for v in versions if not found[v]]
    runs: list[Run] = []
    if present:
        newest, oldest = present[-1], present[0]
        if newest != versions[-1]:
            notes.append(f"the newest supported Python ({versions[-1]}) is missing: the full suite runs on {newest}")
        runs.append(Run("newest", newest, ()))
        runs += [Run(f"smoke-{v}", v, ("-m", "smoke and not slow")) for v in present if v != newest]
        if oldest == versions[0]:
            # Type checking is judged with the newest releases' types (click 8.1, the
            # floor, ships its decorators untyped): all of the suite but that.
            runs.append(Run("floors", oldest, ("-m", "not typecheck"), FLOORS))
        else:  # the floors are the oldest Python's: some have no build for a newer one
            notes.append(f"the oldest supported Python ({versions[0]}) is missing: the floors run is skipped")
    if names:
        unknown = set(names) - {r.name for r in runs}
        if unknown:
            for note in notes:
                print(f"matrix: note: {note}", file=sys.stderr)
            sys.exit(f"matrix: no run named {', '.join(sorted(unknown))} here (runs: {', '.join(r.name for r in runs)})")
        runs = [r for r in runs if r.name in names]
    return [(r, found[r.python] or "") for r in runs], notes


# A step still running after this long is hung (the full suite takes minutes): it
# is stopped and its run fails, and the other runs go on.
STEP_SECONDS = 30 * 60


def _step(what: str, cmd: list[str]) -> None:
    print(f"+ {' '.join(cmd)}", flush=True)
    try:
        proc = subprocess.run(cmd, cwd=ROOT, timeout=STEP_SECONDS)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{what} still running after {STEP_SECONDS // 60} minutes: stopped") from None
    if proc.returncode != 0:
        raise RuntimeError(f"{what} failed (exit {proc.returncode})")


def execute(run: Run, python: str, keep: bool = False) -> bool:
    """Make the run's virtualenv, install, test; remove the virtualenv after, passed or
    failed, unless ``keep``."""
    venv = VENVS / run.name
    try:
        return _execute(run, python, venv)
    finally:
        if not keep:
            shutil.rmtree(venv, ignore_errors=True)
            try:
                VENVS.rmdir()  # the last run's: .matrix/ goes too
            except OSError:
                pass


def _execute(run: Run, python: str, venv: Path) -> bool:
    print(f"\n=== {run.name}: Python {run.python} ({python})", flush=True)
    started = time.monotonic()
    try:
        shutil.rmtree(venv, ignore_errors=True)
        _step("creating the virtualenv", [python, "-m", "venv", str(venv)])
        vpython = str(venv / "bin" / "python")
        install = [vpython, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--upgrade"]
        if run.constraints:
            install += ["--constraint", str(run.constraints)]
        _step("installing", [*install, "-e", ".[test]"])
        versions = subprocess.run(
            [vpython, "-c", "import importlib.metadata as m, sys, yaml\n"
             f"names = {REPORTED!r}\n"
             "found = []\n"
             "for n in names:\n"
             "    try: found.append(n + ' ' + m.version(n))\n"
             "    except m.PackageNotFoundError: pass\n"
             "print('Python ' + sys.version.split()[0] + ', ' + ', '.join(found) + (' (libyaml)' if hasattr(yaml, 'CSafeLoader') else ' (no libyaml)'))"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        print(f"{run.name} uses: {versions.stdout.strip() or versions.stderr.strip()}", flush=True)
        _step("the tests", [vpython, "-m", "pytest", "-p", "no:cacheprovider", *run.pytest_args])
    except RuntimeError as e:
        print(f"=== {run.name}: FAILED, {e} ({time.monotonic() - started:.0f} s)", flush=True)
        return False
    print(f"=== {run.name}: passed ({time.monotonic() - started:.0f} s)", flush=True)
    return True


def main(argv: list[str]) -> int:
    keep = "--keep" in argv
    runs, notes = plan([a for a in argv if a != "--keep"])
    for note in notes:
        print(f"matrix: note: {note}", flush=True)
    if not runs:
        print("matrix: no supported Python on this machine", flush=True)
        return 1
    results = [(run.name, execute(run, python, keep)) for run, python in runs]
    print()
    for note in notes:
        print(f"matrix: note: {note}")
    for name, ok in results:
        print(f"matrix: {name}: {'passed' if ok else 'FAILED'}")
    passed = sum(ok for _, ok in results)
    print(f"matrix: {passed} passed, {len(results) - passed} failed", flush=True)
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
