"""`memcheck guard --allow-label NAME` (the override label of a pull request, which
the GitHub Action passes when the pull request carries it) and `--settings-from REF`
(more commits whose settings judge a range, which the Action passes on a push)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import commit, git, run_cli

AGENT = "Co-Authored-By: Claude <noreply@anthropic.com>"


def guard_json(root: Path, *args: str) -> tuple[int, list[dict[str, Any]]]:
    proc = run_cli(root, "guard", "--format", "json", *args)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout)["problems"]


def test_the_label_lets_an_agents_change_and_a_loosening_through_as_warnings(repo: Path) -> None:
    base = commit(repo, {"README.md": "x\n"}, "init")
    commit(repo, {"package-lock.json": "{}\n"}, f"bump\n\n{AGENT}")
    commit(repo, {".memcheck.yaml": "guard: {disable: [lockfiles]}\n"}, "looser")
    code, problems = guard_json(repo, "--base", base)
    assert code == 1 and {(p["code"], p["severity"]) for p in problems} == {("GRD004", "error"), ("GRD003", "error")}
    code, problems = guard_json(repo, "--base", base, "--allow-label", "memcheck-override")
    assert code == 0
    assert {(p["code"], p["severity"]) for p in problems} == {("GRD004", "warning"), ("GRD003", "warning")}
    assert all(p["message"].endswith(" (allowed: the pull request has the label 'memcheck-override')") for p in problems)


def test_no_label_lets_a_secret_through(repo: Path) -> None:
    base = commit(repo, {"README.md": "x\n"}, "init")
    commit(repo, {".env": "KEY=x\n"}, "secret")
    code, problems = guard_json(repo, "--base", base, "--allow-label", "memcheck-override")
    assert code == 1
    assert [(p["path"], p["code"], p["severity"]) for p in problems] == [(".env", "GRD001", "error")]
    assert "allowed" not in problems[0]["message"]


def test_settings_from_judges_the_range_by_the_strictest_settings_too(repo: Path) -> None:
    strict = commit(repo, {"README.md": "x\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    loosened = commit(repo, {".memcheck.yaml": 'guard: {allow: ["/.env"]}\n'}, "allow .env")
    commit(repo, {".env": "KEY=x\n"}, "the .env")
    assert guard_json(repo, "--base", loosened) == (0, [])  # the loosening judges what comes after it
    code, problems = guard_json(repo, "--base", loosened, "--settings-from", strict)
    assert code == 1 and [(p["path"], p["code"]) for p in problems] == [(".env", "GRD001")]
