"""What a change to memcheck's hooks or its workflow step weakens (guard/gates.py),
on texts in memory; tests/cli/test_guard_files.py runs the same through git."""

from __future__ import annotations

import pytest
from conftest import HOSTILE_FRONTMATTER, SLOW_HOSTILE

from memcheck.guard.gates import is_gate, pre_commit_loosenings, workflow_loosenings

HOOKS = "repos:\n  - repo: https://github.com/memcheck/memcheck\n    rev: v0.1.0\n    hooks:\n      - id: memcheck\n      - id: memcheck-guard\n"
LOCAL = "repos:\n  - repo: local\n    hooks:\n      - {id: mc, name: mc, entry: memcheck guard, language: system, pass_filenames: false}\n"
STEP = "on:\n  pull_request:\n    types: [opened, synchronize]\njobs:\n  lint:\n    runs-on: x\n    steps:\n      - uses: memcheck/memcheck/action@v0.1.0\n"


@pytest.mark.parametrize(
    ("path", "gate"),
    [(".pre-commit-config.yaml", True), (".github/workflows/ci.yml", True), (".github/workflows/ci.yaml", True),
     ("sub/.pre-commit-config.yaml", False), (".github/workflows/scripts/x.yml", False), (".github/workflows/README.md", False)],
)  # fmt: skip
def test_is_gate(path: str, gate: bool) -> None:
    assert is_gate(path) is gate


@pytest.mark.parametrize(
    ("after", "found"),
    [
        (HOOKS, []),
        (HOOKS.replace("v0.1.0", "v0.2.0"), []),  # an upgrade, by hand or by pre-commit autoupdate
        (HOOKS.replace("https://github.com/memcheck/memcheck", "git@github.com:memcheck/memcheck.git"), []),  # the same repository
        (HOOKS.replace("id: memcheck\n", "{id: memcheck, args: [--all]}\n"), []),
        (HOOKS.replace("id: memcheck-guard", "{id: memcheck-guard, stages: [commit, push]}"), []),  # the old stage names
        (
            "default_stages: [pre-commit]\n" + HOOKS,
            ["stops running the memcheck hook at pre-merge-commit (stages)", "stops running the memcheck-guard hook at pre-push (stages)"],
        ),
        (
            HOOKS.replace("id: memcheck-guard", "{id: memcheck-guard, always_run: false, files: ^x$}"),
            ["lets the memcheck-guard hook skip commits (always_run: false)"],
        ),
        (
            HOOKS.replace("id: memcheck-guard", "{id: memcheck-guard, pass_filenames: true}"),
            ["changes the command the memcheck-guard hook runs (entry, language or pass_filenames)"],
        ),
        (HOOKS.replace("id: memcheck-guard", "{id: memcheck-guard, args: [--all]}"), ["changes the memcheck-guard hook's args (--all)"]),
        (None, ["removes the memcheck hook", "removes the memcheck-guard hook"]),
        ("[]\n", ["removes the memcheck hook", "removes the memcheck-guard hook"]),
        (
            "&a [*a]\n",
            [
                "leaves it unreadable (invalid YAML: alias *a refers to a collection that contains it (a recursive alias)), so whether memcheck's hooks still run cannot be told"
            ],
        ),
    ],
)
def test_pre_commit_loosenings(after: str | None, found: list[str]) -> None:
    assert pre_commit_loosenings(HOOKS, after) == found


def test_a_local_hook_that_runs_memcheck_is_one_of_its_hooks() -> None:
    assert pre_commit_loosenings(LOCAL, LOCAL) == []
    assert pre_commit_loosenings(LOCAL, LOCAL.replace("memcheck guard", "'true'")) == ["removes the mc hook"]
    assert pre_commit_loosenings(LOCAL, LOCAL.replace("memcheck guard", "memcheck guard --all")) == [
        "changes the command the mc hook runs (entry, language or pass_filenames)"
    ]


def test_a_config_without_memcheck_has_nothing_to_loosen() -> None:
    assert pre_commit_loosenings("repos: []\n", None) == []
    assert pre_commit_loosenings(None, HOOKS) == []
    assert pre_commit_loosenings("repos: [\n", "repos: []\n") == []  # unreadable before: nothing of it ran


@pytest.mark.parametrize(
    ("after", "found"),
    [
        (STEP, []),
        (STEP.replace("@v0.1.0", "@0123456789abcdef0123456789abcdef01234567"), []),  # pinned by hash
        (STEP.replace("types: [opened, synchronize]", "types: [opened, synchronize, labeled]"), []),  # runs on more
        (STEP.replace("types: [opened, synchronize]", "types: [opened]"), ["runs the workflow on fewer pull_request events (its filters)"]),
        (
            STEP.replace("    types: [opened, synchronize]\n", "    types: [opened, synchronize]\n    paths-ignore: ['docs/**']\n"),
            ["runs the workflow on fewer pull_request events (its filters)"],
        ),
        (STEP.replace("pull_request:", "pull_request_target:"), ["stops running the workflow on pull_request"]),
        (STEP + "        with: {guard: 'off'}\n", ["turns the guard off in the memcheck step of job lint (its guard input)"]),
        (STEP + "        with: {guard: no}\n", ["turns the guard off in the memcheck step of job lint (its guard input)"]),
        (STEP + "        with: {scope: all}\n", []),
        (STEP.replace("memcheck/memcheck/action", "someone/other/action"), ["removes the memcheck step of job lint"]),
        (
            STEP.replace("memcheck/memcheck/action", "someone/memcheck/action"),
            ["takes the memcheck step of job lint from another action (someone/memcheck/action)"],
        ),
        (
            STEP.replace("  lint:\n", "  lint:\n    continue-on-error: true\n"),
            ["lets the memcheck step of job lint fail without failing the job (continue-on-error)"],
        ),
        (STEP.replace("  lint:\n", "  lint:\n    if: false\n"), ["changes when the memcheck step of job lint runs (if)"]),
        (
            "on: [\n",
            ["leaves it unreadable (invalid YAML: while parsing a flow node), so whether memcheck's step still runs cannot be told"],
        ),
    ],
)
def test_workflow_loosenings(after: str, found: list[str]) -> None:
    assert workflow_loosenings(STEP, after) == found


def test_a_run_step_that_runs_memcheck_is_its_step() -> None:
    run = "on: pull_request\njobs:\n  g:\n    runs-on: x\n    steps:\n      - run: memcheck guard --base origin/main\n"
    assert workflow_loosenings(run, run) == []
    assert workflow_loosenings(run, run.replace("--base origin/main", "--base HEAD")) == [
        "changes the command the memcheck step of job g runs"
    ]
    assert workflow_loosenings(run, run.replace("memcheck guard", "echo")) == ["removes the memcheck step of job g"]


def test_a_workflow_without_memcheck_has_nothing_to_loosen() -> None:
    other = "on: push\njobs:\n  t:\n    runs-on: x\n    steps: [{run: make}]\n"
    assert workflow_loosenings(other, None) == []
    assert workflow_loosenings(other, "on: [\n") == []


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_HOSTILE else n for n in sorted(HOSTILE_FRONTMATTER)])
def test_a_hostile_config_is_unreadable_not_a_crash(name: str) -> None:
    text = HOSTILE_FRONTMATTER[name][0]
    (pre_commit,) = pre_commit_loosenings(HOOKS, text)
    (workflow,) = workflow_loosenings(STEP, text)
    assert pre_commit.startswith("leaves it unreadable (invalid YAML: ") and workflow.startswith("leaves it unreadable (invalid YAML: ")
