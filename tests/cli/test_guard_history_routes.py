"""Which history the guard judges, and by whose settings: routes an outside attack
found, each through the CLI on real repositories (remotes are bare repositories
beside them; a push is what pre-commit hands its hooks, computed as pre-commit
computes it): `pre-commit run --all-files` judged by the pull request's own
settings, the fork workflow blocked at pre-push, the Action on push events judged
by a loosening pushed first, tags on trees and blobs never judged, and settings
that cannot be read passing as "guard passed". Beside each, what must still pass."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO_ROOT, commit, git, load_script, plain, plain_message, run_cli, write


def guard(root: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    proc = run_cli(root, "guard", *args, env=env)
    return proc.returncode, plain(proc.stdout), proc.stderr


def found(out: str) -> list[tuple[str, str]]:
    """(path, code) of each finding of a JSON report."""
    return [(p["path"], p["code"]) for p in json.loads(out)["problems"]]


def messages(out: str) -> dict[str, str]:
    return {p["path"]: plain_message(p["message"]) for p in json.loads(out)["problems"]}


def bare(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.git"
    git(tmp_path, "-c", "init.defaultBranch=main", "init", "-q", "--bare", str(path))
    return path


def pre_push(root: Path, remote: str, local: str, remote_ref: str | None = None) -> dict[str, str]:
    """What pre-commit sets for its pre-push hooks when ``git push REMOTE LOCAL[:REMOTE_REF]``
    is the push's first line (pre-commit's hook_impl._pre_push_ns): the remote's old
    value when it has the ref, else the parent of the first commit no ref of that
    remote holds, else (a history from a root commit) no refs at all."""
    local_ref = git(root, "rev-parse", "--symbolic-full-name", local).strip() or f"refs/tags/{local}"
    target = remote_ref or local_ref
    local_sha = git(root, "rev-parse", local).strip()
    url = git(root, "remote", "get-url", remote).strip()
    env = {
        "PRE_COMMIT": "1",
        "PRE_COMMIT_REMOTE_NAME": remote,
        "PRE_COMMIT_REMOTE_URL": url,
        "PRE_COMMIT_REMOTE_BRANCH": target,
        "PRE_COMMIT_LOCAL_BRANCH": local_ref,
    }
    listed = git(root, "ls-remote", remote, target).split()
    if listed:
        return {**env, "PRE_COMMIT_FROM_REF": listed[0], "PRE_COMMIT_TO_REF": local_sha}
    ancestors = git(root, "rev-list", local_sha, "--topo-order", "--reverse", "--not", f"--remotes={remote}").split()
    assert ancestors, "nothing to push: pre-commit would run no hook"
    if ancestors[0] in git(root, "rev-list", "--max-parents=0", local_sha).split():
        return env
    return {**env, "PRE_COMMIT_FROM_REF": git(root, "rev-parse", f"{ancestors[0]}^").strip(), "PRE_COMMIT_TO_REF": local_sha}


# --- 6. `pre-commit run --all-files`: the default branch's settings ------------------

ALL_FILES = {"PRE_COMMIT": "1"}  # under pre-commit, outside `git commit` (no GIT_INDEX_FILE)


def pull_request_that_allows_its_env(tmp_path: Path, clone: bool) -> tuple[Path, str]:
    """A checkout of a branch that allows ``.env`` in its own settings and adds one,
    over a ``main`` on origin with the default settings; ``clone``: origin/HEAD is
    set (a clone), else only origin/main (a remote added and fetched)."""
    origin = bare(tmp_path, "origin")
    seed = tmp_path / "seed"
    git(tmp_path, "clone", "-q", str(origin), str(seed))
    main = commit(seed, {"README.md": "x\n"}, "init")
    git(seed, "push", "-q", "origin", "HEAD:refs/heads/main")
    work = tmp_path / "work"
    if clone:
        git(tmp_path, "clone", "-q", str(origin), str(work))
    else:
        work.mkdir()
        git(work, "-c", "init.defaultBranch=main", "init", "-q")
        git(work, "remote", "add", "origin", str(origin))
        git(work, "fetch", "-q", "origin")
        git(work, "checkout", "-q", "-b", "main", "origin/main")
    git(work, "checkout", "-q", "-b", "feature")
    commit(work, {".memcheck.yaml": 'guard: {allow: ["/.env"]}\n', ".env": "SECRET=1\n"}, "allow my own .env")
    return work, main


@pytest.mark.parametrize("clone", [True, False], ids=["origin-HEAD", "origin-main"])
def test_all_files_is_judged_by_the_default_branchs_settings_not_the_pull_requests(tmp_path: Path, clone: bool) -> None:
    work, main = pull_request_that_allows_its_env(tmp_path, clone)
    code, out, err = guard(work, "--format", "json", env=ALL_FILES)
    assert code == 1
    assert found(out) == [(".env", "GRD001")]
    assert messages(out)[".env"].startswith("listed: guarded by category env")
    assert err.startswith("memcheck guard: nothing is staged, so every tracked file was judged")
    assert f"by the settings of origin/main ({main[:7]})" in err


def test_all_files_with_stricter_settings_at_head_keeps_them(tmp_path: Path) -> None:
    # The strictest of the two: the branch's own tightening applies to its tree too.
    work, _ = pull_request_that_allows_its_env(tmp_path, clone=True)
    git(work, "rm", "-q", ".env")
    commit(work, {".memcheck.yaml": "guard: {patterns: ['*.sqlite']}\n", "data/app.sqlite": "x\n"}, "tighten, add data")
    code, out, _ = guard(work, "--format", "json", env=ALL_FILES)
    assert code == 1 and found(out) == [("data/app.sqlite", "GRD001")]


def test_all_files_without_a_remote_copy_says_it_used_heads_settings(repo: Path) -> None:
    commit(repo, {"README.md": "x\n", ".memcheck.yaml": 'guard: {allow: ["/.env"]}\n', ".env": "LOCAL=1\n"}, "init")
    code, out, err = guard(repo, env=ALL_FILES)
    assert (code, out) == (0, "No problems found.\n")
    assert "by HEAD's settings: no remote-tracking copy of the default branch" in err


def test_all_files_of_a_clean_tree_still_passes(tmp_path: Path) -> None:
    work, _ = pull_request_that_allows_its_env(tmp_path, clone=True)
    git(work, "rm", "-q", ".env")
    commit(work, {}, "no .env")
    code, out, err = guard(work, env=ALL_FILES)
    assert (code, out) == (0, "No problems found.\n")
    assert "by the settings of origin/main" in err


def test_all_files_with_broken_settings_on_the_default_branch_says_where(tmp_path: Path) -> None:
    origin = bare(tmp_path, "origin")
    work = tmp_path / "work"
    git(tmp_path, "clone", "-q", str(origin), str(work))
    commit(work, {"README.md": "x\n", ".memcheck.yaml": "guard: {disable: [secretz]}\n"}, "init")
    git(work, "push", "-q", "origin", "HEAD:refs/heads/main")
    git(work, "fetch", "-q", "origin")
    commit(work, {".memcheck.yaml": "guard: {}\n"}, "fix")
    code, out, err = guard(work, env=ALL_FILES)
    assert (code, out) == (2, "")
    assert err.startswith("memcheck: error: origin/main:.memcheck.yaml: guard.disable.0: 'secretz' is not one of:")
    assert "guard reads its settings from origin/main" in err and "Traceback" not in err


# --- 8. pre-push in a fork: what another remote holds is not the pusher's -------------


def fork(tmp_path: Path) -> tuple[Path, Path]:
    """``upstream`` (main: init, then upstream's own lock file and settings), a fork of
    it as ``origin`` that is still at init, and a clone of the fork with upstream
    added and fetched: the standard fork workflow."""
    upstream = bare(tmp_path, "upstream")
    seed = tmp_path / "seed"
    git(tmp_path, "clone", "-q", str(upstream), str(seed))
    commit(seed, {"README.md": "x\n"}, "init")
    git(seed, "push", "-q", "origin", "HEAD:refs/heads/main")
    origin = tmp_path / "origin.git"
    git(tmp_path, "clone", "-q", "--bare", str(upstream), str(origin))
    upstream_own = {
        "package-lock.json": "{}\n",
        "tests/fixtures/server.crt": "CERT\n",
        ".memcheck.yaml": 'guard: {allow: ["/tests/fixtures/"]}\n',
    }
    commit(seed, upstream_own, "upstream's lock file and test certificate, allowed there after review")
    commit(seed, {"src/lib.py": "x\n"}, "more upstream work")
    git(seed, "push", "-q", "origin", "HEAD:refs/heads/main")
    git(seed, "checkout", "-q", "-b", "legacy")
    commit(seed, {".env": "SECRET=1\n"}, "a branch of upstream's with a secret")
    git(seed, "push", "-q", "origin", "legacy")
    work = tmp_path / "work"
    git(tmp_path, "clone", "-q", str(origin), str(work))
    git(work, "remote", "add", "upstream", str(upstream))
    git(work, "fetch", "-q", "upstream")
    return work, origin


def test_a_branch_rebased_on_upstream_pushed_to_the_fork_is_not_blamed_for_upstreams_commits(tmp_path: Path) -> None:
    work, _ = fork(tmp_path)
    git(work, "checkout", "-q", "-b", "feature", "upstream/main")
    commit(work, {"src/app.py": "x\n"}, "my work")
    env = pre_push(work, "origin", "feature")
    assert env["PRE_COMMIT_FROM_REF"] == git(work, "rev-parse", "origin/main").strip()  # pre-commit's choice
    assert guard(work, env=env) == (0, "No problems found.\n", "")


def test_a_fork_branch_rebased_and_force_pushed_is_not_blamed_for_upstreams_commits(tmp_path: Path) -> None:
    work, _ = fork(tmp_path)
    git(work, "checkout", "-q", "-b", "feature")
    commit(work, {"src/app.py": "x\n"}, "my work")
    git(work, "push", "-q", "origin", "feature")
    git(work, "rebase", "-q", "upstream/main")
    assert guard(work, env=pre_push(work, "origin", "feature")) == (0, "No problems found.\n", "")


def test_a_fork_branch_that_merged_upstreams_main_is_not_blamed_for_its_files(tmp_path: Path) -> None:
    work, _ = fork(tmp_path)
    git(work, "checkout", "-q", "-b", "feature")
    commit(work, {"src/app.py": "x\n"}, "my work")
    git(work, "push", "-q", "origin", "feature")
    git(work, "merge", "-q", "--no-edit", "upstream/main")
    assert guard(work, env=pre_push(work, "origin", "feature")) == (0, "No problems found.\n", "")


def test_in_a_fork_the_pushers_own_commit_is_still_judged(tmp_path: Path) -> None:
    work, _ = fork(tmp_path)
    git(work, "checkout", "-q", "-b", "feature", "upstream/main")
    mine = commit(work, {".env": "SECRET=1\n"}, "my secret")
    commit(work, {"src/app.py": "x\n"}, "my work")
    code, out, _ = guard(work, "--format", "json", env=pre_push(work, "origin", "feature"))
    assert code == 1 and found(out) == [(".env", "GRD001")]
    assert messages(out)[".env"].startswith(f"added in {mine[:7]}: ")


def test_in_a_fork_merging_another_branch_of_upstream_that_brings_a_secret_is_judged(tmp_path: Path) -> None:
    # upstream's commits are not the pusher's; what merging its legacy branch brings
    # into the pushed branch is, as a merge of the remote's own branch is.
    work, _ = fork(tmp_path)
    git(work, "checkout", "-q", "-b", "feature", "upstream/main")
    commit(work, {"src/app.py": "x\n"}, "my work")
    git(work, "push", "-q", "origin", "feature")
    git(work, "merge", "-q", "--no-ff", "--no-edit", "upstream/legacy")
    code, out, _ = guard(work, "--format", "json", env=pre_push(work, "origin", "feature"))
    assert code == 1 and found(out) == [(".env", "GRD001")]
    assert "the range's result" in messages(out)[".env"]


def test_in_a_fork_the_pushed_remotes_settings_still_judge(tmp_path: Path) -> None:
    # upstream allows its test certificates; the fork's main does not (yet): the
    # pusher's own certificate is judged by the fork's settings, as before.
    work, _ = fork(tmp_path)
    git(work, "checkout", "-q", "-b", "feature", "upstream/main")
    commit(work, {"tests/fixtures/client.crt": "CERT\n"}, "another certificate")
    code, out, _ = guard(work, "--format", "json", env=pre_push(work, "origin", "feature"))
    assert code == 1 and found(out) == [("tests/fixtures/client.crt", "GRD001")]


# --- 9. the Action on push events: the default branch's settings too -------------------


def action_on_push(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workspace: Path, event: dict[str, Any]) -> tuple[int, str]:
    """The Action's run.py, in this process, on a push event in ``workspace``."""
    event_path = tmp_path / f"event-{len(list(tmp_path.glob('event-*')))}.json"
    event_path.write_text(json.dumps(event), encoding="utf-8")
    monkeypatch.chdir(workspace)
    out = io.StringIO()
    code = load_script(REPO_ROOT / "action" / "run.py").main({"GITHUB_EVENT_PATH": str(event_path), "INPUT_PATHS": "README.md\n"}, out)
    return code, out.getvalue()


def pushed_twice(tmp_path: Path, branch: str) -> tuple[Path, str, str]:
    """origin with main; then ``branch`` gets a loosening (allow .env), pushed and
    judged on its own, and then a ``.env``, pushed: a checkout of that second push."""
    origin = bare(tmp_path, "origin")
    dev = tmp_path / "dev"
    git(tmp_path, "clone", "-q", str(origin), str(dev))
    commit(dev, {"README.md": "x\n"}, "init")
    git(dev, "push", "-q", "origin", "HEAD:refs/heads/main")
    if branch != "main":
        git(dev, "checkout", "-q", "-b", branch)
    loosened = commit(dev, {".memcheck.yaml": 'guard: {allow: ["/.env"]}\n'}, "allow .env")
    git(dev, "push", "-q", "origin", f"HEAD:refs/heads/{branch}")
    secret = commit(dev, {".env": "SECRET=1\n"}, "the .env")
    git(dev, "push", "-q", "origin", f"HEAD:refs/heads/{branch}")
    ws = tmp_path / "workspace"
    git(tmp_path, "clone", "-q", "--branch", branch, str(origin), str(ws))
    return ws, loosened, secret


def test_a_push_after_a_pushed_loosening_is_judged_by_the_default_branchs_settings_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws, loosened, secret = pushed_twice(tmp_path, "feature")
    event = {"ref": "refs/heads/feature", "before": loosened, "after": secret, "repository": {"default_branch": "main"}}
    code, out = action_on_push(tmp_path, monkeypatch, ws, event)
    assert code == 1, out
    assert "::error file=.env,line=1,col=1,title=GRD001::added in" in plain(out)
    assert "guarded=1 (guard ran)" in out


def test_a_push_to_the_default_branch_is_judged_by_its_previous_tip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # On main, the loosening pushed before is main's own (reviewed, or pushed past
    # review: either way it is what main holds), and the push after it is judged by it.
    ws, loosened, secret = pushed_twice(tmp_path, "main")
    event = {"ref": "refs/heads/main", "before": loosened, "after": secret, "repository": {"default_branch": "main"}}
    code, out = action_on_push(tmp_path, monkeypatch, ws, event)
    assert code == 0, out
    assert "guarded=0 (guard ran)" in out


def test_a_push_when_the_default_branch_cannot_be_fetched_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ws, loosened, secret = pushed_twice(tmp_path, "feature")
    event = {"ref": "refs/heads/feature", "before": loosened, "after": secret, "repository": {"default_branch": "trunk"}}
    code, out = action_on_push(tmp_path, monkeypatch, ws, event)
    assert code == 2, out
    assert "::error title=memcheck guard::" in out and "'trunk'" in out


# --- 12. tags on a tree or a blob, at a push -----------------------------------------


def pushed_main_with_a_new_commit(root: Path, tmp_path: Path) -> None:
    """main on origin, and one more clean commit of main's to push (so that the push
    has a commit, and pre-commit runs its hooks)."""
    origin = bare(tmp_path, "origin")
    git(root, "remote", "add", "origin", str(origin))
    commit(root, {"README.md": "x\n"}, "init")
    git(root, "push", "-q", "origin", "main")
    git(root, "fetch", "-q", "origin")
    commit(root, {"src/app.py": "x\n"}, "work")


def stage_and_tag_tree(root: Path, tag: str, files: dict[str, str], annotated: bool = False) -> str:
    for rel, text in files.items():
        write(root, rel, text)
    git(root, "add", "-A")
    tree = git(root, "write-tree").strip()
    git(root, "reset", "-q", "--hard")
    git(root, "clean", "-qfd")
    git(root, "tag", *(["-a", "-m", "a tree"] if annotated else []), tag, tree)
    return tree


@pytest.mark.parametrize("annotated", [False, True], ids=["lightweight", "annotated"])
def test_a_tag_on_a_tree_is_judged_by_every_path_of_the_tree(repo: Path, tmp_path: Path, annotated: bool) -> None:
    pushed_main_with_a_new_commit(repo, tmp_path)
    stage_and_tag_tree(repo, "t", {".env": "SECRET=1\n", "keys/deploy.pem": "KEY\n"}, annotated)
    code, out, _ = guard(repo, "--format", "json", env=pre_push(repo, "origin", "main"))
    assert code == 1
    assert found(out) == [(".env", "GRD001"), ("keys/deploy.pem", "GRD001")]
    assert messages(out)[".env"].startswith("added in tag t: guarded by category env")


def test_a_tag_of_a_tag_of_a_tree_is_judged(repo: Path, tmp_path: Path) -> None:
    pushed_main_with_a_new_commit(repo, tmp_path)
    stage_and_tag_tree(repo, "inner", {".aws/credentials": "[default]\n"}, annotated=True)
    git(repo, "-c", "advice.nestedTag=false", "tag", "-a", "-m", "outer", "outer", "inner")
    git(repo, "tag", "-d", "inner")
    code, out, _ = guard(repo, "--format", "json", env=pre_push(repo, "origin", "main"))
    assert code == 1 and found(out) == [(".aws/credentials", "GRD001")]
    assert messages(out)[".aws/credentials"].startswith("added in tag outer: ")


def test_a_symlink_in_a_tagged_tree_is_judged_by_its_target(repo: Path, tmp_path: Path) -> None:
    pushed_main_with_a_new_commit(repo, tmp_path)
    os.symlink("../.ssh/id_rsa", repo / "key")
    stage_and_tag_tree(repo, "t", {})
    code, out, _ = guard(repo, "--format", "json", env=pre_push(repo, "origin", "main"))
    assert code == 1 and found(out) == [("key", "GRD002")]


def test_a_tag_on_a_blob_is_judged_by_its_name(repo: Path, tmp_path: Path) -> None:
    pushed_main_with_a_new_commit(repo, tmp_path)
    key = write(tmp_path, "outside/key", "-----BEGIN PRIVATE KEY-----\n")
    git(repo, "tag", "deploy.pem", git(repo, "hash-object", "-w", str(key)).strip())
    code, out, _ = guard(repo, "--format", "json", env=pre_push(repo, "origin", "main"))
    assert code == 1 and found(out) == [("deploy.pem", "GRD001")]
    assert messages(out)["deploy.pem"].startswith("a tag on a file's content (tag deploy.pem): guarded by category keys (pattern *.pem)")


def test_tags_on_harmless_trees_and_blobs_pass(repo: Path, tmp_path: Path) -> None:
    # git.git has a tag on a blob (junio-gpg-pub), Linux one on a tree (v2.6.11-tree).
    pushed_main_with_a_new_commit(repo, tmp_path)
    stage_and_tag_tree(repo, "v2.6.11-tree", {"Makefile": "all:\n", ".env.example": "KEY=\n"})
    key = write(tmp_path, "outside/key", "public key\n")
    git(repo, "tag", "junio-gpg-pub", git(repo, "hash-object", "-w", str(key)).strip())
    assert guard(repo, env=pre_push(repo, "origin", "main")) == (0, "No problems found.\n", "")


def test_a_tree_tag_is_not_judged_outside_a_push(repo: Path) -> None:
    # A range or the staged changes judge what goes into a branch, not the tags.
    commit(repo, {"README.md": "x\n"}, "init")
    stage_and_tag_tree(repo, "t", {".env": "SECRET=1\n"})
    commit(repo, {"src/app.py": "x\n"}, "work")
    assert guard(repo, "--base", "HEAD~1") == (0, "No problems found.\n", "")


# --- 13c. settings that cannot be read fail closed -----------------------------------


def settings_that_cannot_be_read(root: Path, how: str) -> None:
    """Writes ``.memcheck.yaml`` as one that guard cannot read: YAML that does not
    parse, bytes that are not UTF-8, a link out of the repository."""
    path = root / ".memcheck.yaml"
    if path.is_symlink() or path.exists():
        path.unlink()
    if how == "yaml":
        write(root, ".memcheck.yaml", "guard: {disable: [env]\n")
    elif how == "utf-8":
        write(root, ".memcheck.yaml", b"guard: {disable: [env]}  # \xff\xfe\n")
    else:
        os.symlink("../memcheck-settings.yaml", path)  # out of the repository, to nothing


DETAILS = {"yaml": "invalid YAML", "utf-8": "cannot read: 'utf-8' codec can't decode", "link": "a symlink out of the repository"}


@pytest.mark.parametrize("how", DETAILS)
def test_a_commit_whose_settings_cannot_be_read_fails_the_range(repo: Path, how: str) -> None:
    commit(repo, {"README.md": "x\n", ".memcheck.yaml": "guard: {}\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    settings_that_cannot_be_read(repo, how)
    broken = commit(repo, {}, "settings nobody can read")
    code, out, _ = guard(repo, "--format", "json", "--base", "main")
    assert code == 1 and found(out) == [(".memcheck.yaml", "GRD003")]
    message = messages(out)[".memcheck.yaml"]
    assert message.startswith(f"cannot be read in {broken[:7]} ("), message
    assert DETAILS[how] in message
    assert any("the guard cannot tell what settings it cannot read let through" in p["message"] for p in json.loads(out)["problems"])


@pytest.mark.parametrize("how", DETAILS)
def test_staged_settings_that_cannot_be_read_fail_the_commit(repo: Path, how: str) -> None:
    commit(repo, {"README.md": "x\n", ".memcheck.yaml": "guard: {}\n"}, "init")
    settings_that_cannot_be_read(repo, how)
    git(repo, "add", "-A")
    code, out, _ = guard(repo, "--format", "json")
    assert code == 1 and found(out) == [(".memcheck.yaml", "GRD003")]
    message = messages(out)[".memcheck.yaml"]
    assert message.startswith("cannot be read ("), message
    assert DETAILS[how] in message


def test_unreadable_settings_are_quoted_only_in_part(repo: Path) -> None:
    commit(repo, {"README.md": "x\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {".memcheck.yaml": "guard: {allow: [" + "x" * 20_000 + "\n" + "y: [\n" * 50}, "a large file that does not parse")
    code, out, _ = guard(repo, "--format", "json", "--base", "main")
    assert code == 1 and found(out) == [(".memcheck.yaml", "GRD003")]
    assert len(messages(out)[".memcheck.yaml"]) < 600
    assert "x" * 200 not in out


def test_a_broken_commit_fixed_later_in_the_range_still_fails_it(repo: Path) -> None:
    # As a .env added and deleted again: the commit is in the history that is merged.
    commit(repo, {"README.md": "x\n", ".memcheck.yaml": "guard: {}\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    broken = commit(repo, {".memcheck.yaml": "guard: {disable: [env]\n"}, "typo")
    commit(repo, {".memcheck.yaml": "guard: {patterns: ['*.sqlite']}\n"}, "fixed")
    code, out, _ = guard(repo, "--format", "json", "--base", "main")
    assert code == 1 and found(out) == [(".memcheck.yaml", "GRD003")]
    assert messages(out)[".memcheck.yaml"].startswith(f"cannot be read in {broken[:7]} (")


def test_readable_settings_changes_still_pass(repo: Path) -> None:
    commit(repo, {"README.md": "x\n", ".memcheck.yaml": "guard: {}\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {".memcheck.yaml": "index: {max-lines: 150}\nguard: {patterns: ['*.sqlite']}\n"}, "tighten")
    assert guard(repo, "--base", "main") == (0, "No problems found.\n", "")


def test_settings_in_utf16_are_settings_that_cannot_be_read(repo: Path) -> None:
    commit(repo, {"README.md": "x\n"}, "init")
    write(repo, ".memcheck.yaml", "guard: {disable: [env]}\n".encode("utf-16"))
    write(repo, ".env", "SECRET=1\n")
    git(repo, "add", "-A")
    code, out, err = guard(repo)
    assert (code, err) == (1, "")
    assert ".memcheck.yaml:1:1: GRD003 cannot be read (" in out and ".env:1:1: GRD001 added" in out
