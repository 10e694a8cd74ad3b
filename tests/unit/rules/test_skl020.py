"""SKL020 fork-without-task: a forked skill whose body gives the subagent nothing to do."""

from __future__ import annotations

from conftest import example, findings, lint

SKILL = ".claude/skills/audit-deps/SKILL.md"


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({SKILL: example("SKL020")})
    assert (found.path, found.line, found.code, found.severity) == (SKILL, 4, "SKL020", "warning")


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({SKILL: example("SKL020", "Use instead")}) == []


def test_comments_rules_and_blank_lines_are_nothing_to_do() -> None:
    head = "---\nname: audit-deps\ndescription: Audits. Use before a release.\ncontext: fork\n---\n"
    assert lint({SKILL: head + "\n<!-- to\nwrite -->\n\n---\n## Steps\n"}) == [(SKILL, 4, "SKL020")]
    assert lint({SKILL: head}) == [(SKILL, 4, "SKL020")]
    assert lint({SKILL: head + "\nAudit $ARGUMENTS.\n"}) == []


def test_a_skill_that_runs_inline_may_have_an_empty_body() -> None:
    assert lint({SKILL: "---\nname: audit-deps\ndescription: Audits. Use before a release.\n---\n"}) == []
