"""MEM002 missing-frontmatter: a memory file without YAML frontmatter."""

from __future__ import annotations

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
