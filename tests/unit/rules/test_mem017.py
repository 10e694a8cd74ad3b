"""MEM017 byte-order-mark: a memory file that starts with a UTF-8 BOM. The doc's
*Example* is the text of a file saved with a BOM: the BOM is added here."""

from __future__ import annotations

from conftest import example, memory
from memory_rules import MEMORY, findings, lint


def test_the_docs_example_saved_with_a_bom_is_reported() -> None:
    (found,) = findings({MEMORY: "\ufeff" + example("MEM017")})
    assert (found.path, found.line, found.code) == (MEMORY, 1, "MEM017")


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({MEMORY: example("MEM017", "Use instead")}) == []


def test_a_file_saved_with_a_bom_is_reported() -> None:
    (found,) = findings({MEMORY: "\ufeff" + memory("Review", "Concise reviews", "user")})
    assert (found.path, found.line, found.code) == (MEMORY, 1, "MEM017")
    assert found.message == "file starts with a UTF-8 byte-order mark; save it without BOM"


def test_a_file_without_a_bom_is_not_reported() -> None:
    assert lint({MEMORY: memory("Review", "Concise reviews", "user")}) == []
