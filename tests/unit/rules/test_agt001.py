"""AGT001 unreadable-agent-file: an agent file that cannot be read as UTF-8 text."""

from __future__ import annotations

from pathlib import Path

from conftest import example, findings, lint, write

REVIEWER = ".claude/agents/reviewer.md"
TEXT = "---\nname: reviewer\ndescription: Reviews code.\n---\nYou review code.\n"


def test_the_docs_example_saved_as_utf16_is_reported(tmp_path: Path) -> None:
    # Files held in memory are text: the doc's text saved as UTF-16 is written to disk.
    write(tmp_path, REVIEWER, example("AGT001").encode("utf-16"))
    (found,) = findings({}, select="AGT", root=tmp_path)
    assert (found.path, found.line, found.code) == (REVIEWER, 1, "AGT001")
    assert found.message == "reviewer.md is binary (holds NUL bytes), not Markdown"


def test_the_docs_use_instead_the_same_text_as_utf8_is_not_reported() -> None:
    assert lint({REVIEWER: example("AGT001", "Use instead")}) == []


def test_a_file_in_another_encoding_than_utf8_is_reported(tmp_path: Path) -> None:
    write(tmp_path, REVIEWER, TEXT.replace("Reviews", "Révise").encode("latin-1"))
    assert lint({}, select="AGT", root=tmp_path) == [(REVIEWER, 3, "AGT001")]  # the line of the first byte that is not UTF-8
