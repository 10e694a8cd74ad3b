"""GDN004 invalid-frontmatter: guidance frontmatter that cannot be parsed."""

from __future__ import annotations

import pytest
from conftest import example, lint


def test_the_docs_example_is_reported() -> None:
    assert lint({"AGENTS.md": example("GDN004") + "\nRules.\n"}, select="GDN004") == [("AGENTS.md", 2, "GDN004")]


def test_the_docs_use_instead_passes() -> None:
    assert lint({"AGENTS.md": example("GDN004", "Use instead") + "\nRules.\n"}, select="GDN004") == []


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("---\ndescription: a: b\n---\n\nRules.\n", id="not-yaml"),
        pytest.param("---\nalwaysApply: true\nalwaysApply: false\n---\n\nRules.\n", id="duplicate-key"),
        pytest.param("---\nglobs: []\n\nRules.\n", id="unclosed"),
    ],
)
def test_frontmatter_that_cannot_be_parsed(text: str) -> None:
    assert [code for _, _, code in lint({"AGENTS.md": text})] == ["GDN004"]


def test_cursor_takes_what_strict_yaml_rejects() -> None:
    # Cursor's own editor writes `globs: *.ts`: a reading makes sense of it.
    assert lint({".cursor/rules/ts.mdc": "---\nglobs: *.ts\nalwaysApply: false\n---\n\nRules.\n", "a.ts": ""}, select="GDN004") == []
