"""The Action's install step, as action/action.yml has it, run with the python3 of
GitHub's ubuntu-22.04 (3.10) and ubuntu-24.04 (3.12) runners: it installs exactly the
pins of action/requirements.txt, hash-checked, builds memcheck without downloading
anything else, and the installed memcheck works on a git repository. pip's cache keeps
repeated runs fast.
"""

from __future__ import annotations

import functools
import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO_ROOT, git, memory, write
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from memcheck import __version__

INSTALL_STEP = "Install memcheck"
# Read before the tests move HOME: pyenv's builds, and pip's cache (the real one, so
# that repeated installs download nothing).
_PYENV_ROOT = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
_PIP_CACHE = os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip")

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@functools.cache
def _interpreter(version: str) -> str | None:
    """A working python of this minor version: pyenv's builds first, then PATH (pyenv's
    shims are on PATH but fail for a version not selected, so each is tried)."""
    candidates = sorted(glob.glob(str(_PYENV_ROOT / "versions" / f"{version}.*" / "bin" / "python3")), reverse=True)
    candidates += [p for p in (shutil.which(f"python{version}"), shutil.which("python3")) if p]
    candidates.append(str(Path(sys.base_prefix) / "bin" / "python3"))  # the one running the tests
    for candidate in candidates:
        proc = subprocess.run([candidate, "-c", "import sys, venv; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True)
        if proc.returncode == 0 and proc.stdout.strip() == version:
            return candidate
    return None


# The python3 of ubuntu-22.04 and of ubuntu-24.04. Where neither is installed, the
# Python running the tests stands in (it is a supported one), so the install step is
# always run, never skipped.
_RUNNING = f"{sys.version_info[0]}.{sys.version_info[1]}"
_RUNNER_PYTHONS = [v for v in ("3.10", "3.12") if _interpreter(v)] or [_RUNNING]


def _python(version: str) -> str:
    found = _interpreter(version)
    assert found is not None, f"no Python {version} here (looked in {_PYENV_ROOT}/versions and PATH)"
    return found


def _old_python3(tmp_path: Path) -> str:
    """A python3 older than 3.10: pyenv's 3.9 where it is installed, else a stand-in
    that answers the install step's version check as Python 3.9.18 would."""
    real = _interpreter("3.9")
    if real is not None:
        return real
    fake = tmp_path / "python3.9"
    fake.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = --version ]; then echo "Python 3.9.18"; exit 0; fi\n'
        'if [ "$1" = -c ]; then exit 1; fi  # sys.exit(sys.version_info < (3, 10))\n'
        "echo 'python3.9 stand-in: unexpected call' >&2; exit 2\n"
    )
    fake.chmod(0o755)
    return str(fake)


def _install_script() -> str:
    action = yaml.safe_load((REPO_ROOT / "action" / "action.yml").read_text(encoding="utf-8"))
    (step,) = [s for s in action["runs"]["steps"] if s["name"] == INSTALL_STEP]
    assert step["shell"] == "bash"
    script: str = step["run"]
    return script


def _action_checkout(tmp_path: Path, requirements: str | None = None) -> Path:
    """A copy of the action's repository as `uses:` checks it out (the project and
    action/), so each install builds in a tree of its own, not in this work tree."""
    root = tmp_path / "action-checkout"
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "*.pyc")
    shutil.copytree(REPO_ROOT / "src", root / "src", ignore=skip)
    shutil.copytree(REPO_ROOT / "action", root / "action", ignore=skip)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (REPO_ROOT / name).exists():
            shutil.copy2(REPO_ROOT / name, root / name)
    if requirements is not None:
        (root / "action" / "requirements.txt").write_text(requirements, encoding="utf-8")
    return root


