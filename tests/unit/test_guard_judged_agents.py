"""Whose change a commit of a range is, judged in memory (``judge_paths`` with a
commit object's text): an agent's address as the commit's author or committer, or in
any ``*-by:`` trailer, wherever in the message a squash put it; the agents tier stops
an agent's change to a lock file of any ecosystem and lets a person's through. How
git's log becomes these commits (the range, folded trailers, an encoding header) is
tested on real repositories in tests/cli/test_guard_agent_traces.py,
tests/cli/test_guard_tiers.py and tests/cli/test_guard_files.py."""

from __future__ import annotations

import pytest
from conftest import commit_text, judge_paths

from memcheck.changes import Change

CLAUDE_TRAILER = "\n\nCo-Authored-By: Claude <noreply@anthropic.com>"
BUMP = Change("M", "package-lock.json", old_mode="100644", new_mode="100644")


def bumped(path: str) -> Change:
    return Change("M", path, old_mode="100644", new_mode="100644")


# --- the lock files of other ecosystems --------------------------------------------------

LOCKFILES = [
    "Cargo.lock", "poetry.lock", "uv.lock", "Pipfile.lock", "pdm.lock", "Gemfile.lock", "composer.lock", "go.sum",
    "flake.lock", "pubspec.lock", "mix.lock", "packages.lock.json", "gradle.lockfile", "Package.resolved",
]  # fmt: skip


@pytest.mark.parametrize("path", LOCKFILES)
def test_an_agents_lockfile_commit_is_blocked(path: str) -> None:
    judged = judge_paths(bumped(path), commit=commit_text("bump" + CLAUDE_TRAILER))
    assert judged.exit_code == 1 and judged.found == [(path, "GRD004")] and "guarded by category lockfiles" in judged.message(path)
    assert judge_paths(bumped(path), commit=commit_text("bump")) == (0, [])


# --- an agent's identity as author or committer, and any *-by trailer --------------------


@pytest.mark.parametrize(
    ("ident", "agent"),
    [
        ("Claude <noreply@anthropic.com>", "Claude Code"),
        ("Codex <noreply@openai.com>", "OpenAI Codex"),
        ("Copilot <223556219+Copilot@users.noreply.github.com>", "GitHub Copilot (VS Code, Copilot CLI)"),
        ("aider (gpt-5) <aider@aider.chat>", "aider"),
    ],
)
@pytest.mark.parametrize("role", ["author", "committer"])
def test_an_agents_address_as_author_or_committer_is_the_agents(ident: str, agent: str, role: str) -> None:
    # (the other of the two stays a person)
    person = "Test <test@example.com>"
    commit = commit_text("bump deps", author=ident, committer=person) if role == "author" else commit_text("bump deps", person, ident)
    judged = judge_paths(BUMP, commit=commit)
    assert (judged.exit_code, judged.found) == (1, [("package-lock.json", "GRD004")])
    email = ident[:-1].split(" <")[1]
    assert f"{agent} made it: {role} {email}" in judged.message("package-lock.json")


@pytest.mark.parametrize("key", ["Co-developed-by", "Assisted-by", "Signed-off-by", "co-authored-by"])
def test_an_agents_address_in_any_by_trailer_is_the_agents(key: str) -> None:
    judged = judge_paths(BUMP, commit=commit_text(f"bump deps\n\n{key}: Claude <noreply@anthropic.com>"))
    assert (judged.exit_code, judged.found) == (1, [("package-lock.json", "GRD004")])
    assert "Claude Code made it: " in judged.message("package-lock.json")


def test_an_assisted_by_trailer_names_an_ai_assistant_whatever_its_value() -> None:
    # The Linux kernel's convention: Assisted-by: AGENT_NAME:MODEL_VERSION [TOOLS], no address.
    judged = judge_paths(BUMP, commit=commit_text("bump deps\n\nAssisted-by: Claude:claude-opus-4 coccinelle"))
    assert (judged.exit_code, judged.found) == (1, [("package-lock.json", "GRD004")])
    assert "made it: Assisted-by trailer" in judged.message("package-lock.json")


def test_a_person_whose_trailers_name_people_passes() -> None:
    message = (
        "bump deps\n\nCo-developed-by: Ana <ana@example.com>\nSigned-off-by: Alex <alex@example.com>\nReviewed-by: Bo <bo@example.com>"
    )
    assert judge_paths(BUMP, commit=commit_text(message)) == (0, [])


@pytest.mark.parametrize(
    ("author", "message"),
    [
        ("Alex (aider) <test@example.com>", "tweak"),  # aider's name suffix on the author
        ("Test <test@example.com>", "tweak" + CLAUDE_TRAILER),
    ],
    ids=["author", "trailer"],
)
def test_other_signatures_recognise_an_agents_commit(author: str, message: str) -> None:
    judged = judge_paths(Change("A", ".idea/workspace.xml", new_mode="100644"), commit=commit_text(message, author))
    assert judged.exit_code == 1 and judged.found == [(".idea/workspace.xml", "GRD004")]


SQUASHED = {
    "mid-message": "bump deps\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n\nnotes tweak",  # a squash put it mid-message
    "indented": "Squashed commit of the following:\n\n    bump deps\n\n    Co-Authored-By: Claude <noreply@anthropic.com>\n",  # merge --squash indents it
}


@pytest.mark.parametrize("message", SQUASHED.values(), ids=SQUASHED.keys())
def test_a_squashed_agents_commit_is_still_an_agents(message: str) -> None:
    judged = judge_paths(BUMP, commit=commit_text(message))
    assert judged.exit_code == 1 and judged.found == [("package-lock.json", "GRD004")]
