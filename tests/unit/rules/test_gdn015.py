"""GDN015 guidance-drift: agents read different guidance files in one folder, and they differ."""
from __future__ import annotations

from pathlib import Path

from conftest import findings, lint


def test_the_docs_example_a_hand_written_claude_md_is_reported() -> None:
    # The doc's Example is prose: AGENTS.md and a hand-written CLAUDE.md with other build commands.
    files = {"AGENTS.md": "# Build\n\nRun make.\n", "CLAUDE.md": "# Build\n\nRun ninja.\n"}
    (found,) = findings(files, select="GDN015")
    assert (found.path, found.line) == ("CLAUDE.md", 1)
    assert found.message.startswith("CLAUDE.md and AGENTS.md differ: Claude Code reads CLAUDE.md and not AGENTS.md, while Codex")
    assert found.message.endswith("if they should say the same, make CLAUDE.md a symlink to AGENTS.md, or start it with @AGENTS.md and keep only what is specific to Claude Code")


def test_the_docs_use_instead_claude_md_importing_agents_md_passes() -> None:
    assert lint({"AGENTS.md": "# Build\n\nRun make.\n", "CLAUDE.md": "@AGENTS.md\n\nUse the Claude Code hooks.\n"}, select="GDN015") == []


def test_the_docs_use_instead_a_symlink_passes(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").symlink_to("AGENTS.md")
    assert lint({"AGENTS.md": "# Build\n\nRun make.\n"}, select="GDN015", root=tmp_path) == []


def test_the_same_text_is_one_set_of_instructions() -> None:
    assert lint({"AGENTS.md": "# Build\n\nRun make.\n", "CLAUDE.md": "# Build\n\nRun make.\n"}, select="GDN015") == []


def test_an_import_codex_does_not_follow_still_leaves_it_without_the_file() -> None:
    files = {"AGENTS.md": "# Build\n\n@CLAUDE.md\n", "CLAUDE.md": "# Build\n\nRun ninja.\n"}
    (found,) = findings(files, select="GDN015")
    assert "AGENTS.md imports @CLAUDE.md, but Codex" in found.message
