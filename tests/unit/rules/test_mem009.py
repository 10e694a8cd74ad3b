"""MEM009 invalid-date: a created/updated that is no ISO-8601 date, or updated before
created."""

from __future__ import annotations

from conftest import example
from memory_rules import MEMORY, findings, lint, with_fields

BASE = "name: X\ndescription: d\ntype: user\n"


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({MEMORY: with_fields(BASE + example("MEM009"))})
    assert (found.path, found.line, found.code) == (MEMORY, 5, "MEM009")
    assert found.message == "created '03/25/2026' is not an ISO-8601 date (YYYY-MM-DD)"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({MEMORY: with_fields(BASE + example("MEM009", "Use instead"))}) == []


def test_updated_before_created_is_reported_on_updated() -> None:
    (found,) = findings({MEMORY: with_fields(BASE + "created: 2026-03-25\nupdated: 2026-01-01\n")})
    assert (found.line, found.code, found.message) == (6, "MEM009", "updated 2026-01-01 is before created 2026-03-25")


def test_each_date_that_is_no_date_is_reported() -> None:
    assert lint({MEMORY: with_fields(BASE + "created: soon\nupdated: later\n")}) == [(MEMORY, 5, "MEM009"), (MEMORY, 6, "MEM009")]
