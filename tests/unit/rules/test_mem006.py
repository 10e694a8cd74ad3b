"""MEM006 missing-required-field (with MEM010 in keys.py: a misspelt key that stands
for a missing field is MEM006's finding alone)."""

from __future__ import annotations

from conftest import example
from memory_rules import MEMORY, STORE, findings, lint, with_fields


def test_the_docs_example_is_reported() -> None:
    found = [p for p in findings({MEMORY: example("MEM006") + "\nBody.\n"}) if p.code == "MEM006"]
    assert [(p.line, p.message) for p in found] == [(1, "required field 'description' is missing; add a one-line description")]


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({MEMORY: example("MEM006", "Use instead")}) == []


def test_an_empty_value_is_reported_on_its_line() -> None:
    (found,) = findings({MEMORY: with_fields("name: X\ndescription: ''\ntype: user\n")})
    assert (found.line, found.code, found.message) == (3, "MEM006", "required field 'description' is empty; add a one-line description")


def test_a_misspelt_key_for_a_missing_field_is_one_finding_on_that_key() -> None:
    (found,) = findings({MEMORY: with_fields("name: X\nDescription: d\ntype: user\n")})
    assert (found.line, found.code) == (3, "MEM006")
    assert (
        found.message
        == "required field 'description' is missing: the key 'Description' is not read as it (keys are matched exactly); rename it to description"
    )


def test_frontmatter_with_none_of_the_fields_is_one_finding() -> None:
    (found,) = findings({MEMORY: with_fields("session: 42\nstarted: morning\n")})
    assert (found.line, found.code) == (1, "MEM006")
    assert (
        found.message
        == "frontmatter has none of the memory fields name, description, type (it holds session, started), so agents cannot index this file as a memory; add name, description and type"
    )


def test_a_session_log_kept_in_the_store_is_one_finding() -> None:
    log = "---\nended: 2026-05-06T22:30:00Z\nproject: shop\nbranch: main\n---\n# Last session\n"
    found = [(p.path, p.line, p.code, p.message) for p in findings({f"{STORE}/last_session.md": log})]
    assert found == [
        (
            f"{STORE}/last_session.md",
            1,
            "MEM006",
            "frontmatter has none of the memory fields name, description, type (it holds ended, project, branch), "
            "so agents cannot index this file as a memory; add name, description and type",
        )
    ]


def test_an_unrelated_misspelt_key_beside_a_missing_field_is_still_reported_by_mem010() -> None:
    assert lint({MEMORY: with_fields("name: Review\ntype: user\nUpdated: 2026-01-01\nlastReadAt: 1\n")}) == [
        (MEMORY, 1, "MEM006"),
        (MEMORY, 4, "MEM010"),
    ]
