"""The places where secrets are kept that a staged symlink must not point at (GRD002),
absolute or reached by climbing out of the repository, and the project files of the
same names that are not secrets (GRD001 over a path list): real git repositories, the
CLI in this process. The 86,324 paths of 102 real repositories are measured by
tests/shared/test_guard_filelists.py."""

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


SECRET_LOCATIONS = [
    "/proc/self/environ",
    "/proc/1/environ",
    "/proc/4242/environ",
    "/run/secrets/db_password",
    "/run/secrets/api",
    "/var/run/secrets/kubernetes.io/serviceaccount/token",
    "/home/me/.config/gh/hosts.yml",
    "/home/me/.docker/config.json",
    "/home/me/.npmrc",
    "/root/.npmrc",
    "/Users/me/.npmrc",
    "/home/me/.yarnrc.yml",
    "/home/me/.codex/auth.json",
    "/home/me/.gemini/oauth_creds.json",
    "/home/me/.config/github-copilot/apps.json",
    "/home/me/.config/github-copilot/hosts.json",
    "/home/me/.claude/.credentials.json",
    "/home/me/.claude.json",
    "/home/me/.vault-token",
    "/home/me/.bash_history",
    "/home/me/.zsh_history",
    "/home/me/.sh_history",
    "/home/me/.histfile",
    "/home/me/.local/share/fish/fish_history",
    "/home/me/.python_history",
    "/home/me/.psql_history",
    "/home/me/.mysql_history",
    "/home/me/.node_repl_history",
    "/etc/shadow",
    "/etc/gshadow",
    "/home/me/.m2/settings.xml",
    "/home/me/.gradle/gradle.properties",
    "/home/me/.netrc",
    "/home/me/.git-credentials",
    "/home/me/.pypirc",
    "/home/me/.cargo/credentials",
    "/home/me/.cargo/credentials.toml",
    "/home/me/.config/gcloud/application_default_credentials.json",
    "/home/me/.config/gcloud/credentials.db",
    "/home/me/.config/gcloud/access_tokens.db",
    "/home/me/.azure/accessTokens.json",
    "/home/me/.azure/msal_token_cache.json",
    # the same places reached by climbing out of the repository
    "../../../../../../../proc/self/environ",
    "../../../../.config/gh/hosts.yml",
    "../../../../.codex/auth.json",
]


@pytest.mark.parametrize("target", SECRET_LOCATIONS)
def test_a_staged_symlink_to_a_secret_location_is_guarded(repo: Path, target: str) -> None:
    commit(repo, {"README.md": "x\n"})
    link(repo, ".claude/memory/runtime.md", target)
    git(repo, "add", "-A")
    proc = run_cli(repo, "guard", "--format", "json")
    assert proc.stderr == "", proc.stderr
    problems = json.loads(proc.stdout)["problems"]
    assert proc.returncode == 1 and [(p["path"], p["code"]) for p in problems] == [(".claude/memory/runtime.md", "GRD002")]


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


def test_two_links_in_a_row_reach_the_secret_location_they_name_together(repo: Path) -> None:
    # `c -> e/shadow` names nothing guarded as written; through `e -> /etc` it is /etc/shadow.
    commit(repo, {"README.md": "x\n"})
    link(repo, "e", "/etc")
    link(repo, "c", "e/shadow")
    git(repo, "add", "-A")
    found = {path: (code, message) for path, code, message in _guarded(repo)}
    assert found["c"][0] == "GRD002" and "/etc/shadow" in found["c"][1]


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


