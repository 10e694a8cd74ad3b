"""MEM014 multiline-description: a description over several lines."""

from __future__ import annotations

import pytest
from conftest import example
from memory_rules import MEMORY, findings, lint, with_fields


def test_the_docs_example_is_not_in_fact_reported_as_yaml_folds_it_onto_one_line() -> None:
    # The doc's `>-` is a folded scalar: YAML joins its lines with spaces, so the value
    # is one line and no finding is made. The doc stays as it is (a docs change is a
    # later, announced step); a literal block (`|`) is what the rule reports.
    assert lint({MEMORY: with_fields(f"name: Review style\n{example('MEM014')}type: user\n")}) == []
    (found,) = findings({MEMORY: with_fields(f"name: Review style\n{example('MEM014').replace('>-', '|')}type: user\n")})
    assert (found.path, found.line, found.code) == (MEMORY, 3, "MEM014")
    assert found.message == "description spans several lines; write it on one line"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({MEMORY: with_fields(f"name: Review style\n{example('MEM014', 'Use instead')}type: user\n")}) == []


@pytest.mark.parametrize("value", ["|\n  two\n  lines\n", '"two\\nlines"\n'])
def test_a_block_or_quoted_value_over_lines(value: str) -> None:
    assert lint({MEMORY: with_fields(f"name: X\ndescription: {value}type: user\n")}) == [(MEMORY, 3, "MEM014")]
