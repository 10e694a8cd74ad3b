"""GDN028 rule-applies-only-when-named: a Cursor rule with nothing to apply it by."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint, with_frontmatter

RULE = ".cursor/rules/payments.mdc"


def rule(keys: str) -> str:
    return with_frontmatter(keys, "Validate every request.\n")


def test_the_docs_example_is_reported() -> None:
    files = {RULE: rule(example("GDN028"))}
    assert lint(files, select="GDN") == [(RULE, 1, "GDN028")]
    message = findings(files, select="GDN")[0].message
    assert message.startswith("an empty description, no globs and no alwaysApply: true: ")
    assert "Cursor applies this rule only when a chat names it (@rule-name)" in message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({RULE: rule(example("GDN028", "Use instead"))}, select="GDN") == []


@pytest.mark.parametrize(
    ("keys", "reported"),
    [
        pytest.param("alwaysApply: true\n", False, id="always"),
        pytest.param("globs: '**/*.ts'\n", False, id="globs"),
        pytest.param("description: '  '\nglobs: []\n", True, id="blank-description-empty-globs"),
        pytest.param("alwaysApply: 'true'\n", True, id="quoted-true-is-not-true"),
    ],
)
def test_what_applies_a_rule(keys: str, reported: bool) -> None:
    assert bool(lint({RULE: rule(keys), "a.ts": "x\n"}, select="GDN028")) is reported


def test_a_rule_without_frontmatter_is_not_judged_here() -> None:
    assert lint({RULE: "Validate every request.\n"}, select="GDN028") == []


@pytest.mark.parametrize("description", ['description: ""\n', "description: ''\n", "description:\n", "description: '   '\n"])
def test_an_empty_description_with_no_globs_and_always_apply_false_is_said_as_empty(description: str) -> None:
    # Cursor's rules page: the agent picks an "Apply Intelligently" rule by its
    # description; an empty one gives it nothing, so the rule is applied only when named.
    (found,) = findings({RULE: rule(description + "globs:\nalwaysApply: false\n")}, select="GDN028")
    assert found.message.startswith("an empty description, no globs and no alwaysApply: true")


def test_no_description_key_at_all_is_said_as_none() -> None:
    (found,) = findings({RULE: rule("alwaysApply: false\n")}, select="GDN028")
    assert found.message.startswith("no description, no globs")


def test_an_empty_description_beside_globs_or_always_apply_is_applied_by_them() -> None:
    assert lint({RULE: rule('description: ""\nglobs: "**/*.ts"\n'), "a.ts": "x\n"}, select="GDN028") == []
    assert lint({RULE: rule('description: ""\nalwaysApply: true\n')}, select="GDN028") == []
