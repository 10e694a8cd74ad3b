"""The places where secrets are kept that a staged symlink must not point at (GRD002),
absolute or reached by climbing out of the repository, and the project files of the
same names that are not secrets (GRD001 over a path list): real git repositories, the
CLI in this process. The 86,324 paths of 102 real repositories are measured by
tests/shared/test_guard_filelists.py."""
from __future__ import annotations

import json
import os
from pathlib import Path

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
