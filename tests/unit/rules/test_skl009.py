"""SKL009 duplicate-name: two skills an agent sees together share a name.

SKL009 and SKL011 share one module (``checks/skills/duplicates.py``): one pass over the
tree's skills in discovery order, the first to take a name keeping it.
"""

from __future__ import annotations

import pytest
from conftest import example, findings, lint
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck.checks.skills import duplicates


def _skill(name: str, description: str = "Deploys the app. Use when shipping.", extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n\nBody.\n"


def test_the_docs_example_is_reported_on_the_later_skill() -> None:
    files = {".agents/skills/deploy/SKILL.md": example("SKL009"), ".gemini/skills/deploy/SKILL.md": example("SKL009", nth=2)}
    (found,) = findings(files)
    assert (found.path, found.line, found.code, found.severity) == (".gemini/skills/deploy/SKILL.md", 2, "SKL009", "error")
    assert (
        found.message
        == "skill name 'deploy' is also used by .agents/skills/deploy/SKILL.md; agents show only one of them, so rename or remove one"
    )


def test_the_docs_use_instead_one_of_them_renamed_is_not_reported() -> None:
    assert (
        lint({".agents/skills/deploy/SKILL.md": example("SKL009"), ".gemini/skills/ship/SKILL.md": example("SKL009", "Use instead")}) == []
    )


def test_a_clash_is_where_one_agent_loads_both_folders() -> None:
    # No agent of memcheck's data loads both .agents/skills and .claude/skills (Codex
    # reads .agents/skills, Claude Code .claude/skills), so that pair alone is no
    # clash; .agents/skills and .gemini/skills are both Gemini CLI's.
    files = {
        ".agents/skills/deploy/SKILL.md": _skill("deploy"),
        ".gemini/skills/deploy/SKILL.md": _skill("deploy", "Ships it. Use when shipping."),
    }
    (found,) = findings(files)
    assert (found.path, found.line, found.code, found.severity) == (".gemini/skills/deploy/SKILL.md", 2, "SKL009", "error")
    assert (
        found.message
        == "skill name 'deploy' is also used by .agents/skills/deploy/SKILL.md; agents show only one of them, so rename or remove one"
    )
    assert (
        lint(
            {
                ".agents/skills/deploy/SKILL.md": _skill("deploy"),
                ".claude/skills/deploy/SKILL.md": _skill("deploy", "Ships it. Use when shipping."),
            }
        )
        == []
    )


def test_one_of_them_renamed_folder_and_all_is_not_reported() -> None:
    files = {
        ".agents/skills/deploy/SKILL.md": _skill("deploy"),
        ".gemini/skills/ship/SKILL.md": _skill("ship", "Ships it. Use when shipping."),
    }
    assert lint(files) == []


def test_duplicate_names_across_roots_and_scopes() -> None:
    files = {
        # Codex loads .agents/skills, Claude Code .claude/skills: the same name in each is
        # one skill per agent, not a clash.
        ".agents/skills/deploy/SKILL.md": _skill("deploy", extra="triggers: [/ship]\n"),
        ".claude/skills/deploy/SKILL.md": _skill("deploy", extra="triggers: [/ship]\n"),
        "pkg/.agents/skills/deploy/SKILL.md": _skill("deploy", extra="license: MIT\n"),
        # siblings in a monorepo never see each other's skills
        "a/.claude/skills/lint/SKILL.md": _skill("lint"),
        "b/.claude/skills/lint/SKILL.md": _skill("lint"),
        # copies outside the skills roots (docs) are not discovered together with them
        "docs/skills/deploy/SKILL.md": _skill("deploy"),
    }
    assert [(p.path, p.code) for p in findings(files)] == [("pkg/.agents/skills/deploy/SKILL.md", "SKL009")]


def test_one_skill_copied_into_each_agents_folder_is_no_duplicate() -> None:
    # Gemini CLI loads both .agents/skills and .gemini/skills: an identical copy there is one skill.
    files = {
        f"{root}/deploy/SKILL.md": _skill("deploy", extra="triggers: [/ship]\n")
        for root in (".agents/skills", ".claude/skills", ".gemini/skills", ".github/skills")
    }
    assert lint(files) == []


def test_two_copies_in_one_kind_of_folder_stay_a_duplicate() -> None:
    files = {".claude/skills/deploy/SKILL.md": _skill("deploy"), "pkg/.claude/skills/deploy/SKILL.md": _skill("deploy")}
    assert lint(files) == [("pkg/.claude/skills/deploy/SKILL.md", 2, "SKL009")]


def test_only_the_later_skill_is_reported_and_names_are_compared_without_case() -> None:
    files = {".claude/skills/deploy/SKILL.md": _skill("deploy"), ".claude/skills/ship.md": _skill("Deploy ")}
    (found,) = [p for p in findings(files) if p.code == "SKL009"]  # and SKL004 for the capital
    assert found.path == ".claude/skills/ship.md" and "'Deploy' is also used by .claude/skills/deploy/SKILL.md" in found.message


# ---------------------------------------------------------------- which skills an agent sees together


def _seen_together(a: str, b: str) -> bool:
    """The rule, pair by pair: one folder is the other or above it; a "?" folder (no
    agent discovers it) only with itself."""
    if a.startswith("?") or b.startswith("?"):
        return a == b
    return a == b or a == "" or b == "" or a.startswith(b + "/") or b.startswith(a + "/")


_folder = st.lists(st.sampled_from(["a", "b", "ab", "a.b"]), max_size=3).map("/".join)
_scope = st.one_of(_folder, _folder.map(lambda f: "?" + f))


@settings(max_examples=300, deadline=None)
@given(st.lists(_scope, max_size=25))
@pytest.mark.slow  # a property test: seconds of examples
def test_the_first_skill_seen_together_is_the_first_earlier_one_on_the_same_line(scopes: list[str]) -> None:
    """SKL009/SKL011 name the first earlier skill an agent sees with this one; found by
    folder rather than by trying every earlier skill, the answer is the same."""
    seen = duplicates._SkillsSeen()
    for i, scope in enumerate(scopes):
        expected = next((f"s{j}" for j in range(i) if _seen_together(scope, scopes[j])), None)
        assert seen.first_with(scope) == expected
        seen.add(scope, f"s{i}")
