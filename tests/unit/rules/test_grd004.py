"""GRD004 agent-guarded-path: an agent's change touches a path of the agents tier
(lock files, editor settings, build outputs...); a person's change to it passes.
Through the guard's engine on staged changes held in memory, the commit made from the
shell ``env`` describes; an agent recognised by a commit's author or trailers is
tested on real commits in tests/cli/test_guard_tiers.py."""

from __future__ import annotations

import pytest
from conftest import example
from guarding import added, guard_staged, line, modified, printed, shows

AGENT = {"CLAUDECODE": "1"}


def test_the_docs_example_is_what_the_guard_prints() -> None:
    (expected,) = printed(example("GRD004"))  # `CLAUDECODE=1 git commit -am "bump deps"`
    (found,) = guard_staged(modified("package-lock.json"), env=AGENT)
    assert shows(expected, line(found))


def test_the_docs_use_instead_a_persons_change_passes() -> None:
    assert guard_staged(modified("package-lock.json")) == []


def test_the_docs_use_instead_everyone_guards_a_persons_change_too() -> None:
    (found,) = guard_staged(modified("package-lock.json"), head="guard: {everyone: true}\n")
    assert found.code == "GRD004"
    assert found.message.startswith("unstage it (git restore --staged -- package-lock.json), or land it on its own past the guard")


def test_the_docs_use_instead_a_category_moved_to_the_secrets_tier_is_grd001() -> None:
    (found,) = guard_staged(modified("package-lock.json"), head="guard: {tiers: {lockfiles: secrets}}\n")
    assert found.code == "GRD001"


@pytest.mark.parametrize("path", [".vscode/settings.json", "CLAUDE.local.md", "node_modules/x/index.js", "yarn.lock"])
def test_paths_of_the_agents_tier(path: str) -> None:
    assert [p.code for p in guard_staged(added(path), env=AGENT)] == ["GRD004"]
    assert guard_staged(added(path)) == []


def test_a_secret_is_grd001_whoever_makes_the_change() -> None:
    assert [p.code for p in guard_staged(added(".env"), env=AGENT)] == ["GRD001"]


def test_a_persons_lockfile_bump_and_shared_editor_settings_pass() -> None:
    assert guard_staged(modified("package-lock.json"), added(".vscode/settings.json")) == []


@pytest.mark.parametrize("path", [".claude/settings.json", ".vscode/tasks.json"])
def test_settings_that_run_commands_are_guarded_from_agents(path: str) -> None:
    assert guard_staged(added(path)) == []  # a team's shared settings, edited by a person
    (found,) = guard_staged(added(path), env=AGENT)
    assert found.code == "GRD004" and "by category runs-commands" in found.message


def test_a_signature_the_settings_add_recognises_an_author() -> None:
    head = "guard:\n  agents:\n    add: [{id: ours, agent: our bot, kind: author, email: bot@example.com}]\n"
    assert [p.code for p in guard_staged(modified("package-lock.json"), head=head, env={"GIT_AUTHOR_EMAIL": "bot@example.com"})] == [
        "GRD004"
    ]
    assert guard_staged(modified("package-lock.json"), head=head, env={"GIT_AUTHOR_EMAIL": "me@example.com"}) == []


def test_removing_a_signature_makes_its_shell_a_persons() -> None:
    assert guard_staged(modified("package-lock.json"), head="guard: {agents: {remove: [claude-code-env]}}\n", env=AGENT) == []
