"""IDX004 duplicate-entry: two index entries for one memory file."""

from __future__ import annotations

from conftest import example, findings, lint, memory

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"
TESTING = {f"{STORE}/feedback_testing.md": memory("Testing", "run pytest", "feedback")}


def test_the_docs_example_is_reported_on_the_second_entry() -> None:
    (found,) = findings({**TESTING, INDEX: "# Memory\n\n" + example("IDX004")})
    assert (found.path, found.line, found.col, found.code) == (INDEX, 4, 3, "IDX004")
    assert found.message == "feedback_testing.md is already listed on line 3; keep one entry per memory"


def test_the_docs_use_instead_one_entry_is_not_reported() -> None:
    assert lint({**TESTING, INDEX: "# Memory\n\n" + example("IDX004", "Use instead")}) == []


def test_one_entry_per_memory_is_not_reported() -> None:
    assert lint({**TESTING, INDEX: "# Memory\n\n- [Testing](feedback_testing.md) - run pytest\n"}, select="IDX004") == []


def test_a_mention_mid_sentence_is_no_entry() -> None:
    index = "# Notes\n- [Testing](feedback_testing.md) — run pytest\n- a note that mentions [Testing](feedback_testing.md) mid-sentence is not an entry\n"
    assert lint({**TESTING, INDEX: index}, select="IDX004") == []
