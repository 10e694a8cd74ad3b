"""SKL020 fork-without-task: a forked skill whose body gives the subagent nothing to do."""

from __future__ import annotations

import pytest
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


HEAD = "---\nname: audit-deps\ndescription: Audits. Use before a release.\ncontext: fork\n---\n"


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("# References\n\n- [API](references/api.md)\n- [Models](references/models.md)\n", id="a-link-list"),
        pytest.param("1. [one](a.md)\n2. <https://example.com/guide>\n\n[a]: https://example.com/a\n", id="numbered-autolink-definition"),
        pytest.param("https://example.com/runbook, [b](b.md)\n", id="bare-url"),
    ],
)
def test_a_body_of_only_links_gives_no_task(body: str) -> None:
    (finding,) = findings({SKILL: HEAD + "\n" + body}, select="SKL020")  # (the linked files are not there: SKL012's)
    assert (finding.line, finding.code) == (4, "SKL020")
    assert "(only links)" in finding.message and "no task of the skill's own" in finding.message


@pytest.mark.parametrize("body", ["$ARGUMENTS\n", "## Task\n\n$ARGUMENTS[0] $ARGUMENTS[1]\n", "$0\n"])
def test_a_body_of_only_arguments_is_an_empty_body_plus_what_the_caller_passes(body: str) -> None:
    # Claude Code appends the arguments to a body without $ARGUMENTS (its skills page):
    # a body of only $ARGUMENTS is the prompt an empty body gives, which SKL020 reports.
    (finding,) = findings({SKILL: HEAD + "\n" + body}, select="SKL020")
    assert "(only $ARGUMENTS)" in finding.message and "nothing when the model invokes the skill without arguments" in finding.message


def test_links_and_arguments_together_are_both_named() -> None:
    (finding,) = findings({SKILL: HEAD + "\n- [API](api.md)\n\n$ARGUMENTS\n"}, select="SKL020")
    assert "(only links and $ARGUMENTS)" in finding.message


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("- [API](api.md): the endpoints to check\n", id="a-word-beside-a-link"),
        pytest.param("Review $ARGUMENTS.\n", id="a-verb-with-the-arguments"),
        pytest.param("This is a reference document about the API.\n", id="prose-is-not-judged"),
        pytest.param("- **[API](api.md)**\n", id="an-emphasised-link-is-text"),
        pytest.param("!`git diff --stat`\n", id="a-command-injection-is-content"),
    ],
)
def test_any_other_text_is_taken_as_the_task(body: str) -> None:
    assert lint({SKILL: HEAD + "\n" + body}, select="SKL020") == []


def test_a_link_list_in_a_skill_that_runs_inline_is_not_reported() -> None:
    inline = "---\nname: audit-deps\ndescription: Audits. Use before a release.\n---\n\n- [API](api.md)\n"
    assert lint({SKILL: inline}, select="SKL020") == []
