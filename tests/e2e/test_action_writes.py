"""The Action's SARIF file is never written through a symlink the pull request
commits: neither a link at the file itself nor a folder on the way that leads out of
the checkout (`results -> ~/.ssh`). run.py runs as action.yml runs it: a Python
process in the checkout, its inputs in INPUT_* variables.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT, git, store_with_unlisted

RUN = REPO_ROOT / "action" / "run.py"


def _action(workspace: Path, sarif: str) -> subprocess.CompletedProcess[str]:
    files = workspace.parent / "runner-files"
    files.mkdir(exist_ok=True)
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")},
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_OUTPUT": str(files / "output"),
        "GITHUB_STEP_SUMMARY": str(files / "summary.md"),
        "INPUT_GUARD": "off",
        "INPUT_SARIF": sarif,
    }
    return subprocess.run([sys.executable, str(RUN)], cwd=workspace, env=env, capture_output=True, text=True)


@pytest.fixture
def checkout(repo: Path) -> Path:
    store_with_unlisted(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "pull request")
    return repo


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "runner-home" / ".ssh"
    folder.mkdir(parents=True)
    return folder


@pytest.mark.e2e
def test_sarif_is_not_written_through_a_folder_link(checkout: Path, outside: Path) -> None:
    (checkout / "results").symlink_to(outside)
    proc = _action(checkout, "results/memcheck.sarif")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    (line,) = [x for x in proc.stdout.splitlines() if x.startswith("::error title=memcheck::")]
    assert "input sarif: results/memcheck.sarif: results is a symlink out of the repository" in line
    assert list(outside.iterdir()) == []


@pytest.mark.e2e
def test_sarif_is_not_written_through_a_file_link(checkout: Path, outside: Path) -> None:
    keys = outside / "authorized_keys"
    keys.write_text("ssh-ed25519 AAAA... me\n")
    (checkout / "memcheck.sarif").symlink_to(keys)
    proc = _action(checkout, "memcheck.sarif")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "::error title=memcheck::input sarif: memcheck.sarif is a symlink; not writing through it" in proc.stdout
    assert keys.read_text() == "ssh-ed25519 AAAA... me\n"
    assert (checkout / "memcheck.sarif").is_symlink()


@pytest.mark.e2e
def test_sarif_replaces_an_old_file_whole(checkout: Path) -> None:
    old = checkout / "results" / "memcheck.sarif"
    old.parent.mkdir()
    old.write_text("stale\n" * 1000)
    os.link(old, checkout / "results" / "kept.sarif")  # a second name of the old file
    proc = _action(checkout, "results/memcheck.sarif")
    assert proc.returncode == 1, proc.stdout + proc.stderr  # the unlisted memory fails the job
    results = json.loads(old.read_text())["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["IDX003", "MEM010"]
    assert (checkout / "results" / "kept.sarif").read_text() == "stale\n" * 1000  # replaced, not rewritten in place
    assert sorted(p.name for p in old.parent.iterdir()) == ["kept.sarif", "memcheck.sarif"]
