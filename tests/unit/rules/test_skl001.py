"""SKL001 unreadable-skill: a skill file that cannot be read as UTF-8 text."""
from __future__ import annotations

from pathlib import Path

from conftest import findings, lint, write

SKILL = ".claude/skills/deploy/SKILL.md"
GOOD = "---\nname: deploy\ndescription: Deploys the app. Use when shipping.\n---\n\nBody.\n"


def test_the_docs_skill_md_saved_as_utf_16_is_reported(tmp_path: Path) -> None:
    # The doc's Example is prose ("A SKILL.md saved as UTF-16"): such a file is bytes
    # that are no UTF-8 text, so it is written to disk here (lint() holds text).
    write(tmp_path, SKILL, GOOD.encode("utf-16"))
    (found,) = findings({}, root=tmp_path)
    assert (found.path, found.line, found.code, found.severity) == (SKILL, 1, "SKL001", "error")
    assert found.message == "SKILL.md is binary (holds NUL bytes), not Markdown"


def test_the_docs_use_instead_the_same_skill_as_utf_8_is_not_reported(tmp_path: Path) -> None:
    write(tmp_path, SKILL, GOOD.encode("utf-8"))
    assert lint({}, root=tmp_path) == []


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
