"""SKL018 unknown-hook-event: a skill's hook under an event Claude Code does not fire."""

from __future__ import annotations

from conftest import example, findings, lint

SKILL = ".claude/skills/deploy/SKILL.md"


def _skill(fields: str, path: str = SKILL) -> dict[str, str]:
    return {path: f"---\nname: deploy\ndescription: Deploys the app. Use when shipping.\n{fields}---\n\nDeploy it.\n"}


def test_the_docs_example_is_reported() -> None:
    (found,) = findings(_skill(example("SKL018")))
    assert (found.path, found.line, found.code, found.severity) == (SKILL, 5, "SKL018", "warning")
    assert "'PreToolCall'" in found.message and "did you mean PreToolUse?" in found.message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint(_skill(example("SKL018", "Use instead"))) == []


def test_every_event_of_the_data_passes_and_case_counts() -> None:
    from memcheck import agents

    fact = agents.hook_events(agents.CLAUDE_CODE)
    assert fact is not None and {"PreToolUse", "SessionStart", "Stop", "UserPromptExpansion", "PostToolBatch"} <= fact[0]
    hooks = "".join(f"  {event}: []\n" for event in sorted(fact[0]))
    assert lint(_skill("hooks:\n" + hooks)) == []
    (found,) = findings(_skill("hooks:\n  stop: []\n"))
    assert "did you mean Stop?" in found.message


def test_a_name_like_no_event_gets_no_guess() -> None:
    (found,) = findings(_skill("hooks:\n  Whatever: []\n"))
    assert "did you mean" not in found.message


def test_hooks_are_judged_where_claude_code_loads_the_skill_only() -> None:
    assert [c for _, _, c in lint(_skill(example("SKL018"), ".agents/skills/deploy/SKILL.md"))] == ["SKL017"]