@pytest.mark.parametrize(
    ("target", "place"),
    [
        pytest.param("/", "/ (the whole file system)", id="root"),
        pytest.param("/home/me", "a home folder", id="home-folder"),
        pytest.param("/Users/me/", "a home folder", id="mac-home-folder"),
        pytest.param("/root", "a home folder", id="root-home"),
        pytest.param("/home", "a home folder", id="every-home-folder"),
        pytest.param("/Users", "a home folder", id="every-mac-home-folder"),
        pytest.param("/etc", "/etc (the system's settings and keys)", id="etc"),
        pytest.param("/private/etc/", "/etc (the system's settings and keys)", id="mac-etc"),
        pytest.param("..", "a folder above the repository", id="parent"),
        pytest.param("../..", "a folder above the repository", id="grandparent"),
        pytest.param("/proc/self", "/proc/* (a process's environment and files)", id="proc-self"),
        pytest.param("/proc/self/root", "/proc/* (a process's environment and files)", id="proc-root"),
        # K1: the folder a secret pattern names a file inside, which an agent lists
        # through the link (d/hosts.yml) as any other file of the repository
        pytest.param("/home/me/.config/gh", "**/.config/gh/hosts.yml", id="gh"),
        pytest.param("/home/me/.docker", "**/.docker/config.json", id="docker"),
        pytest.param("/home/me/.codex", "**/.codex/auth.json", id="codex"),
        pytest.param("/home/me/.gemini/", "**/.gemini/oauth_creds.json", id="gemini"),
        pytest.param("/home/me/.azure", "**/.azure/accessTokens.json", id="azure"),
        pytest.param("/home/me/.cargo", "**/.cargo/credentials", id="cargo"),
        pytest.param("/home/me/.m2", "**/.m2/settings.xml", id="maven"),
        pytest.param("/home/me/.config", "a home folder's store of logins", id="config"),
        pytest.param("/home/me/.claude", "a home folder's store of logins", id="claude"),
        pytest.param("/home/me/.password-store", "a home folder's store of logins", id="pass"),
        pytest.param("/home/me/.local/share/keyrings", "a home folder's store of logins", id="keyrings"),
        pytest.param("/Users/me/Library/Keychains", "a home folder's store of logins", id="keychains"),
        pytest.param("/home/me/.mozilla", "a home folder's store of logins", id="firefox"),
        # K2: in another case, as macOS opens it; WSL's way to the Windows home folders
        pytest.param("/USERS/me", "a home folder", id="users-in-capitals"),
        pytest.param("/ETC", "/etc (the system's settings and keys)", id="etc-in-capitals"),
        pytest.param("/mnt/c/Users/me", "a home folder", id="wsl-windows-home"),
    ],
)
def test_a_link_to_a_whole_place_of_secrets_is_guarded(repo: Path, target: str, place: str) -> None:
    commit(repo, {"README.md": "x\n"})
    link(repo, "h", target)
    git(repo, "add", "-A")
    ((path, code, message),) = _guarded(repo)
    assert (path, code) == ("h", "GRD002")
    # (a whole place is the category secret-folders; a folder a pattern names a file
    # inside, that pattern's category)
    assert f"(pattern {place})" in message


@pytest.mark.parametrize("target", ["docs", "../repo/docs", "/usr/share/doc", "/etc-notes", "/homework", "shared/.."])
def test_a_link_to_an_ordinary_folder_is_not_guarded(repo: Path, target: str) -> None:
    commit(repo, {"README.md": "x\n", "docs/a.md": "a\n", "shared/b.md": "b\n"})
    link(repo, "h", target)
    git(repo, "add", "-A")
    assert _guarded(repo) == []


# --- the session-8 attack's K3


@pytest.mark.parametrize(
    "target",
    [
        pytest.param(lambda repo: str(repo.parent), id="parent"),
        pytest.param(lambda repo: str(repo.parent.parent), id="grandparent"),
        pytest.param(lambda repo: f"{repo}/sub/../..", id="parent-through-the-repository"),
        pytest.param(lambda repo: f"../../{repo.parent.name}", id="climbing-to-a-named-parent"),
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
        pytest.param(lambda repo: "/home/me/projects/data", id="a-folder-in-a-home"),
        pytest.param(lambda repo: "/home/me/.config/nvim", id="a-folder-of-config"),
        pytest.param(lambda repo: str(repo), id="the-repository-itself"),
        pytest.param(lambda repo: f"{repo}/docs", id="a-folder-of-the-repository"),
    ],
)
def test_a_link_to_another_folder_outside_is_not_guarded(repo: Path, target: Any) -> None:
    commit(repo, {"README.md": "x\n", "docs/a.md": "a\n"})
    link(repo, "d", target(repo))
    git(repo, "add", "-A")
    assert _guarded(repo) == []
