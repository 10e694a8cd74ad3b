"""Every route around the gate that attackers' reviews found, each through the CLI
(main() in this process; pushes through the real pre-commit, to a bare remote,
marked e2e): a template name that exempts a folder or a symlink, an evil merge, a
push that pre-commit describes only in part, a change that decides its own policy,
quiet fall-backs and history that git can be told to hide; then (a second review) a
branch that picks its policy by its fork point, a shallow clone that cuts a range,
a merge that restores a file from outside the range, tags and lax branches at a
push, pushes by URL, names as Windows reads them, folders and links in paths mode,
and `pre-commit run --all-files`. Beside each, what must still pass."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import commit, git, plain, plain_message, run_cli, write


def guard(root: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    proc = run_cli(root, "guard", *args, env=env)
    return proc.returncode, plain(proc.stdout), proc.stderr


def paths_found(out: str) -> list[str]:
    return sorted({p["path"] for p in json.loads(out)["problems"]})


def guard_json(root: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, list[dict[str, str]]]:
    code, out, err = guard(root, "--format", "json", *args, env=env)
    assert code in (0, 1) and err == "", err
    return code, [{**p, "message": plain_message(p["message"])} for p in json.loads(out)["problems"]]


# --- 1. templates are files, and a symlink is judged by its target ----------------


def test_an_allowed_link_path_is_still_allowed(repo: Path) -> None:
    # The config's own allowance of the link (not a template name) is a decision.
    commit(repo, {".memcheck.yaml": "guard: {allow: ['/fixtures/']}\n"})
    (repo / "fixtures").mkdir()
    os.symlink("../.env", repo / "fixtures/env")
    git(repo, "add", "-A")
    assert guard(repo)[0] == 0


# --- 2. merges: what the merge itself brings -----------------------------------------


def branches_with_a_lockfile_on_main(root: Path) -> None:
    commit(root, {"README.md": "x\n"}, "init")
    git(root, "checkout", "-q", "-b", "feature")
    commit(root, {"src/app.py": "print(1)\n"}, "feature work")
    git(root, "checkout", "-q", "main")
    commit(root, {"package-lock.json": "{}\n"}, "main updates its lock file")
    git(root, "checkout", "-q", "feature")


def test_an_evil_merge_that_adds_env_is_caught(repo: Path) -> None:
    branches_with_a_lockfile_on_main(repo)
    git(repo, "merge", "-q", "--no-commit", "main")
    write(repo, ".env", "SECRET=1\n")
    git(repo, "add", ".env")
    git(repo, "commit", "-q", "-m", "merge main")
    merge = git(repo, "rev-parse", "--short=7", "HEAD").strip()
    code, problems = guard_json(repo, "--base", "main", "--head", "feature")
    assert code == 1
    assert [p["path"] for p in problems] == [".env"]  # and never main's lock file
    assert problems[0]["message"].startswith(f"added in merge {merge}: guarded by category env")


def test_merging_main_is_not_blamed_for_mains_lock_file(repo: Path) -> None:
    branches_with_a_lockfile_on_main(repo)
    git(repo, "merge", "-q", "--no-edit", "main")
    commit(repo, {"src/more.py": "x\n"}, "more")
    assert guard(repo, "--base", "main", "--head", "feature") == (0, "No problems found.\n", "")


def test_concluding_a_merge_is_judged_as_the_merge(repo: Path) -> None:
    # The pre-commit hook while a merge waits to be committed: main's lock file is
    # main's doing; the .env added while resolving is the merge's.
    branches_with_a_lockfile_on_main(repo)
    git(repo, "merge", "-q", "--no-commit", "main")
    assert guard(repo) == (0, "No problems found.\n", "")
    write(repo, ".env", "SECRET=1\n")
    git(repo, "add", ".env")
    code, problems = guard_json(repo)
    assert code == 1 and [p["path"] for p in problems] == [".env"]


def test_an_octopus_merge_that_adds_a_key_is_caught(repo: Path) -> None:
    commit(repo, {"README.md": "x\n"}, "init")
    for name in ("a", "b"):
        git(repo, "checkout", "-q", "-b", name, "main")
        commit(repo, {f"src/{name}.py": "x\n"}, name)
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-commit", "a", "b")
    write(repo, "deploy/server.key", "KEY\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "octopus")
    code, problems = guard_json(repo, "--base", "main~1", "--head", "main")
    assert code == 1
    assert [p["path"] for p in problems] == ["deploy/server.key"]


# --- 3. a push, through the real pre-commit to a bare remote -------------------------


# --- 4. the change never decides its own policy ------------------------------------


def test_an_untracked_config_does_not_allow_a_staged_env(repo: Path) -> None:
    commit(repo, {"README.md": "x\n"})
    write(repo, ".memcheck.yaml", 'guard: {allow: ["/.env"]}\n')
    write(repo, ".env", "SECRET=1\n")
    git(repo, "add", ".env")
    code, problems = guard_json(repo)
    assert code == 1 and [p["path"] for p in problems] == [".env"]


@pytest.mark.parametrize(
    ("file", "text", "loosens"),
    [
        (".memcheck.yaml", 'guard: {allow: ["/.env"]}\n', "allows /.env"),
        (".memcheck.yaml", "select: [GRD002]\n", "turns GRD001, GRD003, GRD004, GRD005 off"),
        ("pyproject.toml", '[tool.memcheck]\nignore = ["GRD001"]\n', "turns GRD001 off"),
        ("pyproject.toml", "[tool.memcheck.guard]\ncase-sensitive = true\n", "matches case-sensitively"),
    ],
)
def test_a_pull_request_that_loosens_the_guard_with_its_env(repo: Path, file: str, text: str, loosens: str) -> None:
    commit(repo, {"README.md": "x\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    sha = commit(
        repo,
        {file: text, ".env": "SECRET=1\n", ".ENV": "SECRET=1\n"} if "case" in text else {file: text, ".env": "SECRET=1\n"},
        "allow and add",
    )
    code, problems = guard_json(repo, "--base", "main", "--head", "feature")
    assert code == 1
    found = {p["path"]: p for p in problems if p["code"] != "GRD005"}  # select: [GRD002] leaves the secret rules out too
    assert ".env" in found and found[".env"]["code"] == "GRD001"
    assert found[file]["code"] == "GRD003"
    assert found[file]["message"].startswith(f"loosens the guard in {sha[:7]}: {loosens}; ")


def test_a_loosening_staged_with_its_env_is_blocked_twice(repo: Path) -> None:
    commit(repo, {"README.md": "x\n"})
    write(repo, ".memcheck.yaml", 'guard: {allow: ["/.env"]}\n')
    write(repo, ".env", "SECRET=1\n")
    git(repo, "add", "-A")
    code, out, _ = guard(repo)
    assert code == 1
    assert ".env:1:1: GRD001 added" in out
    assert ".memcheck.yaml:1:1: GRD003 loosens the guard: allows /.env; " in out


def test_a_reviewed_loosening_applies_to_what_comes_after(repo: Path) -> None:
    commit(repo, {"README.md": "x\n"}, "init")
    commit(repo, {".memcheck.yaml": 'guard: {allow: ["/.env"]}\n'}, "allow .env (reviewed)")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {".env": "LOCAL=1\n"}, "env")
    assert guard(repo, "--base", "main")[0] == 0
    write(repo, ".env", "LOCAL=2\n")
    git(repo, "add", ".env")
    assert guard(repo)[0] == 0


@pytest.mark.parametrize(
    ("file", "text"),
    [
        (".memcheck.yaml", "index: {max-lines: 150}\nguard: {patterns: ['*.sqlite']}\n"),
        ("pyproject.toml", "[tool.memcheck]\nignore = ['MEM010']\n"),
    ],
)
def test_a_lint_only_config_change_passes(repo: Path, file: str, text: str) -> None:
    commit(repo, {"README.md": "x\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {file: text}, "lint settings")
    assert guard(repo, "--base", "main") == (0, "No problems found.\n", "")
    write(repo, file, text + "# more\n")
    git(repo, "add", file)
    assert guard(repo) == (0, "No problems found.\n", "")


def test_a_tightening_passes_and_judges_only_after_it_lands(repo: Path) -> None:
    commit(repo, {"README.md": "x\n", ".memcheck.yaml": "guard: {disable: [lockfiles]}\n", "yarn.lock": "1\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {".memcheck.yaml": "guard: {}\n", "yarn.lock": "2\n"}, "turn lockfiles back on")
    assert guard(repo, "--base", "main") == (0, "No problems found.\n", "")


def test_a_range_is_judged_by_the_settings_of_its_base(repo: Path) -> None:
    commit(repo, {"README.md": "x\n", ".memcheck.yaml": "guard: {patterns: ['*.sqlite']}\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {"data/app.sqlite": "x\n", ".memcheck.yaml": "guard: {patterns: ['*.db']}\n"}, "data")
    code, problems = guard_json(repo, "--base", "main")
    assert code == 1
    assert [(p["path"], p["code"]) for p in problems] == [(".memcheck.yaml", "GRD003"), ("data/app.sqlite", "GRD001")]
    assert "drops pattern *.sqlite" in problems[0]["message"]


def test_a_base_without_config_judges_by_the_defaults(repo: Path) -> None:
    commit(repo, {"README.md": "x\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {".memcheck.yaml": "guard: {disable: [keys]}\n", "deploy.pem": "x\n"}, "both")
    code, problems = guard_json(repo, "--base", "main")
    assert code == 1
    assert [(p["path"], p["code"]) for p in problems] == [(".memcheck.yaml", "GRD003"), ("deploy.pem", "GRD001")]


def test_a_broken_config_in_the_base_is_an_error(repo: Path) -> None:
    commit(repo, {"README.md": "x\n", ".memcheck.yaml": "guard: {disable: [secretz]}\n"}, "init")
    base = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {".memcheck.yaml": "guard: {}\n"}, "fix it")
    code, out, err = guard(repo, "--base", "main")
    assert (code, out) == (2, "")
    assert err.startswith("memcheck: error: main:.memcheck.yaml: guard.disable.0: 'secretz' is not one of:")
    assert err.endswith("(guard reads its settings from main: fix them there first)\n")
    err = guard(repo, "--base", base)[2]  # a commit is named by its short id
    assert err.startswith(f"memcheck: error: {base[:7]}:.memcheck.yaml: ")


def test_broken_settings_at_head_say_how_to_commit_their_fix(repo: Path) -> None:
    commit(repo, {"README.md": "x\n", ".memcheck.yaml": "guard: {disable: [secretz]}\n"}, "init")
    write(repo, ".memcheck.yaml", "guard: {}\n")
    git(repo, "add", ".memcheck.yaml")
    code, out, err = guard(repo)
    assert (code, out) == (2, "")
    assert err.startswith("memcheck: error: HEAD:.memcheck.yaml: guard.disable.0: 'secretz' is not one of:")
    assert err.endswith("(guard reads its settings from HEAD: commit the fix past this hook, SKIP=memcheck-guard git commit)\n")


def test_editing_the_file_a_config_symlink_points_at_is_a_loosening(repo: Path) -> None:
    commit(repo, {"README.md": "x\n", "config/memcheck.yaml": "guard: {}\n"}, "init")
    os.symlink("config/memcheck.yaml", repo / ".memcheck.yaml")
    commit(repo, {}, "link the settings")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {"config/memcheck.yaml": "guard: {disable: [env]}\n", ".env": "SECRET=1\n"}, "loosen through the link")
    code, problems = guard_json(repo, "--base", "main")
    assert code == 1
    assert {(p["path"], p["code"]) for p in problems} == {(".env", "GRD001"), (".memcheck.yaml", "GRD003")}


def test_a_config_file_given_inside_the_repository_is_read_from_the_base(repo: Path) -> None:
    commit(repo, {"README.md": "x\n", "ci/memcheck.yaml": "guard: {}\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {"ci/memcheck.yaml": "guard: {disable: [env]}\n", ".env": "SECRET=1\n"}, "loosen")
    code, problems = guard_json(repo, "--base", "main", "--config", "ci/memcheck.yaml")
    assert code == 1
    assert {(p["path"], p["code"]) for p in problems} == {(".env", "GRD001"), ("ci/memcheck.yaml", "GRD003")}


def test_a_config_file_given_through_a_linked_folder_is_still_the_repositorys(repo: Path, tmp_path: Path) -> None:
    commit(repo, {"README.md": "x\n", "ci/memcheck.yaml": "guard: {}\n"}, "init")
    write(repo, "ci/memcheck.yaml", "guard: {disable: [env]}\n")  # not committed: not the settings
    write(repo, ".env", "SECRET=1\n")
    git(repo, "add", ".env")
    os.symlink(repo, tmp_path / "link")
    assert guard(repo, "--config", str(tmp_path / "link/ci/memcheck.yaml"))[0] == 1


def test_a_config_file_outside_the_repository_is_the_invokers(repo: Path, tmp_path: Path) -> None:
    commit(repo, {"README.md": "x\n"}, "init")
    outside = write(tmp_path, "ci.yaml", "guard: {disable: [env]}\n")
    write(repo, ".env", "SECRET=1\n")
    git(repo, "add", ".env")
    assert guard(repo, "--config", str(outside))[0] == 0


# --- 5. no quiet fall-back, nothing hidden --------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--base", ""], "--base is empty"), (["--base", "main", "--head", ""], "--head is empty"), (["--base", "   "], "--base is empty")],
)
def test_an_empty_ref_is_an_error(repo: Path, args: list[str], message: str) -> None:
    commit(repo, {"README.md": "x\n"})
    write(repo, ".env", "SECRET=1\n")  # untracked: staged mode would pass
    code, out, err = guard(repo, *args)
    assert (code, out) == (2, "")
    assert err.startswith(f"memcheck: error: {message}: name a branch, tag or commit")


@pytest.mark.parametrize("args", [["--base", "nope"], ["--base", "main", "--head", "nope"]])
def test_an_unknown_ref_is_an_error(repo: Path, args: list[str]) -> None:
    commit(repo, {"README.md": "x\n"})
    code, out, err = guard(repo, *args)
    assert (code, out) == (2, "")
    assert (
        err
        == "memcheck: error: unknown ref 'nope': no such commit in this repository; check the name or fetch it (git fetch origin nope)\n"
    )


def unrelated_history_with_env(root: Path) -> None:
    commit(root, {"README.md": "x\n"}, "init")
    git(root, "checkout", "-q", "-b", "feature")
    git(root, "checkout", "-q", "--orphan", "other")
    git(root, "rm", "-q", "-rf", ".")
    commit(root, {".env": "SECRET=1\n"}, "unrelated root")
    git(root, "checkout", "-q", "feature")
    git(root, "merge", "-q", "--allow-unrelated-histories", "--no-edit", "other")


def test_a_root_commit_is_judged_whatever_log_show_root_says(repo: Path) -> None:
    unrelated_history_with_env(repo)
    git(repo, "config", "log.showRoot", "false")
    code, problems = guard_json(repo, "--base", "main", "--head", "feature")
    assert code == 1 and [p["path"] for p in problems] == [".env"]


def branch_adding_and_deleting_env(root: Path) -> tuple[str, str]:
    commit(root, {"README.md": "x\n"}, "init")
    git(root, "checkout", "-q", "-b", "feature")
    secret = commit(root, {".env": "SECRET=1\n"}, "env")
    git(root, "rm", "-q", ".env")
    return secret, commit(root, {"src/a.py": "x\n"}, "remove it")


def test_a_replace_ref_hides_no_commit(repo: Path) -> None:
    secret, _ = branch_adding_and_deleting_env(repo)
    # Make the commit that adds .env look like main's: git log follows the replacement.
    git(repo, "replace", "-f", secret, "main")
    code, problems = guard_json(repo, "--base", "main", "--head", "feature")
    assert code == 1 and [p["path"] for p in problems] == [".env"]


def test_a_grafts_file_hides_no_commit(repo: Path) -> None:
    secret, removal = branch_adding_and_deleting_env(repo)
    # The commit that removes .env, grafted onto main: the one that added it is gone.
    (repo / ".git/info").mkdir(exist_ok=True)
    (repo / ".git/info/grafts").write_text(f"{removal} {git(repo, 'rev-parse', 'main').strip()}\n")
    code, problems = guard_json(repo, "--base", "main", "--head", "feature")
    assert code == 1 and [p["path"] for p in problems] == [".env"]


def test_a_submodule_ignored_by_gitmodules_is_still_seen(repo: Path, tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    git(sub, "-c", "init.defaultBranch=main", "init", "-q")
    commit(sub, {"index.js": "x\n"})
    commit(repo, {"README.md": "x\n"}, "init")
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "node_modules/lib")
    git(repo, "config", "-f", ".gitmodules", "submodule.node_modules/lib.ignore", "all")
    git(repo, "add", ".gitmodules")
    code, problems = guard_json(repo, env={"CLAUDECODE": "1"})  # from an agent's shell
    assert code == 1 and [p["path"] for p in problems] == ["node_modules/lib"]
    git(repo, "commit", "-q", "-m", "vendored", "-m", "Co-Authored-By: Claude <noreply@anthropic.com>")
    code, problems = guard_json(repo, "--base", "HEAD~1")
    assert code == 1 and [p["path"] for p in problems] == ["node_modules/lib"]


def test_diff_relative_in_a_subfolder_hides_nothing(repo: Path) -> None:
    commit(repo, {"README.md": "x\n", "src/app.py": "x\n"})
    git(repo, "config", "diff.relative", "true")
    write(repo, ".env", "SECRET=1\n")
    git(repo, "add", ".env")
    code, problems = guard_json(repo / "src")
    assert code == 1 and [p["path"] for p in problems] == [".env"]


# Settings a user or a repository may have that change what git log and git diff
# print; with all of them on, guard reads the same changes.
NOISY_GIT_SETTINGS = {
    "log.showRoot": "false",
    "log.showSignature": "true",
    "log.decorate": "full",
    "log.follow": "true",
    "format.pretty": "oneline",
    "core.abbrev": "4",
    "core.quotePath": "true",
    "color.ui": "always",
    "diff.relative": "true",
    "diff.renames": "false",
    "diff.noprefix": "true",
    "diff.mnemonicPrefix": "true",
    "diff.ignoreSubmodules": "all",
    "diff.external": "false",
    "notes.displayRef": "refs/notes/*",
}


@pytest.mark.parametrize("mode", ["staged", "range"])
def test_git_settings_change_nothing(repo: Path, mode: str) -> None:
    commit(repo, {"README.md": "x\n", "src/app.py": "x\n"})
    for key, value in NOISY_GIT_SETTINGS.items():
        git(repo, "config", key, value)
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo, "my app/\u00e9t\u00e9/.env", "SECRET=1\n")
    write(repo, "keys/server.pem", "KEY\n")
    git(repo, "add", "-A")
    if mode == "range":
        git(repo, "commit", "-q", "-m", "secrets")
    code, problems = guard_json(repo / "src", *(["--base", "main"] if mode == "range" else []))
    assert code == 1
    assert [p["path"] for p in problems] == ["keys/server.pem", "my app/\u00e9t\u00e9/.env"]


def test_git_dir_and_work_tree_from_elsewhere_use_the_repositorys_settings(repo: Path, tmp_path: Path) -> None:
    commit(repo, {"README.md": "x\n", ".memcheck.yaml": "guard: {patterns: ['*.sqlite'], disable: [lockfiles]}\n"})
    write(repo, "data/app.sqlite", "x\n")
    write(repo, "yarn.lock", "x\n")
    git(repo, "add", "-A")
    elsewhere = tmp_path / "elsewhere"
    write(elsewhere, ".memcheck.yaml", "guard: {allow: ['*.sqlite']}\n")  # not the repository's: ignored
    env = {"GIT_DIR": os.path.relpath(repo / ".git", elsewhere), "GIT_WORK_TREE": os.path.relpath(repo, elsewhere)}
    code, problems = guard_json(elsewhere, env=env)
    assert code == 1 and [p["path"] for p in problems] == ["data/app.sqlite"]
    code, out, _ = guard(elsewhere, "--list", env=env)
    assert code == 0 and "config (1; guarded for every change)\n  data/app.sqlite  [*.sqlite]\n" in out and "yarn.lock" not in out


# === a second review, of the guard as it stood after the first ========================


# --- a range: the base's settings, the whole range, its net change --------------------


def test_a_range_is_judged_by_the_settings_of_the_base_tip_not_its_fork_point(repo: Path) -> None:
    # The branch forks from a commit where main still allowed .env: main's settings
    # today judge it, whatever point it chose to fork from.
    lax = commit(repo, {"README.md": "x\n", ".memcheck.yaml": 'guard: {allow: ["/.env"]}\n'}, "lax")
    git(repo, "rm", "-q", ".memcheck.yaml")
    commit(repo, {}, "tighten")
    commit(repo, {".memcheck.yaml": "guard: {patterns: ['*.sqlite']}\n"}, "guard databases")
    git(repo, "checkout", "-q", "-b", "feature", lax)
    commit(repo, {".env": "SECRET=1\n", "db.sqlite": "x\n"}, "work")
    code, problems = guard_json(repo, "--base", "main", "--head", "feature")
    assert code == 1
    assert [(p["path"], p["code"]) for p in problems] == [(".env", "GRD001"), ("db.sqlite", "GRD001")]


def shallow_source(root: Path) -> None:
    """main (20 commits), and a branch that added .env and deleted it, then 10 more
    commits, then merged main: a clone of depth 3 holds the merge base but not the
    .env commit, one of depth 16 the whole branch but not main's first commits."""
    for i in range(20):
        commit(root, {"README.md": f"{i}\n"}, f"m0.{i}")
    git(root, "checkout", "-q", "-b", "feature")
    commit(root, {".env": "SECRET=1\n"}, "b1")
    git(root, "rm", "-q", ".env")
    commit(root, {}, "b2")
    for i in range(10):
        commit(root, {"b.txt": f"{i}\n"}, f"b{i + 3}")
    git(root, "checkout", "-q", "main")
    commit(root, {"m.txt": "2\n"}, "m2")
    git(root, "checkout", "-q", "feature")
    git(root, "merge", "-q", "--no-edit", "main")


