"""Which files the guard guards, and how their names are printed: a person's work on
CI, a change that removes or weakens memcheck's own hooks or workflow step (GRD003
for everyone), an agent's lock-file commit in a range, names with characters that
draw nothing in every format. Real repositories, the CLI through main(). The tables
of which paths are guarded (files that run commands, secret files by name, every
ecosystem's lock files, names with invisible characters) are judged in memory in
tests/unit/test_guard_judged_paths.py and test_guard_judged_agents.py, and held to
what git gives in tests/cli/test_guard_judged_in_memory.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import commit, git, memory, run_cli, write

AGENT_SHELL = {"CLAUDECODE": "1"}
CLAUDE_TRAILER = "\n\nCo-Authored-By: Claude <noreply@anthropic.com>"

PRE_COMMIT = """\
default_install_hook_types: [pre-commit, pre-push]
repos:
  - repo: https://github.com/memcheck/memcheck
    rev: v0.1.0
    hooks:
      - id: memcheck-fix
      - id: memcheck-guard
"""

WORKFLOW = """\
name: memcheck
on:
  pull_request:
    types: [opened, synchronize, reopened, labeled, unlabeled]
jobs:
  memcheck:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v5
        with:
          fetch-depth: 0
      - uses: memcheck/memcheck/action@v0.1.0
        id: memcheck
        with:
          sarif: memcheck.sarif
"""


def guard(root: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, list[tuple[str, str, str]]]:
    proc = run_cli(root, "guard", "--format", "json", *args, env=env)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, [(p["path"], p["code"], p["message"]) for p in json.loads(proc.stdout)["problems"]]


def codes(found: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    return [(path, code) for path, code, _ in found]


def staged(repo: Path, path: str, text: str = "x\n") -> Path:
    """A repository with one commit, and ``path`` staged in it."""
    commit(repo, {"README.md": "x\n"}, "init")
    write(repo, path, text)
    git(repo, "add", "-A")
    return repo


@pytest.fixture
def gated(repo: Path) -> Path:
    """A repository whose hooks and workflow run memcheck."""
    commit(
        repo,
        {
            "README.md": "x\n",
            ".pre-commit-config.yaml": PRE_COMMIT,
            ".github/workflows/memcheck.yml": WORKFLOW,
            "package-lock.json": "{}\n",
        },
        "init",
    )
    return repo


# --- route: a person's work on CI passes ---------------------------------------------


def test_a_persons_workflow_edit_in_a_range_passes(gated: Path) -> None:
    # A person's routine work on CI: a new workflow, an edited one, memcheck's action
    # upgraded; no memcheck step weakened.
    git(gated, "checkout", "-q", "-b", "feature")
    commit(gated, {".github/workflows/ci.yml": "on: push\njobs: {t: {runs-on: x, steps: [{run: make}]}}\n"}, "ci")
    commit(gated, {".github/workflows/memcheck.yml": WORKFLOW.replace("action@v0.1.0", "action@v0.2.0")}, "upgrade")
    commit(
        gated,
        {
            ".pre-commit-config.yaml": PRE_COMMIT.replace("v0.1.0", "v0.2.0")
            + "  - repo: local\n    hooks: [{id: x, name: x, entry: 'true', language: system}]\n"
        },
        "more hooks",
    )
    assert guard(gated, "--base", "main") == (0, [])


# --- route: removing or weakening memcheck's hooks is GRD003 for everyone ------------


@pytest.mark.parametrize(
    ("after", "what"),
    [
        ("repos: []\n", "removes the memcheck-fix hook, removes the memcheck-guard hook"),
        (PRE_COMMIT.replace("      - id: memcheck-fix\n", ""), "removes the memcheck-fix hook"),
        (
            PRE_COMMIT.replace("id: memcheck-guard", "{id: memcheck-guard, stages: [pre-commit]}"),
            "stops running the memcheck-guard hook at pre-push (stages)",
        ),
        (
            PRE_COMMIT.replace("id: memcheck-guard", "{id: memcheck-guard, entry: 'true'}"),
            "changes the command the memcheck-guard hook runs",
        ),
        (
            PRE_COMMIT.replace("id: memcheck-guard", "{id: memcheck-guard, args: [README.md]}"),
            "changes the memcheck-guard hook's args (README.md)",
        ),
        (
            PRE_COMMIT.replace("https://github.com/memcheck/memcheck", "https://github.com/someone/memcheck"),
            "takes the memcheck-fix hook from another repository",
        ),
        (PRE_COMMIT.replace("[pre-commit, pre-push]", "[pre-commit]"), "stops installing the pre-push hook (default_install_hook_types)"),
        (PRE_COMMIT + "ci: {skip: [memcheck-guard]}\n", "skips the memcheck-guard hook on pre-commit.ci (ci.skip)"),
        ("repos: [\n", "leaves it unreadable (invalid YAML"),
    ],
)
def test_weakening_the_pre_commit_hooks_is_a_loosening(gated: Path, after: str, what: str) -> None:
    message = _hooks_loosened(gated, after)
    assert message.startswith("land this on its own and have it reviewed") and f"loosens the guard: {what}" in message


def _hooks_loosened(repo: Path, after: str) -> str:
    """The one finding of ``after`` staged as the pre-commit config: GRD003."""
    write(repo, ".pre-commit-config.yaml", after)
    git(repo, "add", "-A")
    code, found = guard(repo)  # a person's commit: the agents tier does not apply
    assert code == 1 and codes(found) == [(".pre-commit-config.yaml", "GRD003")]
    return found[0][2]


MESSAGE_HOOKS = """\
default_install_hook_types: [pre-commit, prepare-commit-msg, commit-msg, pre-push]
repos:
  - repo: https://github.com/memcheck/memcheck
    rev: v0.1.0
    hooks:
      - id: memcheck-fix
      - id: memcheck-guard
      - id: memcheck-guard-message
