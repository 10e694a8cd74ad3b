"""MEM002 missing-frontmatter: a memory file without YAML frontmatter."""

from __future__ import annotations

import pytest
from conftest import example
from memory_rules import MEMORY, STORE, findings, lint


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({MEMORY: example("MEM002")})
    assert (found.path, found.line, found.code) == (MEMORY, 1, "MEM002")
    assert found.message == "no YAML frontmatter: start the file with '---', name, description and type, then '---'"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({MEMORY: example("MEM002", "Use instead")}) == []


def test_no_field_rule_runs_on_a_file_without_frontmatter() -> None:
    # A file name MEM012 reports is still reported: the name is not in the frontmatter.
    assert lint({f"{STORE}/Review Style.md": "# Review style\nname: \n"}) == [
        (f"{STORE}/Review Style.md", 1, "MEM002"),
        (f"{STORE}/Review Style.md", 1, "MEM012"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "# Review style\n\nPut blocking findings first.\n",  # frontmatter stripped
        "```markdown\n---\nname: review\ndescription: How to review\ntype: user\n---\n\nBody.\n```\n",  # fenced
        "# Review\n---\nname: review\ndescription: How to review\ntype: user\n---\n\nBody.\n",  # below a title
    ],
)
def test_every_memory_of_a_store_without_frontmatter_is_told(text: str) -> None:
    # A narrowing that left stores none of whose memories has frontmatter was backed
    # out: outside attacks hid a commit stripping every memory's frontmatter, memories
    # an agent wrapped in a fence, and frontmatter below a title, behind it.
    files = {MEMORY: text, f"{STORE}/testing.md": text.replace("review", "testing")}
    assert [f for f in lint(files) if f[2] == "MEM002"] == [(MEMORY, 1, "MEM002"), (f"{STORE}/testing.md", 1, "MEM002")]
