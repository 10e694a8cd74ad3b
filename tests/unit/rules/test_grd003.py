"""GRD003 guard-loosened: a change to the settings lets more through the guard than
the settings before it, or leaves them unreadable. Through the guard's engine on
changes and settings held in memory (``guard/trust.judged``: one step's settings
against its parents'); reading the settings from commits, ranges and merges on real
git is tested in tests/cli/test_guard_routes.py and test_guard_history_routes.py."""

from __future__ import annotations

import pytest
from conftest import example
from guarding import ROOT, SETTINGS, added, guard_staged, line, modified, printed, settings

from memcheck.config import default_config
from memcheck.guard.trust import SettingsChange, judged


def test_the_docs_example_is_what_the_guard_prints() -> None:
    # `git add .memcheck.yaml .env && memcheck guard`, the staged settings allowing
    # /.env: the .env is judged by HEAD's settings, and the loosening reported.
    expected = printed(example("GRD003"))
    found = guard_staged(added(".env"), modified(SETTINGS), staged='guard: {allow: ["/.env"]}\n')
    assert [line(p) for p in found] == expected


def test_the_docs_use_instead_the_loosening_landed_on_its_own_judges_what_comes_after() -> None:
    # The doc's *Use instead* is prose: once the loosening is HEAD's, it judges.
    assert guard_staged(added(".env"), head='guard: {allow: ["/.env"]}\n') == []


@pytest.mark.parametrize(
    ("before", "after", "what"),
    [
        ("", "guard: {allow: ['/.env']}\n", "allows /.env"),
        ("", "guard: {patterns: ['!.env']}\n", "allows .env"),
        ("guard: {patterns: ['*.db']}\n", "", "drops pattern *.db"),
        ("", "guard: {disable: [lockfiles]}\n", "disables category lockfiles"),
        ("", "guard: {case-sensitive: true}\n", "matches case-sensitively"),
        ("", "ignore: [GRD001]\n", "turns GRD001 off"),
        ("", "ignore: [GRD]\n", "turns GRD001, GRD002, GRD003, GRD004, GRD005 off"),
        ("", "select: [GRD002]\n", "turns GRD001, GRD003, GRD004, GRD005 off"),
        ("", "guard: {disable: [env]}\n", "disables category env"),
        ("", "guard: {tiers: {env: agents}}\n", "moves category env to the agents tier (a person's change to it passes)"),
        (
            "",
            "guard: {agents: {remove: [claude-code-co-author]}}\n",
            "stops recognising the agent signature claude-code-co-author (Claude Code: Co-Authored-By trailer noreply@anthropic.com)",
        ),
        ("guard: {everyone: true}\n", "", "stops guarding a person's changes to the agents tier (guard.everyone)"),
        ("", "per-path-ignores: {'/x/': [GRD002]}\n", "ignores GRD002 under /x/"),
    ],
)
def test_each_way_to_loosen_the_guard(before: str, after: str, what: str) -> None:
    # (select: [GRD002] leaves the secret rules out too: GRD005 beside it)
    (found,) = [p for p in guard_staged(modified(SETTINGS), head=before or None, staged=after or "{}\n") if p.code != "GRD005"]
    assert found.code == "GRD003"
    assert f"loosens the guard: {what}; a change is judged by the settings before it" in found.message


def test_lint_settings_change_freely() -> None:
    assert guard_staged(modified(SETTINGS), staged="memory: {types: [user, feedback]}\n") == []


def test_settings_that_cannot_be_read_fail_closed() -> None:
    (found,) = guard_staged(modified(SETTINGS), staged="guard: [\n")
    assert found.code == "GRD003"
    assert found.message.startswith(
        "make it readable and stage it again (the guard cannot tell what settings it cannot read let through). cannot be read (.memcheck.yaml:"
    )


def test_unreadable_settings_in_a_range_name_three_commits_and_cut_the_reason_short() -> None:
    why = "x" * 400
    steps = [SettingsChange(SETTINGS, f"c{n}", why, (default_config(ROOT),)) for n in range(5)]
    (found,) = judged(steps, default_config(ROOT))
    assert "cannot be read in c0, c1, c2 and 2 more (" in found.message
    assert found.message.endswith("x" * 157 + "...)")


def test_a_merge_loosens_only_what_no_parent_let_through_already() -> None:
    lax, strict = settings("guard: {allow: ['/.env']}\n"), settings()
    after = settings("guard: {allow: ['/.env', '/secrets/']}\n")
    (found,) = judged([SettingsChange(SETTINGS, "merge abc1234", after, (strict, lax))], default_config(ROOT))
    assert "loosens the guard in merge abc1234: allows /secrets/;" in found.message
    assert judged([SettingsChange(SETTINGS, "merge abc1234", lax, (strict, lax))], default_config(ROOT)) == []


def test_an_ignored_grd003_is_not_reported() -> None:
    found = guard_staged(modified(SETTINGS), head="ignore: [GRD003]\n", staged="ignore: [GRD003]\nguard: {allow: ['/.env']}\n")
    assert found == []
