"""GDN027 always-apply-with-globs: a Cursor rule whose globs alwaysApply makes dead."""

from __future__ import annotations

from conftest import example, findings, lint, with_frontmatter

RULE = ".cursor/rules/api.mdc"
SOURCE = {"src/api/x.ts": "x\n"}


def rule(keys: str) -> str:
    return with_frontmatter(keys, "Validate every request.\n")


def test_the_docs_example_is_reported() -> None:
    files = {RULE: rule(example("GDN027")), **SOURCE}
    assert lint(files, select="GDN") == [(RULE, 3, "GDN027")]
    assert findings(files, select="GDN")[0].message.startswith(
        "alwaysApply: true applies this rule to every chat, so its globs are ignored"
    )


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({RULE: rule(example("GDN027", "Use instead")), **SOURCE}, select="GDN") == []


def test_empty_globs_beside_always_apply_are_not_reported() -> None:
    assert lint({RULE: rule("description: x\nglobs:\nalwaysApply: true\n")}, select="GDN027") == []


def test_a_claude_rule_has_no_always_apply() -> None:
    assert lint({".claude/rules/a.md": rule("paths: src/**\nalwaysApply: true\n"), **SOURCE}, select="GDN027") == []