"""


@pytest.mark.parametrize(
    ("after", "what"),
    [
        # The session-8 attack's P1: without prepare-commit-msg, an agent's cherry-pick,
        # revert or rebase of a lock-file edit runs no memcheck hook at all.
        pytest.param(
            MESSAGE_HOOKS.replace("id: memcheck-guard-message", "{id: memcheck-guard-message, stages: [commit-msg]}"),
            "stops running the memcheck-guard-message hook at prepare-commit-msg (stages)",
            id="message-hook-stages",
        ),
        pytest.param(
            MESSAGE_HOOKS.replace("      - id: memcheck-guard-message\n", ""),
            "removes the memcheck-guard-message hook",
            id="message-hook-gone",
        ),
        # P2: the hook stays in the config, and `pre-commit install` no longer installs it.
        pytest.param(
            MESSAGE_HOOKS.replace("prepare-commit-msg, commit-msg, ", ""),
            "stops installing the prepare-commit-msg hook (default_install_hook_types), "
            "stops installing the commit-msg hook (default_install_hook_types)",
            id="message-hook-types",
        ),
    ],
)
def test_weakening_the_message_hook_is_a_loosening(repo: Path, after: str, what: str) -> None:
    commit(repo, {"README.md": "x\n", ".pre-commit-config.yaml": MESSAGE_HOOKS}, "init")
    assert f"loosens the guard: {what}" in _hooks_loosened(repo, after)


def test_the_message_hook_at_its_own_stages_is_no_loosening(repo: Path) -> None:
    commit(repo, {"README.md": "x\n", ".pre-commit-config.yaml": MESSAGE_HOOKS}, "init")
    write(
        repo,
        ".pre-commit-config.yaml",
        MESSAGE_HOOKS.replace("rev: v0.1.0", "rev: v0.2.0").replace(
            "id: memcheck-guard-message", "{id: memcheck-guard-message, stages: [prepare-commit-msg, commit-msg]}"
        ),
    )
    git(repo, "add", "-A")
    assert guard(repo) == (0, [])


def test_deleting_the_pre_commit_config_is_a_loosening_in_a_range(gated: Path) -> None:
    git(gated, "checkout", "-q", "-b", "feature")
    git(gated, "rm", "-q", ".pre-commit-config.yaml")
    sha = commit(gated, {"package-lock.json": '{"v": 2}\n'}, "drop hooks" + CLAUDE_TRAILER)
    code, found = guard(gated, "--base", "main")
    assert code == 1 and codes(found) == [
        (".pre-commit-config.yaml", "GRD003"),
        (".pre-commit-config.yaml", "GRD004"),
        ("package-lock.json", "GRD004"),
    ]
    assert f"loosens the guard in {sha[:7]}: removes the memcheck-fix hook, removes the memcheck-guard hook" in found[0][2]


def test_adding_all_to_a_lint_hook_is_no_loosening(gated: Path) -> None:
    write(gated, ".pre-commit-config.yaml", PRE_COMMIT.replace("id: memcheck-fix", "{id: memcheck-fix, args: [--all]}"))
    git(gated, "add", "-A")
    assert guard(gated) == (0, [])


@pytest.mark.parametrize(
    ("after", "what"),
    [
        (WORKFLOW.replace("sarif: memcheck.sarif", "guard: off"), "turns the guard off in the memcheck step of job memcheck"),
        (
            WORKFLOW.replace("sarif: memcheck.sarif", "fail-on: never"),
            "makes no finding fail the memcheck step of job memcheck (fail-on: never)",
        ),
        (
            WORKFLOW.replace("sarif: memcheck.sarif", "override-label: ok"),
            "changes the override-label of the memcheck step of job memcheck",
        ),
        (
            WORKFLOW.replace("        id: memcheck\n", "        id: memcheck\n        continue-on-error: true\n"),
            "lets the memcheck step of job memcheck fail",
        ),
        (
            WORKFLOW.replace("        id: memcheck\n", "        id: memcheck\n        if: false\n"),
            "changes when the memcheck step of job memcheck runs (if)",
        ),
        (WORKFLOW.split("      - uses: memcheck")[0], "removes the memcheck step of job memcheck"),
        (
            WORKFLOW.replace("pull_request:\n    types", "push:\n    branches: [nowhere]\n  x:\n    types"),
            "stops running the workflow on pull_request",
        ),
        # The session-8 attack's W1: the Action reads the input stripped, in any case.
        pytest.param(
            WORKFLOW.replace("sarif: memcheck.sarif", "fail-on: NEVER"),
            "makes no finding fail the memcheck step of job memcheck (fail-on: never)",
            id="fail-on-in-capitals",
        ),
        # W2: an expression's value is worked out on the runner.
        pytest.param(
            WORKFLOW.replace("sarif: memcheck.sarif", "guard: ${{ github.actor == 'x' && 'on' || 'off' }}"),
            "sets the guard of the memcheck step of job memcheck by an expression",
            id="guard-by-expression",
        ),
        pytest.param(
            WORKFLOW.replace("sarif: memcheck.sarif", "fail-on: ${{ 'never' }}"),
            "sets the fail-on of the memcheck step of job memcheck by an expression",
            id="fail-on-by-expression",
        ),
        # W3: under pull_request_target the checkout is the base's.
        pytest.param(
            WORKFLOW.replace("  pull_request:\n", "  pull_request_target:\n"),
            "stops running the workflow on pull_request",
            id="pull-request-target",
        ),
    ],
)
def test_weakening_the_memcheck_step_of_a_workflow_is_a_loosening(gated: Path, after: str, what: str) -> None:
    git(gated, "checkout", "-q", "-b", "feature")
    commit(gated, {".github/workflows/memcheck.yml": after}, "tweak CI")
    code, found = guard(gated, "--base", "main")
    assert code == 1 and codes(found) == [(".github/workflows/memcheck.yml", "GRD003")]
    assert what in found[0][2]


def test_deleting_the_workflow_is_a_loosening(gated: Path) -> None:
    git(gated, "rm", "-q", ".github/workflows/memcheck.yml")
    code, found = guard(gated)
    assert code == 1 and codes(found) == [(".github/workflows/memcheck.yml", "GRD003")]
    assert "removes the memcheck step of job memcheck" in found[0][2]


# --- route: the lock files of other ecosystems ---------------------------------------


def test_an_agents_lockfile_commit_is_blocked(repo: Path) -> None:
    # (every ecosystem's lock file: tests/unit/test_guard_judged_agents.py)
    path = "Cargo.lock"
    commit(repo, {"README.md": "x\n", path: "1\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {path: "2\n"}, "bump" + CLAUDE_TRAILER)
    code, found = guard(repo, "--base", "main")
    assert code == 1 and codes(found) == [(path, "GRD004")] and "guarded by category lockfiles" in found[0][2]
    git(repo, "checkout", "-q", "main")
    git(repo, "checkout", "-q", "-b", "person")
    commit(repo, {path: "3\n"}, "bump")
    assert guard(repo, "--base", "main") == (0, [])


# --- route: names with characters that draw nothing ----------------------------------


@pytest.mark.parametrize(
    ("fmt", "shown"),
    [
        ("text", '"\\u200b.env":1:1: GRD001'),
        ("github", "file=%E2%80%8B.env,"),
        ("gitlab", '"path": "\\u200b.env"'),
        ("json", '"path": "\\u200b.env"'),
        ("sarif", '"uri": "%E2%80%8B.env"'),
        ("junit", 'file="\\u200b.env"'),
        ("markdown", "`\\u200b.env`"),
    ],
)
def test_a_name_with_a_zero_width_space_is_printed_visibly(repo: Path, fmt: str, shown: str) -> None:
    staged(repo, "\u200b.env", "A=1\n")
    proc = run_cli(repo, "guard", "--format", fmt)
    assert proc.returncode == 1
    assert shown in proc.stdout
    assert "\u200b" not in proc.stdout  # nowhere raw, the allow line of the message included


def test_the_engine_asks_for_the_gates_where_they_live() -> None:
    # The engine tests a change's paths against these before it imports the gates.
    from memcheck.guard import engine, gates

    assert gates.PRE_COMMIT.startswith(engine.GATE_PREFIXES) and gates.WORKFLOWS.startswith(engine.GATE_PREFIXES)


@pytest.mark.parametrize("fmt", ["text", "github", "json", "junit", "markdown"])
def test_a_name_quoted_in_a_lint_message_is_printed_visibly(repo: Path, fmt: str) -> None:
    # A memory whose name starts with a zero-width space, missing from its index:
    # the finding's message names it, and shows the character.
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n")
    write(repo, ".claude/memory/\u200bprefs.md", memory("prefs", "Prefers short answers", "user"))
    proc = run_cli(repo, "check", "--format", fmt)
    assert proc.returncode == 1 and "IDX003" in proc.stdout
    assert "\u200b" not in proc.stdout


def test_a_merge_that_restores_a_weaker_workflow_from_old_history_is_a_loosening(repo: Path) -> None:
    # main once ran memcheck with its guard off, then turned it on; a branch merges
    # that old commit by hand, taking its workflow: the merge equals a parent there,
    # so only the range's net change shows it.
    old = commit(
        repo, {"README.md": "x\n", ".github/workflows/memcheck.yml": WORKFLOW.replace("sarif: memcheck.sarif", "guard: off")}, "init"
    )
    commit(repo, {".github/workflows/memcheck.yml": WORKFLOW}, "guard on")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {"src/app.py": "x\n"}, "work")
    git(repo, "read-tree", "HEAD")
    blob = git(repo, "rev-parse", f"{old}:.github/workflows/memcheck.yml").strip()
    git(repo, "update-index", "--cacheinfo", f"100644,{blob},.github/workflows/memcheck.yml")
    merge = git(repo, "commit-tree", git(repo, "write-tree").strip(), "-p", "HEAD", "-p", old, "-m", "merge").strip()
    git(repo, "reset", "-q", "--hard", merge)
    code, found = guard(repo, "--base", "main", "--head", "feature")
    assert code == 1 and codes(found) == [(".github/workflows/memcheck.yml", "GRD003")]
    assert f"loosens the guard in the range's result {merge[:7]}" in found[0][2] and "turns the guard off" in found[0][2]