def _run_install(tmp_path: Path, python: str, requirements: str | None = None) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The install step's script, by bash as the runner runs it, with `python3` on PATH
    being `python` (as on a runner whose python3 is that version)."""
    checkout = _action_checkout(tmp_path, requirements)
    bin_dir = tmp_path / "runner-bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(python)
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env.update(
        {"PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", "RUNNER_TEMP": str(temp), "GITHUB_ACTION_PATH": str(checkout / "action")}
    )
    env["PIP_CACHE_DIR"] = _PIP_CACHE
    proc = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", _install_script()],
        cwd=workspace,
        env=env,
        capture_output=True,
        text=True,
    )
    return proc, temp / "memcheck-venv"


def _pins() -> dict[str, tuple[str, Requirement]]:
    """name -> (version, requirement) of action/requirements.txt, read with packaging."""
    from test_action_requirements import _pins as pins

    return {name: (str(pin.version), pin.requirement) for name, pin in pins().items()}


def _venv_facts(venv: Path) -> dict[str, Any]:
    """The venv's Python, its marker environment and every installed distribution."""
    script = (
        "import json, sys, importlib.metadata as m\n"
        "from pip._vendor.packaging.markers import default_environment\n"
        "print(json.dumps({'version': '%d.%d' % sys.version_info[:2], 'env': default_environment(),"
        " 'dists': {d.metadata['Name']: d.version for d in m.distributions()}}))\n"
    )
    proc = subprocess.run([str(venv / "bin" / "python"), "-c", script], capture_output=True, text=True, cwd=venv)
    assert proc.returncode == 0, proc.stderr
    facts: dict[str, Any] = json.loads(proc.stdout)
    return facts


@pytest.mark.parametrize("version", _RUNNER_PYTHONS)
def test_install_step_installs_the_pins_and_memcheck_runs(tmp_path: Path, version: str) -> None:
    python = _python(version)
    proc, venv = _run_install(tmp_path, python)
    assert proc.returncode == 0, proc.stdout + proc.stderr

    facts = _venv_facts(venv)
    assert facts["version"] == version
    # Exactly the pins whose markers hold here (tomli only on 3.10), memcheck and pip.
    expected = {name: v for name, (v, req) in _pins().items() if req.marker is None or req.marker.evaluate({**facts["env"], "extra": ""})}
    installed: dict[str, str] = {canonicalize_name(name): v for name, v in facts["dists"].items()}
    assert installed.pop("memcheck") == __version__
    assert installed.pop("pip")  # the venv's own, from ensurepip
    assert installed == expected
    assert ("tomli" in installed) == (version == "3.10")  # the only marker in the lock

    memcheck = venv / "bin" / "memcheck"
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n## User\n- [prefs](user_prefs.md) - Prefers short answers\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}

    shown = subprocess.run([str(memcheck), "--version"], capture_output=True, text=True, env=env, cwd=repo)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip() == f"memcheck {__version__}"

    clean = subprocess.run([str(memcheck), "check"], capture_output=True, text=True, env=env, cwd=repo)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    write(repo, ".claude/memory/feedback_testing.md", memory("testing", "Run pytest first", "feedback"))
    dirty = subprocess.run([str(memcheck), "check"], capture_output=True, text=True, env=env, cwd=repo)
    assert dirty.returncode == 1, dirty.stdout + dirty.stderr
    assert "IDX003" in dirty.stdout and "feedback_testing.md" in dirty.stdout


def test_a_tampered_hash_stops_the_install(tmp_path: Path) -> None:
    python = _python(_RUNNER_PYTHONS[-1])
    text = (REPO_ROOT / "action" / "requirements.txt").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("click=="))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith("    --hash="))
    # click with one hash that matches no file of it
    forged = lines[:start] + [lines[start], "    --hash=sha256:" + "0" * 64 + "\n"] + lines[end:]
    proc, venv = _run_install(tmp_path, python, "".join(forged))
    assert proc.returncode != 0
    assert "DO NOT MATCH THE HASHES" in proc.stderr, proc.stderr
    assert not (venv / "bin" / "memcheck").exists()


def test_too_old_a_python3_stops_the_install_with_what_to_do(tmp_path: Path) -> None:
    python = _old_python3(tmp_path)
    proc, venv = _run_install(tmp_path, python)
    assert proc.returncode == 1
    assert "::error title=memcheck::memcheck needs python3 3.10 or newer with venv, found: Python 3.9." in proc.stdout
    assert "actions/setup-python" in proc.stdout
    assert not venv.exists()
