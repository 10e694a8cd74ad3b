"""GRD005 secret-rules-off: a change to the settings turns a secret or hidden-text rule
off for some file, or drops files from the agent files. Through the guard's engine on changes and settings held in memory; the Action's
judging of a pull request's secrets by its base's settings is tested in
tests/e2e/test_action.py."""

from __future__ import annotations

import pytest
from conftest import example
from guarding import SETTINGS, guard_staged, line, modified, printed, shows


def test_the_docs_example_is_what_the_guard_prints() -> None:
    # `git add .memcheck.yaml && memcheck guard`, the staged settings ignoring SEC.
    (expected,) = printed(example("GRD005"))
    (found,) = guard_staged(modified(SETTINGS), staged="ignore: [SEC]\n")
    assert shows(expected, line(found))


def test_the_docs_use_instead_other_lint_settings_change_freely() -> None:
    # The doc's *Use instead* is prose: keep the secret rules on (a comment
    # suppresses one finding, and is no setting).
    assert guard_staged(modified(SETTINGS), staged="ignore: [MEM006]\n") == []


@pytest.mark.parametrize(
    ("after", "what"),
    [
        ("ignore: [SEC002]\n", "turns SEC002 off"),
        ("select: [MEM, GRD]\n", "turns HID001, HID002, HID003, HID004, HID005, SEC001, SEC002, SEC003 off"),
        # The hidden-text rules: an instruction in invisible characters is what a change
        # would most want unseen after a token.
        ("ignore: [HID]\n", "turns HID001, HID002, HID003, HID004, HID005 off"),
        ("per-path-ignores: {CLAUDE.md: [HID001]}\n", "ignores HID001 under CLAUDE.md"),
        # Which files are agent files: a file that is none is read by no rule.
        (
            "guidance: {filenames: [AGENTS.md, CLAUDE.md]}\n",
            "drops AGENT.md, AGENTS.override.md, Agent.md, Agents.md, CLAUDE.local.md and 3 more from guidance.filenames (no rule reads those files, secrets included)",
        ),
        (
            "memory: {stores: [.claude/memory]}\n",
            "drops .agents/memory, .agh/memory, .cheetahclaws/memory, .claude/agent-memory/*, .memory and 1 more from memory.stores (no rule reads those files, secrets included)",
        ),
        ("exclude: ['notes/']\n", "excludes notes/ (memcheck reads nothing of it, secrets included)"),
        ("per-path-ignores: {'notes/': [SEC001]}\n", "ignores SEC001 under notes/"),
        ("fail-on: never\n", "makes no finding fail the run, secrets included (fail-on: never)"),
    ],
)
def test_each_way_to_turn_the_secret_rules_off(after: str, what: str) -> None:
    (found,) = guard_staged(modified(SETTINGS), staged=after)
    assert found.code == "GRD005"
    assert f"changes what the secret and hidden-text rules check: {what}; a change is judged by the settings before it" in found.message


def test_a_loosening_and_secrets_turned_off_are_two_findings() -> None:
    found = guard_staged(modified(SETTINGS), staged="ignore: [SEC, GRD001]\n")
    assert [p.code for p in found] == ["GRD003", "GRD005"]
