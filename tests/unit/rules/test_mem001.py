"""MEM001 unreadable-file: a memory file that cannot be read as UTF-8 text.

The doc's *Example* is text saved in another encoding (Latin-1): each case writes
such bytes to disk (``lint(root=...)``), as lint()'s files are text."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import example, memory, write
from memory_rules import INDEX, MEMORY, STORE, findings, lint

NOTES = f"{STORE}/notes.md"


def test_the_docs_example_saved_as_latin1_is_reported_at_its_first_byte_that_is_not_utf8(tmp_path: Path) -> None:
    write(tmp_path, NOTES, example("MEM001").encode("latin-1"))
    (found,) = findings({}, root=tmp_path)
    assert (found.path, found.line, found.code, found.severity) == (NOTES, 2, "MEM001", "error")
    assert found.message.startswith("notes.md ")


def test_the_docs_use_instead_the_same_text_saved_as_utf8_is_not_reported(tmp_path: Path) -> None:
    write(tmp_path, NOTES, example("MEM001", "Use instead").encode())
    assert lint({}, root=tmp_path) == []


@pytest.mark.parametrize(
    ("content", "line"),
    [
        pytest.param(b"\xff\xfe---\x00\n", 1, id="utf-16-or-binary"),
        pytest.param(b"---\nname: caf\xe9\n---\n", 2, id="latin-1"),
    ],
)
def test_a_file_that_is_not_utf8_is_reported_and_nothing_else_is(tmp_path: Path, content: bytes, line: int) -> None:
    write(tmp_path, MEMORY, content)
    (found,) = [p for p in findings({}, root=tmp_path) if p.path == MEMORY]
    assert (found.line, found.code, found.severity) == (line, "MEM001", "error")
    assert found.message.startswith("review.md ")


def test_a_file_resaved_as_utf8_is_not_reported(tmp_path: Path) -> None:
    write(tmp_path, MEMORY, memory("Caf\u00e9", "Where we meet", "user").encode())
    assert [f for f in lint({}, root=tmp_path) if f[0] == MEMORY] == []


def test_a_store_s_own_document_that_cannot_be_read_is_reported_and_never_listed(tmp_path: Path) -> None:
    # SOUL.md, loaded by its name: the secret rules read its first MiB alone, so a
    # token past it would pass them unseen. No memory rule but this one reads it.
    write(tmp_path, f"{STORE}/notes.md", memory("Notes", "Team notes", "project"))
    write(tmp_path, INDEX, "# Memory\n\n## Project\n- [Notes](notes.md) - Team notes\n")
    write(tmp_path, f"{STORE}/SOUL.md", b"# Soul\n\n" + b"Be kind and brief.\n" * 60_000)
    write(tmp_path, f"{STORE}/USER.md", "# User\n\nMeets at the Café.\n".encode("latin-1"))
    assert [(p.path, p.code, p.message) for p in findings({}, root=tmp_path)] == [
        (f"{STORE}/SOUL.md", "MEM001", "SOUL.md is larger than 1024 KiB; not read"),
        (f"{STORE}/USER.md", "MEM001", "USER.md is not valid UTF-8 (byte 24)"),
    ]
