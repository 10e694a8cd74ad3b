"""SKL026 arguments-without-hint: positional arguments with no argument-hint (off by default)."""

from __future__ import annotations

from conftest import example, findings, lint

ON = {"select": ["ALL", "SKL026"]}  # opt-in: on only where select names it
SKILL = ".claude/skills/deploy/SKILL.md"


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({SKILL: example("SKL026")}, config=ON)
    assert (found.path, found.line, found.code) == (SKILL, 6, "SKL026")
    assert "$ARGUMENTS[1]" in found.message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({SKILL: example("SKL026", "Use instead")}, config=ON) == []


def test_off_by_default() -> None:
    assert lint({SKILL: example("SKL026")}) == []


def test_short_forms_count_outside_code_only() -> None:
    head = "---\nname: deploy\ndescription: Deploys. Use when shipping.\n---\n\n"
    assert lint({SKILL: head + "Deploy $0.\n"}, config=ON) == [(SKILL, 6, "SKL026")]
    assert lint({SKILL: head + "Run `awk '{print $1}'`.\n\n```sh\necho $1\n```\nCosts $5 a run.\n"}, config=ON) == [(SKILL, 11, "SKL026")]
    assert lint({SKILL: head + "Deploy $ARGUMENTS.\n"}, config=ON) == []


def test_an_argument_hint_with_no_arguments_in_the_body_is_no_finding() -> None:
    # The arguments still reach the skill: where the body never names $ARGUMENTS,
    # Claude Code appends "ARGUMENTS: <value>" to it (code.claude.com/docs/en/skills,
    # "Pass arguments to skills"), and argument-hint only feeds the / menu's
    # autocomplete. agnix's CC-SK-012 reports it; memcheck holds that it is right.
    hinted = '---\nname: deploy\ndescription: Deploys. Use when shipping.\nargument-hint: "<environment>"\n---\n\nDeploy to the named environment.\n'
    everything = ["ALL", *(f"SKL0{n:02}" for n in range(22, 28))]
    assert lint({SKILL: hinted}) == []
    assert lint({SKILL: hinted}, select=",".join(everything)) == []
