"""Agents known by every trace they leave: an agent's address as the commit's author
or committer (git writes them from the environment), or in a trailer git folds onto
a second line; the commits a push from an agent's shell sends, whoever they name
(git's sequencer makes commits no commit hook sees); the message of the commit being
made (`--message-file`, git's prepare-commit-msg and commit-msg hooks); and a
person's own config saying, for this machine, that a variable an IDE's terminal sets
too is no agent's sign. Real repositories, the CLI through main(); beside each, what
must still pass. The tables of agents' addresses and trailers are judged in memory
in tests/unit/test_guard_judged_agents.py, and held to what git gives in
tests/cli/test_guard_judged_in_memory.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import commit, git, run_cli, write
from test_guard_history_routes import bare, pre_push

LOCK = {"package-lock.json": '{"lockfileVersion": 3}\n'}


def guard(root: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, list[tuple[str, str]], dict[str, str]]:
    """Exit code, (path, code) of each finding, and each path's whole message."""
    proc = run_cli(root, "guard", "--format", "json", *args, env=env)
    assert proc.returncode in (0, 1), proc.stderr
    problems = json.loads(proc.stdout)["problems"]
    return proc.returncode, [(p["path"], p["code"]) for p in problems], {p["path"]: p["message"] for p in problems}


@pytest.fixture
def base(repo: Path) -> Path:
    commit(repo, {"README.md": "x\n", "package-lock.json": "{}\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    return repo


# --- an agent's identity as author or committer, and any *-by trailer --------------


@pytest.mark.parametrize("role", ["author", "committer"])
def test_an_agents_address_as_author_or_committer_is_the_agents(base: Path, role: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # (every agent's address, every *-by trailer: tests/unit/test_guard_judged_agents.py)
    agent, name, email = "Claude Code", "Claude", "noreply@anthropic.com"
    # (the test's environment names the author and committer; the other stays a person)
    with monkeypatch.context() as env:
        env.setenv(f"GIT_{role.upper()}_NAME", name)
        env.setenv(f"GIT_{role.upper()}_EMAIL", email)
        commit(base, LOCK, "bump deps")
    code, found, messages = guard(base, "--base", "main")
    assert (code, found) == (1, [("package-lock.json", "GRD004")])
    assert f"{agent} made it: {role} {email}" in messages["package-lock.json"]


FOLDED = "bump deps\n\nBody text.\n\nCo-Authored-By: Claude\n <noreply@anthropic.com>\n"


def test_a_trailer_folded_onto_a_second_line_is_read_as_git_reads_it(base: Path) -> None:
    # git folds a line that starts with whitespace into the trailer above it; the
    # agent's address on that line went unseen.
    commit(base, LOCK, FOLDED)
    unfolded = git(base, "log", "-1", "--format=%(trailers:only,unfold)").strip()
    assert unfolded == "Co-Authored-By: Claude <noreply@anthropic.com>"  # git's own reading
    code, found, messages = guard(base, "--base", "main")
    assert (code, found) == (1, [("package-lock.json", "GRD004")])
    assert "Claude Code made it: " in messages["package-lock.json"]


# --- a push from an agent's shell: the commits the remote lacks are the agent's ------


def _pushed_clone(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A clone whose main is on origin, with a person's lock-file bump made by git's
    sequencer (a revert, which runs no commit hook) and not pushed yet."""
    origin = bare(tmp_path, "origin")
    work = tmp_path / "work"
    git(tmp_path, "clone", "-q", str(origin), str(work))
    commit(work, {"README.md": "x\n", "package-lock.json": "{}\n"}, "init")
    commit(work, LOCK, "bump deps")
    git(work, "push", "-q", "origin", "HEAD:refs/heads/main")
    git(work, "fetch", "-q", "origin")
    git(work, "revert", "--no-edit", "HEAD")  # what an agent runs in its shell: no pre-commit hook
    return work, pre_push(work, "origin", "HEAD", "refs/heads/main")


def test_a_push_from_an_agents_shell_judges_its_commits_as_the_agents(tmp_path: Path) -> None:
    work, push = _pushed_clone(tmp_path)
    code, found, messages = guard(work, env={**push, "CLAUDECODE": "1"})
    assert (code, found) == (1, [("package-lock.json", "GRD004")])
    assert "Claude Code pushes it: the push is made from its shell, which sets CLAUDECODE=1" in messages["package-lock.json"]


def test_the_same_push_from_a_persons_shell_passes(tmp_path: Path) -> None:
    work, push = _pushed_clone(tmp_path)
    assert guard(work, env=push)[:2] == (0, [])


# --- the commit being made: its message, author and committer ------------------------


def staged_bump(repo: Path) -> None:
    commit(repo, {"README.md": "x\n", "package-lock.json": "{}\n"}, "init")
    for rel, text in LOCK.items():
        write(repo, rel, text)
    git(repo, "add", "-A")


def test_the_message_names_the_agent_at_the_commit(repo: Path) -> None:
    staged_bump(repo)
    write(repo, ".git/COMMIT_EDITMSG", "bump deps\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n")
    code, found, messages = guard(repo, "--message-file", ".git/COMMIT_EDITMSG")
    assert (code, found) == (1, [("package-lock.json", "GRD004")])
    # A person may be committing an agent's work: told how to land it once reviewed (a new
    # user found no way through), which an agent's own shell is never told.
    assert messages["package-lock.json"].startswith(
        "unstage it (git restore --staged -- package-lock.json) and have a person make this change, or land it past the guard once a "
        "person has reviewed it (SKIP=memcheck-guard,memcheck-guard-message at the hook) (Claude Code made it: Co-Authored-By trailer"
    )


def test_a_folded_trailer_in_the_message_names_the_agent_at_the_commit(repo: Path) -> None:
    staged_bump(repo)
    write(repo, ".git/COMMIT_EDITMSG", FOLDED)
    assert guard(repo, "--message-file", ".git/COMMIT_EDITMSG")[:2] == (1, [("package-lock.json", "GRD004")])


def test_the_author_git_exports_to_the_pre_commit_hook_is_known_there(repo: Path) -> None:
    # `git commit --author "Claude <noreply@anthropic.com>"`: git exports the author to its hooks
    staged_bump(repo)
    code, found, messages = guard(repo, env={"GIT_AUTHOR_NAME": "Claude", "GIT_AUTHOR_EMAIL": "noreply@anthropic.com"})
    assert (code, found) == (1, [("package-lock.json", "GRD004")])
    assert "Claude Code made it: author noreply@anthropic.com" in messages["package-lock.json"]


def test_the_committer_the_config_names_is_known_at_the_commit(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    staged_bump(repo)
    monkeypatch.delenv("GIT_COMMITTER_EMAIL")  # git's config names the committer, as on a person's machine
    git(repo, "config", "user.email", "noreply@anthropic.com")
    write(repo, ".git/COMMIT_EDITMSG", "bump deps\n")
    code, found, _ = guard(repo, "--message-file", ".git/COMMIT_EDITMSG")
    assert (code, found) == (1, [("package-lock.json", "GRD004")])


def test_a_persons_message_passes_and_a_diff_under_the_scissors_is_not_the_message(repo: Path) -> None:
    staged_bump(repo)
    verbose = "bump deps\n# ------------------------ >8 ------------------------\n Co-Authored-By: Claude <noreply@anthropic.com>\n"
    write(repo, ".git/COMMIT_EDITMSG", verbose)
    assert guard(repo, "--message-file", ".git/COMMIT_EDITMSG")[:2] == (0, [])
    # A secret is the pre-commit hook's to judge: the message stage adds what the message tells.
    write(repo, ".env", "A=1\n")
    git(repo, "add", ".env")
    assert guard(repo, "--message-file", ".git/COMMIT_EDITMSG")[:2] == (0, [])


def test_a_message_file_that_cannot_be_read_is_an_error(repo: Path) -> None:
    staged_bump(repo)
    proc = run_cli(repo, "guard", "--message-file", "nowhere/MSG")
    assert proc.returncode == 2 and "--message-file nowhere/MSG: cannot read it" in proc.stderr and "Traceback" not in proc.stderr


# --- a person in an IDE's terminal: a per-machine opt-out no commit can set ----------


def test_a_person_may_say_claudecode_is_no_agents_sign_on_this_machine(repo: Path, tmp_path: Path) -> None:
    staged_bump(repo)
    assert guard(repo, env={"CLAUDECODE": "1"})[:2] == (1, [("package-lock.json", "GRD004")])
    git(repo, "config", "--global", "--add", "memcheck.ignoreAgentEnv", "CLAUDECODE")
    assert guard(repo, env={"CLAUDECODE": "1"})[:2] == (0, [])
    # Claude Code's own shells still are its (CLAUDE_CODE_CHILD_SESSION, which the IDE's terminal lacks)
    code, found, messages = guard(repo, env={"CLAUDECODE": "1", "CLAUDE_CODE_CHILD_SESSION": "1"})
    assert (code, found) == (1, [("package-lock.json", "GRD004")])
    assert "its shell sets CLAUDE_CODE_CHILD_SESSION=1" in messages["package-lock.json"]


def test_the_opt_out_in_the_clones_own_config_holds_too(repo: Path) -> None:
    staged_bump(repo)
    git(repo, "config", "--local", "--add", "memcheck.ignoreAgentEnv", "CLAUDECODE")
    assert guard(repo, env={"CLAUDECODE": "1"})[:2] == (0, [])
    # --signatures says so
    listed = run_cli(repo, "guard", "--signatures")
    assert "no agent's sign in this shell, by this machine's git config (memcheck.ignoreAgentEnv): CLAUDECODE" in listed.stdout
    assert json.loads(run_cli(repo, "guard", "--signatures", "--format", "json").stdout)["ignored_env"] == ["CLAUDECODE"]


def test_no_committed_file_and_no_command_line_sets_the_opt_out(repo: Path) -> None:
    staged_bump(repo)
    write(repo, "team.gitconfig", "[memcheck]\n\tignoreAgentEnv = CLAUDECODE\n")
    git(repo, "add", "team.gitconfig")
    git(repo, "config", "--local", "include.path", "../team.gitconfig")  # a file of the work tree
    assert guard(repo, env={"CLAUDECODE": "1"})[1] == [("package-lock.json", "GRD004")]
    git(repo, "config", "--local", "--unset", "include.path")
    # git -c (what an agent can add to one command) is not this machine's config
    env = {"CLAUDECODE": "1", "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "memcheck.ignoreAgentEnv", "GIT_CONFIG_VALUE_0": "CLAUDECODE"}
    assert guard(repo, env=env)[1] == [("package-lock.json", "GRD004")]
    # GIT_CONFIG_GLOBAL pointed at a file of the work tree (as a committed .envrc could)
    env = {"CLAUDECODE": "1", "GIT_CONFIG_GLOBAL": str(repo / "team.gitconfig")}
    assert guard(repo, env=env)[1] == [("package-lock.json", "GRD004")]
