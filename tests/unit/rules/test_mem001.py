"""MEM001 unreadable-file: a memory file that cannot be read as UTF-8 text.

The doc's *Example* is prose (a file saved as UTF-16 or Latin-1): each case writes
such bytes to disk (``lint(root=...)``), as lint()'s files are text."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import memory, write
from memory_rules import MEMORY, findings, lint


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


def test_the_docs_use_instead_a_file_resaved_as_utf8_is_not_reported(tmp_path: Path) -> None:
    write(tmp_path, MEMORY, memory("Caf\u00e9", "Where we meet", "user").encode())
    assert [f for f in lint({}, root=tmp_path) if f[0] == MEMORY] == []
