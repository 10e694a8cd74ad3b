"""GDN003 unreadable-guidance: a guidance file that cannot be read."""

from __future__ import annotations

from pathlib import Path

from conftest import example, findings, lint


def test_the_docs_example_saved_as_utf16_is_reported(tmp_path: Path) -> None:
    # Files held in memory are text: the doc's text saved as UTF-16 is written to disk.
    (tmp_path / "AGENTS.md").write_bytes(example("GDN003").encode("utf-16"))
    assert lint({}, root=tmp_path) == [("AGENTS.md", 1, "GDN003")]


def test_the_docs_use_instead_the_same_text_as_utf8_is_not_reported() -> None:
    assert lint({"AGENTS.md": example("GDN003", "Use instead")}) == []


def test_binary_and_latin1_files_are_findings_not_tracebacks(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_bytes(b"\xff\xfe# R\x00u\x00l\x00e\x00s\x00")
    (tmp_path / "CLAUDE.md").write_bytes(b"caf\xe9\n")
    found = findings({}, select="GDN003", root=tmp_path)
    assert [(p.path, p.code) for p in found] == [("AGENTS.md", "GDN003"), ("CLAUDE.md", "GDN003")]
    assert all(p.message.startswith(f"{p.path} ") for p in found)


def test_an_unreadable_kiro_steering_file(tmp_path: Path) -> None:
    (tmp_path / ".kiro" / "steering").mkdir(parents=True)
    (tmp_path / ".kiro" / "steering" / "api.md").write_bytes(b"caf\xe9\n")
    assert lint({}, select="GDN003", root=tmp_path) == [(".kiro/steering/api.md", 1, "GDN003")]


def test_a_claude_md_over_4_mib_says_claude_code_skips_it_and_an_agents_md_does_not() -> None:
    # Both are over memcheck's 1 MiB; Claude Code skips a CLAUDE.md over 4 MiB and never reads AGENTS.md.
    found = findings({"CLAUDE.md": "x" * (4 * 1024 * 1024 + 10), "AGENTS.md": "y" * (2 * 1024 * 1024)}, select="GDN003")
    by = {p.path: p.message for p in found}
    assert by["CLAUDE.md"].endswith("; Claude Code skips it too (over 4 MiB)")
    assert "Claude Code" not in by["AGENTS.md"]
