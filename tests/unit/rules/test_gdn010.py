"""GDN010 import-escapes-repository: an @-import that points outside the repository (the imports cluster)."""

from __future__ import annotations

from conftest import example, findings, lint


def test_the_docs_example_is_reported() -> None:
    files = {"CLAUDE.md": example("GDN010")}
    assert lint(files) == [("CLAUDE.md", 1, "GDN010")]
    (found,) = findings(files)
    assert (
        found.message
        == "@../../shared/rules.md points outside the repository, so other clones do not have it; move the file into the repository or import it from @~/ deliberately"
    )


def test_the_docs_use_instead_the_rules_copied_in_are_not_reported() -> None:
    assert lint({"CLAUDE.md": example("GDN010", "Use instead"), "docs/shared-rules.md": "# Shared rules\n"}) == []


def test_a_home_import_passes() -> None:
    assert lint({"CLAUDE.md": "@~/.claude/shared-rules.md\n"}) == []


def test_absolute_and_climbing_imports_and_home_imports() -> None:
    assert lint({"AGENTS.md": "@../outside.md\n@/etc/rules.md\n@~/.agents/base.md\n"}) == [
        ("AGENTS.md", 1, "GDN010"),
        ("AGENTS.md", 2, "GDN010"),
    ]


def test_a_bare_at_slash_is_a_source_alias_not_an_import() -> None:
    # Judged on an unseen repository: a Vue rule's heading and table name the `@/` alias.
    rule = "# Frontend\n\n### @/ Alias (always use it)\n\n| Relative imports into src/ | use the @/ alias |\n"
    assert lint({".claude/rules/frontend.md": rule}) == []
    assert lint({".claude/rules/frontend.md": rule + "@/etc/rules.md\n"}) == [(".claude/rules/frontend.md", 6, "GDN010")]
