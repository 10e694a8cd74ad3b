"""IDX011 unreadable-index: a MEMORY.md that cannot be read, or is not a file
memcheck reads and writes. On disk: a UTF-16 file, a folder and a FIFO are not
files the in-memory tree can hold."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import example, findings, lint, memory, write

STORE = ".memory"
INDEX = f"{STORE}/MEMORY.md"
A = {f"{STORE}/a.md": memory("A", "a", "user")}


PREFS = {".claude/memory/user_prefs.md": memory("User preferences", "How the user likes to work", "user")}
CLAUDE_INDEX = ".claude/memory/MEMORY.md"


def test_the_docs_example_saved_as_utf16_is_reported(tmp_path: Path) -> None:
    write(tmp_path, CLAUDE_INDEX, example("IDX011").encode("utf-16"))
    (found,) = findings(PREFS, root=tmp_path)
    assert (found.path, found.code, found.fixable) == (CLAUDE_INDEX, "IDX011", False)


def test_the_docs_use_instead_saved_as_utf8_is_not_reported(tmp_path: Path) -> None:
    write(tmp_path, CLAUDE_INDEX, example("IDX011", "Use instead").encode())
    assert lint(PREFS, root=tmp_path) == []


def test_an_index_saved_as_utf16(tmp_path: Path) -> None:
    write(tmp_path, INDEX, "- [A](a.md) — a\n".encode("utf-16"))
    (found,) = findings(A, root=tmp_path)
    assert (found.path, found.code, found.fixable) == (INDEX, "IDX011", False)
    assert found.message.startswith("MEMORY.md ")


def test_utf8_is_not_reported() -> None:
    assert lint({**A, INDEX: "- [A](a.md) — a\n"}) == []


def test_a_folder_named_memory_md(tmp_path: Path) -> None:
    write(tmp_path, f"{INDEX}/x", "a folder named MEMORY.md\n")
    (found,) = findings(A, root=tmp_path)
    assert (found.path, found.line, found.code) == (INDEX, 1, "IDX011")
    assert found.message.startswith(
        "MEMORY.md is a folder, not a file: agents load no index from it; `memcheck fix` will not write through or replace it"
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_never_opened(tmp_path: Path) -> None:
    (tmp_path / STORE).mkdir()
    os.mkfifo(tmp_path / INDEX)
    (found,) = findings(A, root=tmp_path)
    assert found.code == "IDX011" and found.message.startswith("MEMORY.md is a FIFO, not a regular file; not read")
