"""What README.md tells users to copy works: the .pre-commit-config.yaml snippet runs
with the real pre-commit, and the workflow passes GitHub's schema and zizmor and uses
the action's real inputs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO_ROOT, git, memory, write

from memcheck.output.sarif import INFORMATION_URI

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent


def snippet(name: str) -> str:
    m = re.search(rf"<!-- snippet: {name} -->\n```yaml\n(.*?)```", README, re.S)
    assert m, f"README.md has no ```yaml block after <!-- snippet: {name} -->"
    return m.group(1)


def _yaml(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(snippet(name))
    return data


def test_readme_documents_every_hook() -> None:
    hooks = [h["id"] for h in yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))]
    section = README.split("## pre-commit", 1)[1].split("\n## ", 1)[0]
    for hook_id in hooks:
        assert f"`{hook_id}`" in section, hook_id


def _is_work_tree(path: Path) -> bool:
    proc = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], cwd=path, capture_output=True, text=True)
    return proc.returncode == 0 and proc.stdout.strip() == "true"


IN_GIT = pytest.mark.skipif(not _is_work_tree(REPO_ROOT), reason="needs memcheck's own source as a git work tree")
PINNED_COMMIT = re.compile(r"[0-9a-f]{40}")


def _tagged(tag: str) -> bool:
    return (
        subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", f"refs/tags/{tag}^{{commit}}"], cwd=REPO_ROOT, capture_output=True
        ).returncode
        == 0
    )


def _pins() -> list[str]:
    """What the README pins memcheck at: the pre-commit snippet's rev, the workflow's ref."""
    (repo,) = _yaml("pre-commit-config")["repos"]
    (job,) = _yaml("workflow")["jobs"].values()
    (ours,) = [s["uses"] for s in job["steps"] if s["uses"].startswith("memcheck/memcheck/action@")]
    return [str(repo["rev"]), ours.split("@", 1)[1]]


def test_pre_commit_snippet_points_at_this_repository() -> None:
    config = _yaml("pre-commit-config")
    (repo,) = config["repos"]
    assert repo["repo"] == INFORMATION_URI
    manifest = {h["id"] for h in yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert {h["id"] for h in repo["hooks"]} <= manifest
    assert set(config["default_install_hook_types"]) == {"pre-commit", "prepare-commit-msg", "commit-msg", "pre-push"}


@IN_GIT
def test_what_the_readme_pins_exists() -> None:
    """A release tag once it is pushed; before it, a commit of main's history that
    holds the hooks and the action the snippets name (never a tag that is not there:
    pre-commit fails on it with "pathspec did not match")."""
    pins = _pins()
    assert len(set(pins)) == 1, pins  # one pin, both snippets
    pin = pins[0]
    if not PINNED_COMMIT.fullmatch(pin):
        assert _tagged(pin), f"the README pins {pin}, which is not tagged: pin a commit of main until the release is tagged (RELEASING.md)"
        return
    ancestor = subprocess.run(["git", "merge-base", "--is-ancestor", pin, "HEAD"], cwd=REPO_ROOT, capture_output=True)
    assert ancestor.returncode == 0, f"{pin} is not a commit of this history"
    hooks = yaml.safe_load(git(REPO_ROOT, "show", f"{pin}:.pre-commit-hooks.yaml"))
    (repo,) = _yaml("pre-commit-config")["repos"]
    assert {h["id"] for h in repo["hooks"]} <= {h["id"] for h in hooks}
    assert "inputs" in yaml.safe_load(git(REPO_ROOT, "show", f"{pin}:action/action.yml"))
    assert re.search(r"no release is tagged yet", snippet("pre-commit-config"), re.I)


@pytest.mark.e2e
@pytest.mark.slow
@IN_GIT
def test_pre_commit_snippet_installs_and_runs(repo: Path, tmp_path: Path) -> None:
    # The snippet as written, its rev too, except that it points at this checkout
    # instead of the published repository (which holds the same commits).
    text = snippet("pre-commit-config").replace(INFORMATION_URI, str(REPO_ROOT))
    write(repo, ".pre-commit-config.yaml", text)
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    git(repo, "add", "-A")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "PRE_COMMIT_COLOR": "never"}

    def pre_commit(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=repo, env=env, capture_output=True, text=True)

    validated = pre_commit("validate-config", ".pre-commit-config.yaml")
    assert validated.returncode == 0, validated.stdout + validated.stderr
    installed = pre_commit("install")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert all((repo / ".git/hooks" / stage).is_file() for stage in ("pre-commit", "prepare-commit-msg", "commit-msg", "pre-push"))

    first = pre_commit("run")
    assert first.returncode == 1, first.stdout + first.stderr  # the store had no index
    assert re.search(r"memcheck fix\.+Failed", first.stdout)
    assert "Fixing .claude/memory/MEMORY.md" in first.stdout
    assert re.search(r"memcheck guard\.+Passed", first.stdout)
    git(repo, "add", "-A")
    # The real commit, through the installed hook.
    commit = subprocess.run(["git", "commit", "-qm", "memory"], cwd=repo, env=env, capture_output=True, text=True)
    assert commit.returncode == 0, commit.stdout + commit.stderr
    assert "- [prefs](user_prefs.md) - Prefers short answers" in (repo / ".claude/memory/MEMORY.md").read_text(encoding="utf-8")


def _workflow_file(tmp_path: Path) -> Path:
    path = tmp_path / ".github" / "workflows" / "memcheck.yml"
    path.parent.mkdir(parents=True)
    path.write_text(snippet("workflow"), encoding="utf-8")
    return path


def test_workflow_validates_against_the_github_workflow_schema(tmp_path: Path) -> None:
    path = _workflow_file(tmp_path)
    proc = subprocess.run(
        [str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.github-workflows", str(path)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_zizmor_finds_nothing_in_the_workflow(tmp_path: Path) -> None:
    path = _workflow_file(tmp_path)
    # Every audit as zizmor ships it (its default persona): unpinned-uses asks for
    # every action pinned by its commit.
    proc = subprocess.run([str(BIN / "zizmor"), "--offline", "--no-config", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_workflow_uses_the_action_as_it_is() -> None:
    workflow = _yaml("workflow")
    action = yaml.safe_load((REPO_ROOT / "action/action.yml").read_text(encoding="utf-8"))
    (job,) = workflow["jobs"].values()
    assert job["permissions"]["security-events"] == "write"
    assert job["permissions"]["contents"] == "read"
    steps = {s["uses"].split("@")[0]: s for s in job["steps"]}
    assert steps["actions/checkout"]["with"]["fetch-depth"] == 0
    ours = steps["memcheck/memcheck/action"]
    assert ours["uses"].split("@")[0] == f"{INFORMATION_URI.removeprefix('https://github.com/')}/action"
    assert set(ours["with"]) <= set(action["inputs"])
    upload = steps["github/codeql-action/upload-sarif"]
    assert upload["with"]["sarif_file"] == ours["with"]["sarif"]
    assert "!cancelled()" in upload["if"]
    assert "pull_request" in workflow[True] if True in workflow else "pull_request" in workflow["on"]
