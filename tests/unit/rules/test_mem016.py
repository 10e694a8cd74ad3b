"""MEM016 stale-memory: a memory not updated within memory.stale-after-days (off by
default). Today is moved in these tests: the doc's *Use instead* is a month old."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
import yaml
from conftest import example, memory
from memory_rules import MEMORY, STORE, findings, lint

from memcheck.checks import all_rules
from memcheck.workspace import tracking

TODAY = datetime.date(2026, 3, 1)
DEPLOY = f"{STORE}/deploy.md"


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tracking, "today", lambda: TODAY)


def _config() -> dict[str, Any]:
    settings: dict[str, Any] = yaml.safe_load(example("MEM016", nth=2))  # the doc's .memcheck.yaml
    return settings


def test_the_docs_example_is_reported() -> None:
    assert f"checked on {TODAY.isoformat()}" in all_rules()["MEM016"].doc  # the day both examples are judged on
    (found,) = findings({DEPLOY: example("MEM016")}, config=_config())
    assert (found.path, found.line, found.code) == (DEPLOY, 5, "MEM016")
    assert found.message == "last updated 2024-01-02 (789 days ago, over 180); review the memory and bump updated"


def test_the_docs_use_instead_a_memory_updated_is_not_reported() -> None:
    assert lint({DEPLOY: example("MEM016", "Use instead")}, config=_config()) == []


def test_a_memory_not_updated_is_reported() -> None:
    found = findings(
        {MEMORY: memory("Review", "Concise reviews", "user", extra="updated: 2024-01-02\n")}, config={"memory": {"stale-after-days": 180}}
    )
    (stale,) = [p for p in found if p.code == "MEM016"]
    assert (stale.path, stale.line) == (MEMORY, 5)
    assert stale.message == "last updated 2024-01-02 (789 days ago, over 180); review the memory and bump updated"


def test_a_memory_updated_is_not_reported() -> None:
    assert (
        lint(
            {MEMORY: memory("Review", "Concise reviews", "user", extra="updated: 2026-02-01\n")},
            config={"memory": {"stale-after-days": 180}},
        )
        == []
    )


def test_off_by_default() -> None:
    assert lint({MEMORY: memory("Review", "Concise reviews", "user", extra="updated: 2020-01-01\n")}) == []


def test_created_counts_where_there_is_no_updated() -> None:
    assert lint(
        {MEMORY: memory("Review", "Concise reviews", "user", extra="created: 2020-01-01\n")}, config={"memory": {"stale-after-days": 30}}
    ) == [(MEMORY, 5, "MEM016")]
