"""MEM005 duplicate-key: a key twice in a memory's frontmatter."""

from __future__ import annotations

from conftest import example
from memory_rules import MEMORY, findings, lint, with_fields


def test_the_docs_example_is_reported_on_the_second_key() -> None:
    (found,) = findings({MEMORY: with_fields(f"description: Concise reviews\n{example('MEM005')}")})
    assert (found.path, found.line, found.code) == (MEMORY, 5, "MEM005")
    assert found.message == "key 'type' appears more than once; YAML keeps only the last value"


def test_the_docs_use_instead_one_type_line_is_not_reported() -> None:
    assert lint({MEMORY: with_fields(f"description: Concise reviews\n{example('MEM005', 'Use instead')}")}) == []