def test_a_shallow_clone_that_cuts_the_range_is_an_error(repo: Path, tmp_path: Path) -> None:
    shallow_source(repo)
    assert guard(repo, "--base", "main", "--head", "feature")[0] == 1  # the whole history: the .env is seen
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "3", "--no-single-branch", f"file://{repo}", str(clone))
    assert git(clone, "merge-base", "origin/main", "origin/feature").strip()  # the merge base is there
    code, out, err = guard(clone, "--base", "origin/main", "--head", "origin/feature")
    assert (code, out) == (2, "")
    assert err.startswith("memcheck: error: the range reaches past the history of this shallow clone (commit ")
    assert "git fetch --unshallow" in err
    git(clone, "fetch", "-q", "--unshallow")
    assert guard(clone, "--base", "origin/main", "--head", "origin/feature")[0] == 1


def test_a_shallow_clone_without_the_base_commit_says_to_fetch_more_history(repo: Path, tmp_path: Path) -> None:
    shallow_source(repo)
    old = git(repo, "rev-parse", "main~5").strip()
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-single-branch", f"file://{repo}", str(clone))
    code, out, err = guard(clone, "--base", old, "--head", "origin/feature")
    assert (code, out) == (2, "")
    assert err.startswith(
        f"memcheck: error: unknown ref '{old}': no such commit in this shallow clone; fetch more history: git fetch --deepen="
    )
    assert "git fetch --unshallow" in err


