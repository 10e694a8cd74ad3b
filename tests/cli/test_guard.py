"""`memcheck guard` against real git repositories, through click's runner, through
main() and (a case of each mode, marked e2e) as a subprocess: the "Done when" cases
of issue 4, every mode, and the error cases."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Callable

import pytest
from conftest import add_env, adding, commit_all, git, invoke, plain, plain_message, run_cli, run_process, tracked, write


def settle(root: Path, text: str) -> None:
    """Commit guard settings on their own, as a reviewed change lands: staged changes
    are judged by HEAD's settings, never by the ones they bring."""
    write(root, ".memcheck.yaml", text)
    git(root, "add", ".memcheck.yaml")
    git(root, "commit", "-q", "-m", "settings", "--", ".memcheck.yaml")


def guard(root: Path, runner: str, *args: str, monkeypatch: pytest.MonkeyPatch, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `memcheck guard ARGS` run in root."""
    if runner in ("main", "subprocess"):
        proc = (run_cli if runner == "main" else run_process)(root, "guard", *args, env=env)
        return proc.returncode, plain(proc.stdout), proc.stderr
    for name, value in (env or {}).items():
        monkeypatch.setenv(name, value)
    result = invoke(root, "guard", *args, monkeypatch=monkeypatch)
    return result.exit_code, plain(result.stdout), result.stderr


# A mode's case as a real process too; the tables of cases in this process only.
RUNNERS = pytest.mark.parametrize("runner", ["click", pytest.param("subprocess", marks=pytest.mark.e2e)])
IN_PROCESS = pytest.mark.parametrize("runner", ["click", "main"])


def rename_pem_away(root: Path) -> None:
    tracked(root, "deploy.pem")
    git(root, "mv", "deploy.pem", "docs.txt")


def rename_onto_env(root: Path) -> None:
    tracked(root, "notes.txt")
    git(root, "mv", "notes.txt", ".env")


def remove_lockfile(root: Path) -> None:
    tracked(root, "package-lock.json")
    git(root, "rm", "-q", "package-lock.json")


def chmod_key(root: Path) -> None:
    tracked(root, "server.key")
    (root / "server.key").chmod(0o755)
    git(root, "add", "server.key")


def symlink_to_pem(root: Path) -> None:
    tracked(root, "deploy.pem")
    os.symlink("deploy.pem", root / "notes.txt")
    git(root, "add", "notes.txt")


def force_add_node_module(root: Path) -> None:
    write(root, ".gitignore", "node_modules/\n")
    adding("node_modules/x/i.js")(root)


BLOCKED: list[tuple[Callable[[Path], None], str, str]] = [
    (add_env, ".env:1:1: GRD001 added: guarded by category env (pattern .env)", '{allow: ["/.env"]}'),
    (rename_pem_away, "deploy.pem:1:1: GRD001 renamed to docs.txt: guarded by category keys", "/deploy.pem"),
    (rename_onto_env, ".env:1:1: GRD001 renamed from notes.txt: guarded by category env", "/.env"),
    (remove_lockfile, "package-lock.json:1:1: GRD004 deleted: guarded by category lockfiles", "/package-lock.json"),
    (chmod_key, "server.key:1:1: GRD001 mode changed 100644 -> 100755: guarded by category keys (pattern *.key)", "/server.key"),
    (symlink_to_pem, "notes.txt:1:1: GRD002 symlink added pointing to deploy.pem: guarded by category keys", '{allow: ["/notes.txt"]}'),
    (force_add_node_module, "node_modules/x/i.js:1:1: GRD004 added: guarded by category node-modules (pattern node_modules/)", ""),
]


@IN_PROCESS
@pytest.mark.parametrize(("setup", "line", "allow"), BLOCKED, ids=[case[0].__name__ for case in BLOCKED])
def test_blocked(repo: Path, runner: str, setup: Callable[[Path], None], line: str, allow: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """From an agent's shell, every tier guards the commit; the agent reads the message,
    which never says how to let the change through (the allow line a person's does)."""
    setup(repo)
    code, out, err = guard(repo, runner, monkeypatch=monkeypatch, env={"CLAUDECODE": "1"})
    assert (code, err) == (1, "")
    assert line in out
    assert (not allow or allow not in out) and "put in .memcheck.yaml" not in out and "SKIP=" not in out
    assert out.endswith("Found 1 problem (1 error, 0 warnings).\n")
    monkeypatch.delenv("CLAUDECODE", raising=False)
    person = guard(repo, "main", monkeypatch=monkeypatch)[1]
    assert allow in person or person == "No problems found.\n"  # (a person's lock-file change passes: nothing to allow)


def test_the_suggested_allow_line_allows_the_path(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    adding("my app/.env")(repo)
    _, out, _ = guard(repo, "click", monkeypatch=monkeypatch)
    line = out.split("put in .memcheck.yaml: ")[1].splitlines()[0]
    settle(repo, line + "\n")
    assert guard(repo, "click", monkeypatch=monkeypatch)[:2] == (0, "No problems found.\n")
    write(repo, "other/.env", "B=2\n")
    git(repo, "add", "other/.env")
    assert guard(repo, "click", monkeypatch=monkeypatch)[0] == 1


@RUNNERS
def test_editing_the_readme_passes(repo: Path, runner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    tracked(repo)
    write(repo, "README.md", "# project\n\nMore.\n")
    git(repo, "add", "README.md")
    assert guard(repo, runner, monkeypatch=monkeypatch) == (0, "No problems found.\n", "")


def test_nothing_staged_before_the_first_commit_passes(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert guard(repo, "click", monkeypatch=monkeypatch)[0] == 0
    write(repo, ".env", "A=1\n")
    git(repo, "add", ".env")
    assert guard(repo, "click", monkeypatch=monkeypatch)[0] == 1


def test_only_staged_changes_count(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tracked(repo)
    write(repo, ".env", "not staged\n")
    assert guard(repo, "click", monkeypatch=monkeypatch)[0] == 0


def test_copy_of_a_guarded_file_names_both_sides(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "deploy.pem", "".join(f"line {i}\n" for i in range(40)))
    commit_all(repo)
    write(repo, "deploy.pem", "".join(f"line {i}\n" for i in range(41)))
    write(repo, "backup.txt", "".join(f"line {i}\n" for i in range(40)))
    git(repo, "add", "-A")
    code, out, _ = guard(repo, "click", "--format", "json", monkeypatch=monkeypatch)
    messages = {p["path"]: plain_message(p["message"]) for p in json.loads(out)["problems"]}
    assert code == 1
    assert messages["deploy.pem"].startswith("copied to backup.txt, modified:") or messages["deploy.pem"].startswith(
        "modified, copied to backup.txt:"
    )


def test_type_change_to_a_symlink_pointing_outside(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tracked(repo, "config.txt")
    (repo / "config.txt").unlink()
    os.symlink("../../home/me/.aws/credentials", repo / "config.txt")
    git(repo, "add", "config.txt")
    code, out, _ = guard(repo, "click", monkeypatch=monkeypatch)
    assert code == 1
    assert "GRD002 symlink changed pointing to ../../home/me/.aws/credentials (home/me/.aws/credentials): guarded by category aws" in out


def test_symlink_to_an_ordinary_file_passes(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tracked(repo, "docs/guide.md")
    os.symlink("docs/guide.md", repo / "GUIDE.md")
    git(repo, "add", "GUIDE.md")
    assert guard(repo, "click", monkeypatch=monkeypatch)[0] == 0


# --- names git could mangle ---------------------------------------------------


def test_a_newline_in_a_name_cannot_hide_or_forge_a_finding(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tracked(repo)
    write(repo, "my\napp/.env", "A=1\n")
    write(repo, "notes\n.env:1:1: fake.txt", "x\n")
    git(repo, "add", "-A")
    code, out, _ = guard(repo, "main", monkeypatch=monkeypatch)
    assert code == 1
    assert out.splitlines()[0].startswith('"my\\napp/.env":1:1: GRD001 added')
    assert len(out.splitlines()) == 2  # one finding and the summary: the fake name is not one
    code, out, _ = guard(repo, "main", "--format", "json", monkeypatch=monkeypatch)
    assert [p["path"] for p in json.loads(out)["problems"]] == ["my\napp/.env"]


def test_unicode_names_are_matched_after_nfc(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tracked(repo)
    settle(repo, 'guard: {patterns: ["caf\u00e9-notes.txt"]}\n')
    write(repo, "cafe\u0301-notes.txt", "x\n")  # decomposed, as macOS writes it
    git(repo, "add", "-A")
    code, out, _ = guard(repo, "click", monkeypatch=monkeypatch)
    assert code == 1
    assert "guarded by category config (pattern caf\u00e9-notes.txt)" in out


# --- ranges and pre-push --------------------------------------------------------


def branch_adding_and_deleting_env(root: Path) -> None:
    tracked(root)
    git(root, "checkout", "-q", "-b", "feature")
    write(root, ".env", "SECRET=1\n")
    commit_all(root, "add env")
    git(root, "rm", "-q", ".env")
    write(root, "src/app.py", "print(1)\n")
    commit_all(root, "remove env")


@RUNNERS
def test_range_is_judged_commit_by_commit(repo: Path, runner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    branch_adding_and_deleting_env(repo)
    assert git(repo, "diff", "--name-only", "main...feature") == "src/app.py\n"  # the net diff is clean
    code, out, err = guard(repo, runner, "--base", "main", "--head", "feature", monkeypatch=monkeypatch)
    added, deleted = git(repo, "log", "--reverse", "--format=%h", "--abbrev=7", "main..feature").split()
    assert (code, err) == (1, "")
    assert f".env:1:1: GRD001 added in {added}, deleted in {deleted}: guarded by category env" in out


@RUNNERS
def test_renames_in_a_range_are_named_as_renames(repo: Path, runner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The range is read without rename detection (it is what makes git log slow) and
    # the commits with findings again with it: the wording is the same as for a commit.
    tracked(repo, "deploy.pem", "notes.txt", "docs/a.md")
    git(repo, "checkout", "-q", "-b", "feature")
    git(repo, "mv", "deploy.pem", "docs.txt")
    commit_all(repo, "rename the key away")
    git(repo, "mv", "notes.txt", ".env")
    git(repo, "mv", "docs/a.md", "docs/b.md")
    commit_all(repo, "rename onto .env, and an unguarded rename beside it")
    away, onto = git(repo, "log", "--reverse", "--format=%h", "--abbrev=7", "main..feature").split()
    code, out, err = guard(repo, runner, "--base", "main", "--head", "feature", monkeypatch=monkeypatch)
    assert (code, err) == (1, "")
    assert f"deploy.pem:1:1: GRD001 renamed to docs.txt in {away}: guarded by category keys" in out
    assert f".env:1:1: GRD001 renamed from notes.txt in {onto}: guarded by category env" in out
    assert out.endswith("Found 2 problems (2 errors, 0 warnings).\n")


def test_range_head_defaults_to_HEAD_and_starts_at_the_merge_base(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    branch_adding_and_deleting_env(repo)
    git(repo, "checkout", "-q", "main")
    write(repo, "yarn.lock", "# on main after the branch\n")
    commit_all(repo, "main moves on")
    git(repo, "checkout", "-q", "feature")
    code, out, _ = guard(repo, "click", "--base", "main", monkeypatch=monkeypatch)
    assert code == 1
    assert ".env" in out and "yarn.lock" not in out


def test_clean_range_passes(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tracked(repo)
    git(repo, "checkout", "-q", "-b", "feature")
    write(repo, "src/tokenizer.py", "x\n")
    commit_all(repo, "code")
    assert guard(repo, "click", "--base", "main", monkeypatch=monkeypatch)[:2] == (0, "No problems found.\n")


@RUNNERS
def test_pre_push_refs_from_pre_commit(repo: Path, runner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    branch_adding_and_deleting_env(repo)
    env = {"PRE_COMMIT_FROM_REF": git(repo, "rev-parse", "main").strip(), "PRE_COMMIT_TO_REF": git(repo, "rev-parse", "feature").strip()}
    code, out, _ = guard(repo, runner, monkeypatch=monkeypatch, env=env)
    assert code == 1
    assert ".env:1:1: GRD001 added in" in out


def test_explicit_range_wins_over_pre_push_refs(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    branch_adding_and_deleting_env(repo)
    env = {"PRE_COMMIT_FROM_REF": "main", "PRE_COMMIT_TO_REF": "feature"}
    assert guard(repo, "click", "--base", "feature", monkeypatch=monkeypatch, env=env)[0] == 0


# --- explicit paths -------------------------------------------------------------


@RUNNERS
def test_paths_as_arguments(repo: Path, runner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = guard(repo, runner, "src/tokenizer.py", "apps/web/.env.local", "docs/guide.md", monkeypatch=monkeypatch)
    assert code == 1
    assert out.startswith("apps/web/.env.local:1:1: GRD001 listed: guarded by category env")
    assert guard(repo, runner, "src/tokenizer.py", monkeypatch=monkeypatch)[0] == 0


def test_paths_are_relative_to_the_working_folder(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / "apps").mkdir()
    code, out, _ = guard(repo / "apps", "click", "web/.env", monkeypatch=monkeypatch)
    assert code == 1
    assert out.startswith("apps/web/.env:1:1:")


@pytest.mark.parametrize("separator", ["\0", "\n", "\r\n"], ids=["nul", "newline", "crlf"])
def test_paths_from_a_file(repo: Path, separator: str, monkeypatch: pytest.MonkeyPatch) -> None:
    names = ["src/main.py", "my app/.env", "keys/deploy.pem"]
    write(repo, "list.txt", separator.join(names) + separator)
    code, out, _ = guard(repo, "click", "--paths-from", "list.txt", monkeypatch=monkeypatch)
    assert code == 1
    assert [line.split(":")[0] for line in out.splitlines()[:-1]] == ["keys/deploy.pem", "my app/.env"]


def test_paths_from_standard_input_keeps_newlines_in_nul_lists(repo: Path) -> None:
    proc = run_cli(repo, "guard", "--paths-from", "-", "--format", "json", input="src/a.py\0my\napp/.env\0")
    assert proc.returncode == 1
    assert [p["path"] for p in json.loads(proc.stdout)["problems"]] == ["my\napp/.env"]
    proc = run_cli(repo, "guard", "--paths-from", "-", input="src/a.py\nREADME.md\n")
    assert (proc.returncode, proc.stdout) == (0, "No problems found.\n")


def test_paths_mode_works_outside_a_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert guard(tmp_path, "click", ".aws/credentials", monkeypatch=monkeypatch)[0] == 1


def test_listed_folder_and_symlink(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / "dist").mkdir()
    os.symlink("secrets/.env", repo / "settings")
    code, out, _ = guard(repo, "click", "dist", "settings", monkeypatch=monkeypatch)
    assert code == 1
    assert "dist" not in out  # build outputs are guarded from agents' changes only
    assert "settings:1:1: GRD002 symlink added pointing to secrets/.env" in out
    code, out, _ = guard(repo, "click", "dist", "settings", monkeypatch=monkeypatch, env={"CLAUDECODE": "1"})
    assert "dist:1:1: GRD004 listed: guarded by category build-outputs" in out
    assert "settings:1:1: GRD002 symlink added pointing to secrets/.env" in out


# --- errors ---------------------------------------------------------------------


@RUNNERS
def test_not_a_git_repository(tmp_path: Path, runner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = guard(tmp_path, runner, monkeypatch=monkeypatch)
    assert (code, out) == (2, "")
    assert err.startswith("memcheck: error: not a git repository: ")
    assert err.count("\n") == 1


@RUNNERS
def test_unknown_ref(repo: Path, runner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    tracked(repo)
    code, out, err = guard(repo, runner, "--base", "origin/nope", monkeypatch=monkeypatch)
    assert (code, out) == (2, "")
    assert (
        err
        == "memcheck: error: unknown ref 'origin/nope': no such commit in this repository; check the name or fetch it (git fetch origin origin/nope)\n"
    )


def test_usage_errors(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tracked(repo)
    code, _, err = guard(repo, "click", "--head", "main", monkeypatch=monkeypatch)
    assert (code, err) == (2, "memcheck: error: --head needs --base: the range is judged from their merge base\n")
    code, _, err = guard(repo, "click", "--base", "main", "x.py", monkeypatch=monkeypatch)
    assert (code, err) == (2, "memcheck: error: give paths or --base/--head, not both\n")
    code, _, err = guard(repo, "click", "--paths-from", "missing.txt", monkeypatch=monkeypatch)
    assert code == 2 and err.startswith("memcheck: error: --paths-from missing.txt: cannot read:")


def test_shallow_clone_without_the_merge_base_says_how_to_fetch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    origin = tmp_path / "origin"
    origin.mkdir()
    git(origin, "-c", "init.defaultBranch=main", "init", "-q")
    tracked(origin)
    git(origin, "checkout", "-q", "-b", "feature")
    for i in range(4):
        write(origin, f"src/f{i}.py", "x\n")
        commit_all(origin, f"feature {i}")
    write(origin, ".env", "A=1\n")
    commit_all(origin, "env")
    git(origin, "checkout", "-q", "main")
    for i in range(4):
        write(origin, f"src/m{i}.py", "x\n")
        commit_all(origin, f"main {i}")
    subprocess.run(["git", "clone", "-q", "--depth", "2", "--no-single-branch", origin.as_uri(), str(tmp_path / "clone")], check=True)
    clone = tmp_path / "clone"
    code, out, err = guard(clone, "click", "--base", "origin/main", "--head", "origin/feature", monkeypatch=monkeypatch)
    assert (code, out) == (2, "")
    assert err.startswith(
        "memcheck: error: no merge base of origin/main and origin/feature in this shallow clone (2 commits deep from origin/feature); "
    )
    assert "git fetch --deepen=50" in err and "git fetch --unshallow" in err and err.count("\n") == 1
    git(clone, "fetch", "-q", "--deepen=50")
    code, out, _ = guard(clone, "click", "--base", "origin/main", "--head", "origin/feature", monkeypatch=monkeypatch)
    assert code == 1 and ".env:1:1: GRD001 added in" in out


def test_unknown_category_is_a_config_error(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tracked(repo)
    settle(repo, "guard: {disable: [secretz]}\n")
    code, _, err = guard(repo, "click", monkeypatch=monkeypatch)
    assert code == 2
    assert err.startswith("memcheck: error: HEAD:.memcheck.yaml: guard.disable.0: 'secretz' is not one of: env, credentials,")


def test_invalid_pattern_is_a_config_error(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tracked(repo)
    settle(repo, "guard: {patterns: ['[z-a].txt']}\n")
    code, _, err = guard(repo, "click", monkeypatch=monkeypatch)
    assert code == 2
    assert err.startswith("memcheck: error: HEAD:.memcheck.yaml: guard.patterns.0: invalid pattern '[z-a].txt': bad character range")


# --- output ---------------------------------------------------------------------


@RUNNERS
def test_json_output(repo: Path, runner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rename_onto_env(repo)
    code, out, _ = guard(repo, runner, "--format", "json", monkeypatch=monkeypatch)
    doc = json.loads(out)
    assert code == 1
    assert doc["summary"] == {"problems": 1, "errors": 1, "warnings": 0, "fixable": 0}
    (problem,) = doc["problems"]
    assert problem["code"] == "GRD001" and problem["path"] == ".env" and problem["severity"] == "error"
    assert problem["message"].startswith("unstage it (git restore --staged -- .env) and rotate any secret it holds")
    assert plain_message(problem["message"]).startswith("renamed from notes.txt: guarded by category env (pattern .env); to allow it")


@RUNNERS
def test_list_shows_what_is_guarded_today(repo: Path, runner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    tracked(repo, ".env.example", "config/server.pem", "apps/web/.env.local", "src/tokenizer.py", "yarn.lock")
    code, out, _ = guard(repo, runner, "--list", monkeypatch=monkeypatch)
    assert code == 0
    assert out == (
        "env (1; guarded for every change)\n  apps/web/.env.local  [.env.*]\n"
        "keys (1; guarded for every change)\n  config/server.pem  [*.pem]\n"
        "lockfiles (1; guarded for an agent's changes)\n  yarn.lock  [yarn.lock]\n"
        "3 guarded paths in 3 categories.\n"
    )
    code, out, _ = guard(repo, runner, "--list", "--format", "json", monkeypatch=monkeypatch)
    assert json.loads(out)["categories"]["keys"] == [{"path": "config/server.pem", "pattern": "*.pem"}]
    assert json.loads(out)["tiers"] == {"env": "secrets", "keys": "secrets", "lockfiles": "agents"}


def test_list_of_a_clean_tree(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tracked(repo, "src/main.py")
    assert guard(repo, "click", "--list", monkeypatch=monkeypatch) == (0, "No guarded paths in the tree.\n", "")


# --- a secret's file committed long ago: deleting it is the remedy ---------------

UNTRACKED = "GRD001 rotate any secret it holds (deleting it stops tracking it, but it stays in the history, in every clone"


@RUNNERS
@pytest.mark.parametrize("how", [("rm", "-q", "--cached", ".env"), ("rm", "-q", ".env")], ids=["cached", "from-disk"])
def test_stopping_tracking_a_committed_env_passes_with_a_warning(
    repo: Path, runner: str, how: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    tracked(repo, ".env")
    git(repo, *how)
    code, out, err = guard(repo, runner, monkeypatch=monkeypatch, env={"CLAUDECODE": "1"})  # an agent's commit too
    assert (code, err) == (0, "")
    assert (
        out == ".env:1:1: GRD001 deleted: guarded by category env (pattern .env)\nFound 1 problem (0 errors, 1 warning).\n"
    )  # nothing to allow: it passes
    whole = run_cli(repo, "guard").stdout  # (plain() drops the remedy)
    assert whole.startswith(
        f".env:1:1: {UNTRACKED}: to purge it, rewrite the history; add it to .gitignore so it is not added again). deleted: "
    )


def test_a_range_that_stops_tracking_a_committed_key_passes(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tracked(repo, "deploy/id_rsa")
    git(repo, "checkout", "-q", "-b", "feature")
    git(repo, "rm", "-q", "--cached", "deploy/id_rsa")
    git(repo, "commit", "-qm", "stop tracking the key")
    proc = run_cli(repo, "guard", "--base", "main", "--head", "feature")
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.startswith(f"deploy/id_rsa:1:1: {UNTRACKED}")
    assert " deleted in " in proc.stdout


def test_a_rename_of_a_secret_is_not_a_deletion(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The secret goes on under another name: both sides still fail.
    tracked(repo, ".env")
    git(repo, "mv", ".env", "settings.txt")
    code, out, _ = guard(repo, "click", monkeypatch=monkeypatch)
    assert code == 1
    assert ".env:1:1: GRD001 renamed to settings.txt: guarded by category env" in out


def test_a_lock_file_moved_into_the_secrets_tier_is_still_guarded_when_deleted(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Only a secret's file is let go: a lock file holds none.
    tracked(repo, "package-lock.json")
    settle(repo, "guard: {tiers: {lockfiles: secrets}}\n")
    git(repo, "rm", "-q", "package-lock.json")
    code, out, _ = guard(repo, "click", monkeypatch=monkeypatch)
    assert code == 1
    assert out.startswith("package-lock.json:1:1: GRD001 deleted: guarded by category lockfiles")


def test_the_whole_tree_asks_to_stop_tracking_a_committed_env(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tracked(repo, ".env")
    proc = run_cli(repo, "guard", env={"PRE_COMMIT": "1"})  # (plain() would drop the remedy)
    assert proc.returncode == 1
    assert proc.stdout.startswith(
        ".env:1:1: GRD001 stop tracking it (git rm --cached -- .env, add it to .gitignore, and commit: the guard lets a deletion through)"
    )


# --- a team's first config: a person's loosening passes at the hook, CI reviews it ---

FIRST_CONFIG = 'guard:\n  allow: ["/tests/fixtures/"]\n'


def _pushed(repo: Path, tmp_path: Path, *files: str) -> None:
    """A first commit (holding ``files``) pushed to an origin's main, as fetched."""
    tracked(repo, *files)
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "origin", "HEAD:refs/heads/main")
    git(repo, "fetch", "-q", "origin")


def test_an_agents_settings_change_is_never_told_how_to_pass_the_guard(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # GRD004 told the agent to add an allow line, the allow line's GRD003 told it to SKIP
    # the hook, and it did (found by an outside attacker): the agent reads the findings.
    write(repo, ".memcheck.yaml", FIRST_CONFIG)
    git(repo, "add", ".memcheck.yaml")
    code, out, _ = guard(repo, "main", monkeypatch=monkeypatch, env={"CLAUDECODE": "1"})
    assert code == 1 and ".memcheck.yaml:1:1: GRD003 have a person review this and land it on its own. loosens the guard" in out
    assert "SKIP=" not in out and "override label" not in out


def test_a_persons_first_guard_allow_passes_at_commit_and_push_and_fails_in_the_pull_request(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _pushed(repo, tmp_path)
    write(repo, ".memcheck.yaml", FIRST_CONFIG)
    git(repo, "add", ".memcheck.yaml")
    code, out, _ = guard(repo, "click", monkeypatch=monkeypatch)
    assert code == 0, out
    assert (
        out
        == ".memcheck.yaml:1:1: GRD003 loosens the guard: allows /tests/fixtures/; a change is judged by the settings before it\nFound 1 problem (0 errors, 1 warning).\n"
    )
    told = run_cli(repo, "guard").stdout
    assert (
        "GRD003 a person's change passes at their own commit and push (the pull request fails until a maintainer reviews it and adds the override label)."
        in told
    )
    # From an agent's shell, it fails at the hook.
    assert (
        guard(repo, "main", monkeypatch=monkeypatch, env={"CLAUDECODE": "1"})[0] == 1
    )  # (for this call only: the push below is a person's)
    git(repo, "commit", "-qm", "adopt memcheck")
    head = git(repo, "rev-parse", "HEAD").strip()
    push = {
        "PRE_COMMIT_REMOTE_NAME": "origin",
        "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/main",
        "PRE_COMMIT_FROM_REF": "origin/main",
        "PRE_COMMIT_TO_REF": head,
    }
    pushed = run_cli(repo, "guard", env=push)
    assert pushed.returncode == 0, pushed.stdout
    assert "GRD003 a person's change passes" in pushed.stdout
    # The pull request (a range CI names) fails until a maintainer adds the label.
    reviewed = run_cli(repo, "guard", "--base", "origin/main", "--head", "HEAD")
    assert reviewed.returncode == 1, reviewed.stdout
    assert "GRD003 land this on its own and have it reviewed" in reviewed.stdout
    assert run_cli(repo, "guard", "--base", "origin/main", "--head", "HEAD", "--allow-label", "memcheck-override").returncode == 0


def test_an_agents_commit_that_loosens_the_guard_fails_at_push(repo: Path, tmp_path: Path) -> None:
    _pushed(repo, tmp_path)
    write(repo, ".memcheck.yaml", FIRST_CONFIG)
    git(repo, "add", ".memcheck.yaml")
    git(repo, "commit", "-qm", "allow fixtures\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
    head = git(repo, "rev-parse", "HEAD").strip()
    push = {
        "PRE_COMMIT_REMOTE_NAME": "origin",
        "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/main",
        "PRE_COMMIT_FROM_REF": "origin/main",
        "PRE_COMMIT_TO_REF": head,
    }
    proc = run_cli(repo, "guard", env=push)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "GRD003 land this on its own and have it reviewed" in proc.stdout


def test_an_agents_lock_file_bump_at_push_names_skip_as_well_as_the_label(repo: Path, tmp_path: Path) -> None:
    # At pre-push there is no pull request yet: the way past the hook is SKIP.
    _pushed(repo, tmp_path, "package-lock.json")
    write(repo, "package-lock.json", "{}\n")
    git(repo, "commit", "-qam", "bump\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
    push = {
        "PRE_COMMIT_REMOTE_NAME": "origin",
        "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/main",
        "PRE_COMMIT_FROM_REF": "origin/main",
        "PRE_COMMIT_TO_REF": "HEAD",
    }
    proc = run_cli(repo, "guard", env=push)
    assert proc.returncode == 1
    assert proc.stdout.startswith(
        "package-lock.json:1:1: GRD004 drop it from the agent's commit and have a person make this change, or land it past the guard once a person has reviewed it "
        "(SKIP=memcheck-guard at the hook; the override label in a pull request) (Claude Code made it: "
    ), proc.stdout


def test_guard_takes_the_report_options_check_has(repo: Path) -> None:
    # -o, -q, --exit-zero and --color, as check and fix take them.
    tracked(repo)
    write(repo, ".env", "A=1\n")
    git(repo, "add", ".env")
    quiet = run_cli(repo, "guard", "-q")
    assert quiet.returncode == 1 and quiet.stdout.startswith(".env:1:1: GRD001 ") and "Found" not in quiet.stdout
    assert run_cli(repo, "guard", "--exit-zero").returncode == 0
    written = run_cli(repo, "guard", "-o", "out/guard.json", "--format", "json")
    assert written.returncode == 1 and written.stdout == ""
    assert json.loads((repo / "out/guard.json").read_text(encoding="utf-8"))["problems"][0]["code"] == "GRD001"
    colored = run_cli(repo, "guard", "--color", "always")
    assert "\x1b[" in colored.stdout
    from click.testing import CliRunner  # the options themselves: those check has, but its policy's

    from memcheck.cli import cli

    names = {name: {o for p in cli.commands[name].params for o in p.opts} for name in ("check", "guard")}
    assert names["check"] - names["guard"] == {
        "--select",
        "--ignore",
        "--fail-on",
        "--baseline",
        "--changed",
        "--new-since",
        "--all",
        "--no-cache",
        "--statistics",
        "--write-baseline",
        "--user",
        "--fix",
        "-v",
        "--verbose",
    }
    assert CliRunner().invoke(cli, ["guard", "--help"]).exit_code == 0
