"""MEM007 unknown-type: a memory type outside the taxonomy."""

from __future__ import annotations

from conftest import example
from memory_rules import MEMORY, findings, lint, with_fields


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({MEMORY: with_fields(f"name: Queue\ndescription: Why we queue\n{example('MEM007')}")})
    assert (found.path, found.line, found.code) == (MEMORY, 4, "MEM007")
    assert (
        found.message
        == "type 'decision' is not one of: user, feedback, project, reference; use one of them, or list 'decision' in memory.types if your team keeps its own types"
    )


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({MEMORY: with_fields(f"name: Queue\ndescription: Why we queue\n{example('MEM007', 'Use instead')}")}) == []


def test_metadata_type_counts_for_type() -> None:
    assert lint({MEMORY: with_fields("name: X\ndescription: d\nmetadata:\n  type: nope\n")}) == [(MEMORY, 4, "MEM007")]


def test_a_type_the_settings_list_is_not_reported() -> None:
    assert (
        lint({MEMORY: with_fields("name: X\ndescription: d\ntype: decision\n")}, config={"memory": {"types": ["user", "decision"]}}) == []
    )
