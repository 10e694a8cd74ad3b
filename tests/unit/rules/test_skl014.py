"""SKL014 unknown-tool: a skill names a tool Claude Code does not have."""

from __future__ import annotations

from conftest import example, findings, lint

SKILL = ".claude/skills/search/SKILL.md"


def _skill(fields: str, path: str = SKILL) -> dict[str, str]:
    return {path: f"---\nname: search\ndescription: Searches the code. Use when asked where something is.\n{fields}---\n\nBody.\n"}


def test_the_docs_example_is_reported() -> None:
    (found,) = findings(_skill(example("SKL014")))
    assert (found.path, found.line, found.code, found.severity) == (SKILL, 4, "SKL014", "warning")
    assert "'grep'" in found.message and "Grep" in found.message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint(_skill(example("SKL014", "Use instead"))) == []


def test_space_separated_lists_mcp_tools_and_tools_with_a_rule_are_read() -> None:
    assert lint(_skill("allowed-tools: Read Grep Bash(git diff:*) mcp__github__search\n")) == []
    assert lint(_skill("disallowed-tools: Read Grepp\n")) == [(SKILL, 4, "SKL014")]


def test_tools_are_judged_where_claude_code_loads_the_skill_only() -> None:
    assert lint(_skill(example("SKL014"), ".agents/skills/search/SKILL.md")) == []


def test_an_unknown_tool_is_no_invalid_field_as_well() -> None:
    assert [p.code for p in findings(_skill("allowed-tools: Read, grep\nmodel: gpt-4\n"))] == ["SKL014", "SKL007"]


def test_a_tool_the_list_lacks_is_said_to_be_unknown_to_memcheck_not_to_claude_code() -> None:
    """Issue 40 (a third unseen set): `Workflow` is a Claude Code tool newer than the
    tools reference memcheck holds; no source says that list is complete."""
    (found,) = findings(_skill("allowed-tools: Read, Workflow\n"))
    assert found.message.startswith("allowed-tools names 'Workflow', which is none of the tools memcheck knows Claude Code to have (")
    assert found.message.endswith("check its spelling and case (a tool newer than that list is not known here)")
    assert "no tool Claude Code has" not in found.message


def test_the_scheduled_task_tools_and_powershell_are_claude_codes() -> None:
    # Claude Code's tools reference lists them: a skill that runs on a schedule names them.
    assert lint(_skill("allowed-tools:\n  - Bash\n  - CronCreate\n  - CronDelete\n  - CronList\n  - PowerShell\n")) == []
    assert lint(_skill("allowed-tools: CronCreat\n")) == [(SKILL, 4, "SKL014")]
