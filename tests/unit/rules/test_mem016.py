"""MEM016 stale-memory: a memory not updated within memory.stale-after-days (off by
default). The doc's *Example* is prose; today is moved in these tests."""
from __future__ import annotations

import datetime

import pytest
from conftest import memory
from memory_rules import MEMORY, findings, lint

from memcheck.workspace import tracking

TODAY = datetime.date(2026, 3, 1)


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tracking, "today", lambda: TODAY)


def test_the_docs_example_is_reported() -> None:
    found = findings({MEMORY: memory("Review", "Concise reviews", "user", extra="updated: 2024-01-02\n")}, config={"memory": {"stale-after-days": 180}})
    (stale,) = [p for p in found if p.code == "MEM016"]
    assert (stale.path, stale.line) == (MEMORY, 5)
    assert stale.message == "last updated 2024-01-02 (789 days ago, over 180); review the memory and bump updated"


def test_the_docs_use_instead_a_memory_updated_is_not_reported() -> None:
    assert lint({MEMORY: memory("Review", "Concise reviews", "user", extra="updated: 2026-02-01\n")}, config={"memory": {"stale-after-days": 180}}) == []


def test_off_by_default() -> None:
    assert lint({MEMORY: memory("Review", "Concise reviews", "user", extra="updated: 2020-01-01\n")}) == []


def test_created_counts_where_there_is_no_updated() -> None:
    assert lint({MEMORY: memory("Review", "Concise reviews", "user", extra="created: 2020-01-01\n")}, config={"memory": {"stale-after-days": 30}}) == [(MEMORY, 5, "MEM016")]
