"""`memcheck guard --allow-label NAME` (the override label of a pull request, a
maintainer's word), `--override-label NAME --event FILE` (the label judged by the GitHub
event, which the Action passes), `--settings-from REF` (more commits whose settings judge
a range, which the Action passes on a push), and the Markdown section the Action's job
summary ends with."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
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


LABEL = "memcheck-override"


def labeled(tmp_path: Path, sender: dict[str, str], labels: tuple[str, ...] = (LABEL,), head: str = "") -> str:
    """The event file of the run the ``labeled`` event of the last of ``labels`` starts,
    on the pull request whose head is the commit ``head``."""
    path = tmp_path / "event.json"
    pr = {"number": 7, "labels": [{"name": name} for name in labels], "head": {"sha": head}}
    path.write_text(
        json.dumps({"action": "labeled", "pull_request": pr, "label": {"name": labels[-1]}, "sender": sender}), encoding="utf-8"
    )
    return str(path)


def agents_change(repo: Path) -> str:
    base = commit(repo, {"README.md": "x\n"}, "init")
    commit(repo, {"package-lock.json": "{}\n"}, f"bump\n\n{AGENT}")
    return base


def test_the_override_label_counts_as_allow_label_when_a_person_added_it(repo: Path, tmp_path: Path) -> None:
    base = agents_change(repo)
    event = labeled(tmp_path, {"login": "maintainer", "type": "User"}, head=git(repo, "rev-parse", "HEAD").strip())
    proc = run_cli(repo, "guard", "--base", base, "--format", "json", "--override-label", LABEL, "--event", event)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["summary"]["override"] == {"label": LABEL, "counts": True, "refused": ""}
    assert (
        doc["problems"] == json.loads(run_cli(repo, "guard", "--base", base, "--format", "json", "--allow-label", LABEL).stdout)["problems"]
    )


@pytest.mark.parametrize("on", ["base", "none"])
def test_the_override_label_counts_only_for_the_commit_it_was_added_on(repo: Path, tmp_path: Path, on: str) -> None:
    # A person labels the pull request at one commit; a workflow of one's own judges
    # another (the branch's tip on a re-run, --head HEAD): the label counted there too.
    base = agents_change(repo)
    event = labeled(tmp_path, {"login": "maintainer", "type": "User"}, head=base if on == "base" else "")
    proc = run_cli(repo, "guard", "--base", base, "--head", "HEAD", "--format", "json", "--override-label", LABEL, "--event", event)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    doc = json.loads(proc.stdout)
    assert [(p["code"], p["severity"]) for p in doc["problems"]] == [("GRD004", "error")]
    refused = doc["summary"]["override"]["refused"]
    assert refused.endswith("it counts only for that commit" if on == "none" else "it counts only for the commit it was added on")
    if on == "base":
        assert f"added on commit {base[:12]}, not on the commit judged ({git(repo, 'rev-parse', 'HEAD').strip()[:12]})" in refused


def test_an_agents_label_does_not_count_and_the_report_says_why(repo: Path, tmp_path: Path) -> None:
    base = agents_change(repo)
    event = labeled(tmp_path, {"login": "claude[bot]", "type": "Bot"})
    proc = run_cli(repo, "guard", "--base", base, "--format", "json", "--override-label", LABEL, "--event", event)
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    assert [(p["code"], p["severity"]) for p in doc["problems"]] == [("GRD004", "error")]
    assert doc["summary"]["override"]["refused"].startswith("claude[bot] added it, an agent's or a bot's account")
    page = run_cli(repo, "guard", "--base", base, "--format", "markdown", "--override-label", LABEL, "--event", event).stdout
    assert "The pull request carries the override label `memcheck-override`, which does not count here: claude\\[bot\\] added it" in page


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--override-label", LABEL), "--override-label needs --event FILE"),
        (("--override-label", LABEL, "--event", "missing.json"), "--event missing.json: cannot read the event"),
        (("--override-label", LABEL, "--event", "e.json", "--allow-label", LABEL), "give --allow-label or --override-label, not both"),
    ],
    ids=["no-event", "no-such-event", "both"],
)
def test_the_override_label_needs_its_event(repo: Path, args: tuple[str, ...], message: str) -> None:
    base = agents_change(repo)
    proc = run_cli(repo, "guard", "--base", base, *args)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr


def test_the_markdown_section_says_what_fails_and_what_the_label_does(repo: Path, tmp_path: Path) -> None:
    base = commit(repo, {"README.md": "x\n"}, "init")
    assert run_cli(repo, "guard", "--base", base, "--format", "markdown").stdout == (
        f"### Guarded paths\n\nNo guarded path touched (range {base[:12]}..HEAD).\n"
    )
    head = commit(repo, {"package-lock.json": "{}\n"}, f"bump\n\n{AGENT}")
    page = run_cli(repo, "guard", "--base", base, "--head", head, "--settings-from", base, "--format", "markdown").stdout
    assert page.startswith(
        "### Guarded paths\n\nThese fail the job; no override label is set, so the guarded paths must leave the pull request.\n"
    )
    assert f"In range {base[:12]}..{head[:12]}:" in page  # (the settings of the base alone: not named twice)
    assert "| `package-lock.json` | GRD004 |" in page
    waiting = run_cli(
        repo, "guard", "--base", base, "--format", "markdown", "--override-label", LABEL, "--event", labeled(tmp_path, {}, ("docs",))
    )
    assert "A maintainer who accepts them adds the label `memcheck-override` to the pull request" in waiting.stdout
    allowed = run_cli(repo, "guard", "--base", base, "--format", "markdown", "--allow-label", LABEL)
    assert allowed.returncode == 0
    assert (
        "The pull request carries the override label `memcheck-override`: an agent's change and a reviewed loosening are reported, not failing."
        in allowed.stdout
    )
    commit(repo, {".env": "KEY=x\n"}, "secret")
    secret = run_cli(repo, "guard", "--base", base, "--format", "markdown", "--allow-label", LABEL).stdout
    assert "not failing; a secret is never let through, and still fails." in secret
