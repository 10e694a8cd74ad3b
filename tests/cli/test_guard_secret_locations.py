"""The places where secrets are kept that a staged symlink must not point at (GRD002),
through links git already holds, or spelt as the path of the repository on this
disk, and the project files of the same names that are not secrets (GRD001 over a
path list): real git repositories, the CLI in this process. The tables of places
(absolute, climbing out of the repository, whole folders) are judged in memory in
tests/unit/test_guard_judged_paths.py, and held to what git gives in
tests/cli/test_guard_judged_in_memory.py. The 86,324 paths of 102 real repositories
are measured by tests/shared/test_guard_filelists.py."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import commit, git, run_cli, write


def link(root: Path, rel: str, target: str) -> None:
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, root / rel)


# What a project holds under the same names is not a secret: a project's .npmrc or
# .yarnrc.yml (registry settings), code named for environ, a proc/ or run/ folder.
INNOCENT = [
    ".npmrc",
    "web/.npmrc",
    ".yarnrc.yml",
    "packages/app/.yarnrc.yml",
    "src/environ.py",
    "lib/environ/__init__.py",
    "environ",
    "proc/cpuinfo.py",
    "proc/README.md",
    "testdata/fixtures/proc/26231/environ",
    "run/secrets.md",
    "src/run/secrets/handler.go",
    "docs/shadow.md",
    "shadow/index.ts",
    "etc/shadow.example",
    "gradle.properties",
    "android/gradle.properties",
    ".m2/repository/org/x/x.pom",
    "history.md",
    "src/history/index.ts",
    ".codex/skills/deploy/SKILL.md",
    ".gemini/settings.json",
    ".config/gh/config.yml",
    ".docker/Dockerfile",
    "claude.json",
]


def test_innocent_project_paths_are_not_guarded(repo: Path) -> None:
    write(repo, "paths.txt", "\n".join(INNOCENT) + "\n")
    proc = run_cli(repo, "guard", "--paths-from", "paths.txt", "--format", "json")
    assert proc.stderr == "", proc.stderr
    assert json.loads(proc.stdout)["problems"] == []
    assert proc.returncode == 0


def _guarded(repo: Path) -> list[tuple[str, str, str]]:
    proc = run_cli(repo, "guard", "--format", "json")
    assert proc.stderr == "", proc.stderr
    return [(p["path"], p["code"], p["message"]) for p in json.loads(proc.stdout)["problems"]]


def test_a_link_through_a_tracked_link_to_proc_self_is_guarded(repo: Path) -> None:
    commit(repo, {"README.md": "x\n"})
    link(repo, "me", "tools")
    commit(repo, {"tools/README.md": "tools\n"})
    git(repo, "rm", "-q", "me")
    link(repo, "me", "/proc/self")
    link(repo, "notes.txt", "me/environ")
    git(repo, "add", "-A")
    found = {path: code for path, code, _ in _guarded(repo)}
    assert found == {"me": "GRD002", "notes.txt": "GRD002"}


def test_a_link_already_committed_is_read_when_a_new_link_goes_through_it(repo: Path) -> None:
    commit(repo, {"README.md": "x\n"})
    link(repo, "e", "/etc")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "e")
    link(repo, "c", "e/shadow")
    git(repo, "add", "-A")
    assert [(path, code) for path, code, _ in _guarded(repo)] == [("c", "GRD002")]


# --- the session-8 attack's K3


@pytest.mark.parametrize(
    "target",
    [
        pytest.param(lambda repo: str(repo.parent), id="parent"),
        pytest.param(lambda repo: f"{repo}/sub/../..", id="parent-through-the-repository"),
    ],
)
def test_a_folder_above_the_repository_spelt_as_a_path_is_guarded(repo: Path, target: Any) -> None:
    # K3: an agent knows the absolute path of the clone it works in.
    commit(repo, {"README.md": "x\n"})
    link(repo, "par", target(repo))
    git(repo, "add", "-A")
    ((path, code, message),) = _guarded(repo)
    assert (path, code) == ("par", "GRD002")
    assert "(pattern a folder above the repository)" in message


@pytest.mark.parametrize(
    "target",
    [
        pytest.param(lambda repo: str(repo), id="the-repository-itself"),
        pytest.param(lambda repo: f"{repo}/docs", id="a-folder-of-the-repository"),
    ],
)
def test_a_link_to_another_folder_outside_is_not_guarded(repo: Path, target: Any) -> None:
    commit(repo, {"README.md": "x\n", "docs/a.md": "a\n"})
    link(repo, "d", target(repo))
    git(repo, "add", "-A")
    assert _guarded(repo) == []
