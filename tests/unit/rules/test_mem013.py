"""MEM013 empty-body: nothing after a memory's frontmatter."""

from __future__ import annotations

from conftest import example
from memory_rules import MEMORY, findings, lint


def test_the_docs_example_is_reported_on_the_closing_line() -> None:
    (found,) = findings({MEMORY: example("MEM013")})
    assert (found.path, found.line, found.code) == (MEMORY, 5, "MEM013")
    assert found.message == "nothing after the frontmatter: write the memory or delete the file"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({MEMORY: example("MEM013", "Use instead")}) == []


def test_a_body_of_blank_lines_is_empty() -> None:
    assert lint({MEMORY: "---\nname: X\ndescription: d\ntype: user\n---\n\n  \n"}) == [(MEMORY, 5, "MEM013")]