@pytest.mark.parametrize("how", ["shallow-file", "GIT_SHALLOW_FILE"])
def test_a_shallow_list_written_by_hand_hides_nothing(repo: Path, tmp_path: Path, how: str) -> None:
    shallow_source(repo)
    cut = git(repo, "rev-parse", "feature~3").strip()
    env = None
    if how == "shallow-file":
        (repo / ".git/shallow").write_text(cut + "\n")
    else:
        (tmp_path / "shallow").write_text(cut + "\n")
        env = {"GIT_SHALLOW_FILE": str(tmp_path / "shallow")}
    code, out, err = guard(repo, "--base", "main", "--head", "feature", env=env)
    assert (code, out) == (2, "")
    assert f"(commit {cut[:12]} has parents the clone lacks)" in err


def test_a_shallow_clone_that_holds_the_whole_range_is_judged(repo: Path, tmp_path: Path) -> None:
    shallow_source(repo)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "16", "--no-single-branch", f"file://{repo}", str(clone))
    assert git(clone, "rev-parse", "--is-shallow-repository").strip() == "true"
    code, problems = guard_json(clone, "--base", "origin/main", "--head", "origin/feature")
    assert code == 1 and [p["path"] for p in problems] == [".env"]


def restoring_merge(root: Path, path: str, text: str) -> str:
    """main adds ``path`` and deletes it again; a branch then merges that old commit
    of main in a hand-made merge that takes ``path`` from it. The merge's content
    equals a parent's, so the merge itself shows nothing."""
    commit(root, {"README.md": "x\n"}, "init")
    old = commit(root, {path: text}, "leak")
    git(root, "rm", "-q", path)
    commit(root, {}, "cleanup")
    git(root, "checkout", "-q", "-b", "feature")
    commit(root, {"src/app.py": "x\n"}, "work")
    git(root, "read-tree", "HEAD")
    blob = git(root, "rev-parse", f"{old}:{path}").strip()
    git(root, "update-index", "--add", "--cacheinfo", f"100644,{blob},{path}")
    tree = git(root, "write-tree").strip()
    merge = git(root, "commit-tree", tree, "-p", "HEAD", "-p", old, "-m", "merge").strip()
    git(root, "reset", "-q", "--hard", merge)
    return merge


