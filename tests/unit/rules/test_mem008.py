"""MEM008 wrong-value-type: a field that is not a one-line string, or a metadata that
is not a mapping."""

from __future__ import annotations

import pytest
from conftest import example
from memory_rules import MEMORY, findings, lint, with_fields


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({MEMORY: with_fields(f"{example('MEM008')}description: d\ntype: user\n")})
    assert (found.path, found.line, found.code) == (MEMORY, 2, "MEM008")
    assert found.message == "name must be a one-line string, got list ['Review style']"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({MEMORY: with_fields(f"{example('MEM008', 'Use instead')}description: d\ntype: user\n")}) == []


@pytest.mark.parametrize(
    ("fields", "line", "message"),
    [
        pytest.param(
            "name: [a, b]\ndescription: d\ntype: user\n", 2, "name must be a one-line string, got list ['a', 'b']", id="list-name"
        ),
        pytest.param("name: X\ndescription: d\ntype: 3\n", 4, "type must be a string, got int", id="number-type"),
        pytest.param(
            'name: "two\\nlines"\ndescription: d\ntype: user\n', 2, "name spans several lines; write it on one line", id="multiline-name"
        ),
        pytest.param("name: X\ndescription: d\ntype: user\nmetadata: [a]\n", 5, "metadata must be a mapping, got list", id="metadata-list"),
    ],
)
def test_a_value_of_the_wrong_type(fields: str, line: int, message: str) -> None:
    assert [(p.line, p.code, p.message) for p in findings({MEMORY: with_fields(fields)})] == [(line, "MEM008", message)]
