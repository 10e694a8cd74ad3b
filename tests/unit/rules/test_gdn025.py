"""GDN025 duplicate-import: one file @-imported twice by the same file."""

from __future__ import annotations

from conftest import example, findings, lint

STYLE = "docs/style.md"


def test_the_docs_example_is_reported() -> None:
    files = {"CLAUDE.md": example("GDN025"), STYLE: "Tabs.\n"}
    assert lint(files, select="GDN") == [("CLAUDE.md", 3, "GDN025")]
    assert findings(files, select="GDN")[0].message == (
        "@docs/style.md imports docs/style.md, which line 1 imports already; a second import adds nothing, so remove one"
    )


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({"CLAUDE.md": example("GDN025", "Use instead"), STYLE: "Tabs.\n"}, select="GDN") == []


def test_another_spelling_of_the_same_file() -> None:
    files = {"docs/CLAUDE.md": "@style.md\n\n@./style.md and @../docs/style.md\n", STYLE: "Tabs.\n"}
    assert lint(files, select="GDN025") == [("docs/CLAUDE.md", 3, "GDN025"), ("docs/CLAUDE.md", 3, "GDN025")]


def test_imports_in_code_are_not_imports() -> None:
    files = {"CLAUDE.md": "@docs/style.md\n\n`@docs/style.md`\n\n```\n@docs/style.md\n```\n", STYLE: "Tabs.\n"}
    assert lint(files, select="GDN025") == []


def test_a_missing_file_imported_twice_is_gdn009s_alone() -> None:
    files = {"CLAUDE.md": "@docs/gone.md\n@docs/gone.md\n"}
    assert lint(files, select="GDN009,GDN025") == [("CLAUDE.md", 1, "GDN009"), ("CLAUDE.md", 2, "GDN009")]