def test_a_merge_that_restores_a_file_from_old_base_history_is_caught(repo: Path) -> None:
    merge = restoring_merge(repo, ".env", "SECRET=1\n")
    code, problems = guard_json(repo, "--base", "main", "--head", "feature")
    assert code == 1
    assert [p["path"] for p in problems] == [".env"]
    assert problems[0]["message"].startswith(
        f"added in the range's result {merge[:7]} (a merge brought it from history outside the range): guarded by category env"
    )


def test_a_merge_that_restores_lax_settings_from_old_base_history_is_caught(repo: Path) -> None:
    restoring_merge(repo, ".memcheck.yaml", "guard: {disable: [env]}\n")
    code, problems = guard_json(repo, "--base", "main", "--head", "feature")
    assert code == 1
    assert [(p["path"], p["code"]) for p in problems] == [(".memcheck.yaml", "GRD003")]
    assert "disables category env" in problems[0]["message"]


def test_a_branch_behind_a_base_that_deleted_a_guarded_file_is_not_blamed(repo: Path) -> None:
    # main drops its lock file after the branch forked; the branch (with a merge of
    # its own) still has it, untouched: the merge keeps main's deletion.
    commit(repo, {"README.md": "x\n", "package-lock.json": "{}\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    git(repo, "checkout", "-q", "-b", "helper")
    commit(repo, {"src/helper.py": "x\n"}, "helper")
    git(repo, "checkout", "-q", "feature")
    commit(repo, {"src/app.py": "x\n"}, "work")
    git(repo, "merge", "-q", "--no-edit", "--no-ff", "helper")
    git(repo, "checkout", "-q", "main")
    git(repo, "rm", "-q", "package-lock.json")
    commit(repo, {}, "switch to pnpm")
    assert guard(repo, "--base", "main", "--head", "feature") == (0, "No problems found.\n", "")


# --- pushes: tags, the remote's default branch, pushes by URL --------------------------


# --- what `pre-commit run --all-files` cannot see ---------------------------------------


def test_nothing_staged_inside_git_commit_says_nothing(repo: Path) -> None:
    commit(repo, {"README.md": "x\n"})
    proc = run_cli(repo, "guard", env={"PRE_COMMIT": "1"})
    assert (proc.returncode, proc.stdout) == (0, "No problems found.\n")
    assert proc.stderr.startswith("memcheck guard: nothing is staged, so every tracked file was judged")
    proc = run_cli(repo, "guard", env={"PRE_COMMIT": "1", "GIT_INDEX_FILE": str(repo / ".git/index")})  # as git commit runs it
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "No problems found.\n", "")
    assert run_cli(repo, "guard").stderr == ""  # not under pre-commit


# --- paths mode and --list --------------------------------------------------------------


def test_a_folder_given_is_judged_by_what_it_holds(repo: Path) -> None:
    commit(repo, {"README.md": "x\n", ".gitignore": "ignored.env\n"})
    write(repo, "sub/id_rsa", "KEY\n")
    write(repo, "sub/notes.txt", "x\n")
    write(repo, ".env", "SECRET=1\n")
    write(repo, "ignored.env", "SECRET=1\n")  # git would not commit it
    code, problems = guard_json(repo, ".")
    assert code == 1 and [p["path"] for p in problems] == [".env", "sub/id_rsa"]
    code, problems = guard_json(repo, "sub/")
    assert code == 1 and [p["path"] for p in problems] == ["sub/id_rsa"]
    code, problems = guard_json(repo / "sub", ".")
    assert code == 1 and [p["path"] for p in problems] == ["sub/id_rsa"]


def test_a_folder_given_outside_a_repository_is_walked(tmp_path: Path) -> None:
    write(tmp_path, "proj/conf/prod.pem", "KEY\n")
    write(tmp_path, "proj/src/app.py", "x\n")
    proc = run_cli(tmp_path / "proj", "guard", "--format", "json", ".")
    assert proc.returncode == 1 and paths_found(proc.stdout) == ["conf/prod.pem"]


def test_a_path_through_a_linked_folder_is_judged_by_where_it_leads(repo: Path) -> None:
    commit(repo, {"README.md": "x\n"})
    write(repo, ".aws/credentials", "[default]\n")
    os.symlink(".aws", repo / "awsl")
    code, problems = guard_json(repo, "awsl/credentials")
    assert code == 1
    assert [(p["path"], p["code"]) for p in problems] == [("awsl/credentials", "GRD002")]
    assert "(.aws/credentials)" in problems[0]["message"]
    write(repo, "docs/guide.md", "x\n")
    os.symlink("docs", repo / "d")
    assert guard(repo, "d/guide.md") == (0, "No problems found.\n", "")


def test_list_shows_tracked_symlinks_to_guarded_paths(repo: Path) -> None:
    os.symlink(".env", repo / "l")
    os.symlink("README.md", repo / "fine")
    commit(repo, {"README.md": "x\n"})
    code, out, _ = guard(repo, "--list")
    assert code == 0
    assert "env (1; guarded for every change)\n  l -> .env  [.env]\n" in out and "fine" not in out
    code, out, _ = guard(repo, "--list", "--format", "json")
    assert json.loads(out)["categories"]["env"] == [{"path": "l", "pattern": ".env", "target": ".env"}]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-8-sig"])
def test_paths_from_a_utf16_or_bom_list(repo: Path, encoding: str) -> None:
    data = "src/app.py\r\n.env\r\n".encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    (repo / "list.txt").write_bytes(data)
    code, problems = guard_json(repo, "--paths-from", "list.txt")
    assert code == 1 and [p["path"] for p in problems] == [".env"]


def test_paths_from_utf16_without_a_bom_is_an_error(repo: Path) -> None:
    (repo / "list.txt").write_bytes("src/app.py\n.env\n".encode("utf-16-le"))
    code, out, err = guard(repo, "--paths-from", "list.txt")
    assert (code, out) == (2, "")
    assert (
        err
        == "memcheck: error: --paths-from list.txt: looks like UTF-16 without a byte-order mark; write the list as UTF-8 (or UTF-16 with a BOM)\n"
    )


def test_a_pattern_git_cannot_read_is_an_error_that_says_how_to_commit_the_fix(repo: Path) -> None:
    commit(repo, {"README.md": "x\n", ".memcheck.yaml": 'guard: {patterns: ["\\\\"]}\n'}, "a trailing backslash")
    write(repo, "src/app.py", "x\n")
    git(repo, "add", "-A")
    code, out, err = guard(repo)
    assert (code, out) == (2, "")
    assert err == (
        "memcheck: error: HEAD:.memcheck.yaml: guard.patterns.0: invalid pattern '\\\\': Invalid git pattern: '\\\\' "
        "(guard reads its settings from HEAD: commit the fix past this hook, SKIP=memcheck-guard git commit)\n"
    )


def test_format_github_writes_control_characters_in_a_name_as_text(repo: Path) -> None:
    commit(repo, {"README.md": "x\n"})
    write(repo, "a\x1b[31m\x07.env", "SECRET=1\n")
    git(repo, "add", "-A")
    code, out, _ = guard(repo, "--format", "github")
    assert code == 1
    assert "\x1b" not in out and "\x07" not in out
    assert out.startswith("::error file=a%1B[31m%07.env,line=1,col=1,title=GRD001::added: guarded by category env")  # after its remedy
