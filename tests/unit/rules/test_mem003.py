"""MEM003 unparsable-frontmatter: frontmatter that no reading can parse."""

from __future__ import annotations

import pytest
from conftest import example
from memory_rules import MEMORY, findings, lint


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({MEMORY: example("MEM003")})
    assert (found.path, found.line, found.code) == (MEMORY, 1, "MEM003")
    assert found.message == "frontmatter opened on line 1 is never closed by a '---' line"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({MEMORY: example("MEM003", "Use instead")}) == []


@pytest.mark.parametrize(
    ("text", "line"),
    [
        pytest.param("---\nname: x\ndescription: y\ntype: user\n", 1, id="unterminated"),
        pytest.param("---\nname: [x\nplain words, not a key\n---\nBody\n", 3, id="broken-yaml"),
        pytest.param("---\n- a\n- b\n---\nBody\n", 2, id="not-a-mapping"),
    ],
)
def test_frontmatter_that_cannot_be_read_is_one_finding(text: str, line: int) -> None:
    assert lint({MEMORY: text}) == [(MEMORY, line, "MEM003")]


@pytest.mark.parametrize("text", ["---\nname:bob\ndescription: Who bob is\ntype: user\n---\n\nBody.\n", "---\nname:bob\n---\n\nBody.\n"])
def test_a_name_without_a_space_after_its_colon_is_named(text: str) -> None:
    (found,) = findings({MEMORY: text})
    assert (found.line, found.col, found.code) == (2, 6, "MEM003")
    assert "add a space after `name:`" in found.message
