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


# A session-end command's rolling handoff log kept in the store: its frontmatter
# carries an empty name and the harness's bookkeeping under `metadata` (no type there),
# and a memory of the store says what it is. Read by name at session start, never
# through the index.
HANDOFF_LOG = """---
name: ""
metadata:
  node_type: memory
  ended: 2026-07-30T16:20:00Z
  branch: main
  originSessionId: 3cf2094a
---

# Last session

## What we did
- Shipped the release notes.
"""


def test_a_handoff_log_named_in_capitals_whose_fields_are_empty_is_the_store_s_own_document() -> None:
    files = {
        f"{STORE}/LAST_SESSION.md": HANDOFF_LOG,
        f"{STORE}/feedback_handoff.md": with_fields(
            "name: Session handoff\ndescription: The handoff log is LAST_SESSION.md\ntype: feedback\n"
        ),
    }
    assert lint(files) == []


def test_a_file_named_in_capitals_with_a_name_is_a_memory_all_the_same() -> None:
    # A name that says something, or a type nested in `metadata` as Claude Code writes
    # it: a memory, whatever its file's name.
    named = HANDOFF_LOG.replace('name: ""', "name: Last session")
    typed = HANDOFF_LOG.replace("  node_type: memory\n", "  type: project\n")
    assert lint({f"{STORE}/LAST_SESSION.md": named}) == [(f"{STORE}/LAST_SESSION.md", 1, "MEM006")] * 2
    assert lint({f"{STORE}/LAST_SESSION.md": typed}) == [
        (f"{STORE}/LAST_SESSION.md", 1, "MEM006"),
        (f"{STORE}/LAST_SESSION.md", 2, "MEM006"),
    ]
