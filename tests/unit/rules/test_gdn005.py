"""GDN005 frontmatter-type: a guidance frontmatter value with the wrong type or value."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint


def _agents_md(frontmatter: str) -> dict[str, str]:
    return {"AGENTS.md": f"---\n{frontmatter}---\n\nRules.\n", "src/app.ts": "x\n"}


def test_the_docs_example_is_reported() -> None:
    files = _agents_md(example("GDN005"))
    assert lint(files, select="GDN005") == [("AGENTS.md", 2, "GDN005"), ("AGENTS.md", 3, "GDN005")]
    messages = [p.message for p in findings(files, select="GDN005")]
    assert messages == [
        "alwaysApply is the string 'yes', not a boolean; write alwaysApply: true (a YAML boolean, unquoted)",
        'globs is a string; write it as a list of patterns (globs: ["src/**/*.ts"])',
    ]


def test_the_docs_use_instead_passes() -> None:
    assert lint(_agents_md(example("GDN005", "Use instead")), select="GDN005") == []


@pytest.mark.parametrize(
    "frontmatter",
    [
        pytest.param("description: [a, b]\n", id="description-list"),
        pytest.param("alwaysApply: 1\n", id="always-number"),
        pytest.param("globs: src/**\n", id="globs-string"),
        pytest.param("globs: [3]\n", id="glob-number"),
    ],
)
def test_values_of_the_wrong_type(frontmatter: str) -> None:
    assert lint(_agents_md(frontmatter), select="GDN005") == [("AGENTS.md", 2, "GDN005")]


def test_cursor_rules_take_one_comma_separated_string() -> None:
    assert (
        lint(
            {".cursor/rules/ts.mdc": "---\nglobs: src/**/*.ts, lib/*.ts\n---\n\nRules.\n", "src/a.ts": "", "lib/b.ts": ""}, select="GDN005"
        )
        == []
    )


def test_copilot_exclude_agent_names_a_copilot_agent() -> None:
    files = {".github/instructions/api.instructions.md": '---\napplyTo: "**"\nexcludeAgent: reviewer\n---\n\nRules.\n'}
    (found,) = findings(files, select="GDN005")
    assert found.message == "excludeAgent is 'reviewer'; Copilot knows code-review and coding-agent"
