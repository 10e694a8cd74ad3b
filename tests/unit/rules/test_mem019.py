"""MEM019 value-cut-by-comment: an unquoted value YAML cuts at ` #`."""

from __future__ import annotations

from conftest import example
from memory_rules import MEMORY, findings, lint, with_fields


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({MEMORY: with_fields(f"name: Follow-up\n{example('MEM019')}type: project\n")})
    assert (found.path, found.line, found.code) == (MEMORY, 3, "MEM019")
    assert found.message == "YAML reads the value of 'description' as 'Follow-up to PR' and the rest as a comment; quote the value"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({MEMORY: with_fields(f"name: Follow-up\n{example('MEM019', 'Use instead')}type: project\n")}) == []
