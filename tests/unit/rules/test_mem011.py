"""MEM011 duplicate-name: two memories of a store under one name (with MEM023 in
duplicates.py). The doc's *Example* is two files, its *Use instead* the second renamed."""

from __future__ import annotations

from conftest import example, memory
from memory_rules import STORE, findings, lint


def test_the_docs_example_the_later_file_is_reported() -> None:
    files = {f"{STORE}/review.md": example("MEM011"), f"{STORE}/review_style.md": example("MEM011", nth=2)}
    (found,) = findings(files)
    assert (found.path, found.line, found.code) == (f"{STORE}/review_style.md", 2, "MEM011")
    assert found.message == "name 'Review style' is already used by review.md; give each memory its own name"


def test_the_docs_use_instead_distinct_names_are_not_reported() -> None:
    assert lint({f"{STORE}/review.md": example("MEM011"), f"{STORE}/review_style.md": example("MEM011", "Use instead")}) == []


def test_names_are_compared_without_case() -> None:
    files = {f"{STORE}/a.md": memory("Same", "one", "user"), f"{STORE}/b.md": memory("same", "two", "user")}
    assert [f for f in lint(files) if f[2] == "MEM011"] == [(f"{STORE}/b.md", 2, "MEM011")]


def test_one_memory_saved_twice_under_one_name_is_one_finding_that_says_merge() -> None:
    text = memory("Testing", "Run the integration tests", "feedback", body="Run them against a real database, never mocks.\n")
    found = [p for p in findings({f"{STORE}/a.md": text, f"{STORE}/b.md": text}) if p.code in ("MEM011", "MEM023")]
    assert [(p.path, p.code) for p in found] == [(f"{STORE}/b.md", "MEM011")]
    assert found[0].message.endswith("; it says what a.md says: merge them into it and delete this one")
