"""IDX010 index-encoding: a BOM, CRLF or CR line endings, or no final newline."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint, memory

STORE = ".memory"
INDEX = f"{STORE}/MEMORY.md"
A = {f"{STORE}/a.md": memory("A", "a", "user")}
ENTRY = "- [A](a.md) — a"


PREFS = {".claude/memory/user_prefs.md": memory("User preferences", "How the user likes to work", "user")}
CLAUDE_INDEX = ".claude/memory/MEMORY.md"


def test_the_docs_example_saved_with_a_bom_and_crlf_is_reported() -> None:
    (found,) = findings({**PREFS, CLAUDE_INDEX: "\ufeff" + example("IDX010").replace("\n", "\r\n")})
    assert (found.path, found.line, found.code, found.fixable) == (CLAUDE_INDEX, 1, "IDX010", True)
    assert found.message == "MEMORY.md has a byte-order mark and CRLF line endings; run `memcheck fix`"


def test_the_docs_use_instead_what_fix_writes_is_not_reported() -> None:
    assert lint({**PREFS, CLAUDE_INDEX: example("IDX010", "Use instead")}) == []


def test_an_index_saved_by_a_windows_editor() -> None:
    (found,) = findings({**A, INDEX: f"\ufeff{ENTRY}\r\n"})
    assert (found.path, found.line, found.code, found.fixable) == (INDEX, 1, "IDX010", True)
    assert found.message == "MEMORY.md has a byte-order mark and CRLF line endings; run `memcheck fix`"


def test_what_fix_writes_is_not_reported() -> None:
    assert lint({**A, INDEX: f"{ENTRY}\n"}) == []


@pytest.mark.parametrize(("text", "what"), [(f"{ENTRY}\r", "CR line endings"), (ENTRY, "no final newline")])
def test_each_flaw_is_named(text: str, what: str) -> None:
    (found,) = findings({**A, INDEX: text}, select="IDX010")
    assert found.message == f"MEMORY.md has {what}; run `memcheck fix`"
