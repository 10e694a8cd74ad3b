"""AGT001 unreadable-agent-file: an agent file that cannot be read as UTF-8 text."""
from __future__ import annotations

from pathlib import Path

from conftest import findings, lint, write

REVIEWER = ".claude/agents/reviewer.md"
TEXT = "---\nname: reviewer\ndescription: Reviews code.\n---\nYou review code.\n"


def test_the_docs_example_a_subagent_saved_as_utf16_is_reported(tmp_path: Path) -> None:
    # The doc's Example is prose: `.claude/agents/reviewer.md` saved as UTF-16. Files
    # held in memory are text, so these bytes are written to disk (root=tmp_path).
    write(tmp_path, REVIEWER, TEXT.encode("utf-16"))
    (found,) = findings({}, select="AGT", root=tmp_path)
    assert (found.path, found.line, found.code) == (REVIEWER, 1, "AGT001")
    assert found.message == "reviewer.md is binary (holds NUL bytes), not Markdown"


def test_the_docs_use_instead_the_same_file_as_utf8_is_not_reported() -> None:
    assert lint({REVIEWER: TEXT}, select="AGT") == []


def test_a_file_in_another_encoding_than_utf8_is_reported(tmp_path: Path) -> None:
    write(tmp_path, REVIEWER, TEXT.replace("Reviews", "Révise").encode("latin-1"))
    assert lint({}, select="AGT", root=tmp_path) == [(REVIEWER, 3, "AGT001")]  # the line of the first byte that is not UTF-8
