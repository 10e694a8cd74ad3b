"""SKL001 unreadable-skill: a skill file that cannot be read as UTF-8 text."""

from __future__ import annotations

from pathlib import Path

from conftest import example, findings, lint, write

SKILL = ".claude/skills/deploy/SKILL.md"
GOOD = "---\nname: deploy\ndescription: Deploys the app. Use when shipping.\n---\n\nBody.\n"


def test_the_docs_example_saved_as_utf16_is_reported(tmp_path: Path) -> None:
    # Files held in memory are text: the doc's text saved as UTF-16 is written to disk.
    write(tmp_path, SKILL, example("SKL001").encode("utf-16"))
    (found,) = findings({}, root=tmp_path)
    assert (found.path, found.line, found.code, found.severity) == (SKILL, 1, "SKL001", "error")
    assert found.message == "SKILL.md is binary (holds NUL bytes), not Markdown"


def test_the_docs_use_instead_the_same_text_as_utf8_is_not_reported() -> None:
    assert lint({SKILL: example("SKL001", "Use instead")}) == []


def test_bytes_that_are_not_utf_8_are_reported_on_their_line(tmp_path: Path) -> None:
    write(tmp_path, SKILL, b"---\nname: deploy\ndescription: D\xe9ploie.\n---\n")
    (found,) = findings({}, root=tmp_path)
    assert (found.line, found.code, found.message) == (3, "SKL001", "SKILL.md is not valid UTF-8 (byte 31)")


def test_a_file_over_the_size_memcheck_reads_is_reported() -> None:
    (found,) = findings({SKILL: GOOD + "x" * (1024 * 1024)})
    assert (found.code, found.message) == ("SKL001", "SKILL.md is larger than 1024 KiB; not read")


def test_a_skill_that_cannot_be_read_gets_no_other_finding() -> None:
    # No frontmatter can be seen in it, so SKL002 (and every rule after) stays quiet.
    assert lint({SKILL: "# Deploy\n\x00\n[gone](gone.md)\n"}) == [(SKILL, 1, "SKL001")]
