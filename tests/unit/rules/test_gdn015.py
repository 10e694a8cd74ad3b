"""GDN015 guidance-drift: agents read different guidance files in one folder, and they differ."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import example, findings, lint


def test_the_docs_example_a_hand_written_claude_md_is_reported() -> None:
    (found,) = findings({"AGENTS.md": example("GDN015"), "CLAUDE.md": example("GDN015", nth=2)})
    assert (found.path, found.line, found.code) == ("CLAUDE.md", 1, "GDN015")
    assert found.message.startswith("CLAUDE.md and AGENTS.md differ: Claude Code reads CLAUDE.md and not AGENTS.md, while Codex")
    assert found.message.endswith(
        "if they should say the same, make CLAUDE.md a symlink to AGENTS.md, or start it with @AGENTS.md and keep only what is specific to Claude Code"
    )


def test_the_docs_use_instead_claude_md_importing_agents_md_is_not_reported() -> None:
    assert lint({"AGENTS.md": example("GDN015"), "CLAUDE.md": example("GDN015", "Use instead"), ".claude/settings.json": "{}\n"}) == []


def test_a_symlink_passes(tmp_path: Path) -> None:
    (tmp_path / "CLAUDE.md").symlink_to("AGENTS.md")
    assert lint({"AGENTS.md": "# Build\n\nRun make.\n"}, select="GDN015", root=tmp_path) == []


def test_the_same_text_is_one_set_of_instructions() -> None:
    assert lint({"AGENTS.md": "# Build\n\nRun make.\n", "CLAUDE.md": "# Build\n\nRun make.\n"}, select="GDN015") == []


def test_the_same_text_below_a_title_naming_each_file_is_one_set_of_instructions() -> None:
    """A fourth unseen set: `# CLAUDE.md` atop one, `# AGENTS.md` atop the other, and the
    same instructions below: every agent gets them."""
    body = "\nRun make.\n"
    assert lint({"AGENTS.md": "# AGENTS.md\n" + body, "CLAUDE.md": "# CLAUDE.md\n" + body}, select="GDN015") == []
    # Another title, or another word below it, is a difference.
    assert lint({"AGENTS.md": "# AGENTS.md\n" + body, "CLAUDE.md": "# Claude\n" + body}, select="GDN015") == [("CLAUDE.md", 1, "GDN015")]
    assert lint({"AGENTS.md": "# AGENTS.md\n" + body, "CLAUDE.md": "# CLAUDE.md\n\nRun ninja.\n"}, select="GDN015") == [
        ("CLAUDE.md", 1, "GDN015")
    ]


def test_an_import_codex_does_not_follow_still_leaves_it_without_the_file() -> None:
    files = {"AGENTS.md": "# Build\n\n@CLAUDE.md\n", "CLAUDE.md": "# Build\n\nRun ninja.\n"}
    (found,) = findings(files, select="GDN015")
    assert "AGENTS.md imports @CLAUDE.md, but Codex" in found.message


def test_differing_files_name_the_agents_on_each_side() -> None:
    found = findings({"AGENTS.md": "# Rules\n\nRun pytest.\n", "CLAUDE.md": "# Rules\n\nRun unittest.\n"})
    assert [(p.path, p.code) for p in found] == [("CLAUDE.md", "GDN015")]
    message = found[0].message
    assert message.startswith(
        "CLAUDE.md and AGENTS.md differ: Claude Code reads CLAUDE.md and not AGENTS.md, while Codex, Amp and Cline read AGENTS.md and not CLAUDE.md;"
    )
    # never the old falsehood that agents read AGENTS.md instead of CLAUDE.md
    assert "instead" not in message and "Cursor" not in message and "Copilot" not in message
    assert "make CLAUDE.md a symlink to AGENTS.md, or start it with @AGENTS.md" in message


@pytest.mark.parametrize(
    "claude",
    [
        pytest.param("# Rules\n\nRun pytest.\n", id="identical"),
        pytest.param("# Rules\r\n\r\nRun pytest.\r\n", id="identical-but-CRLF"),
        pytest.param("@AGENTS.md\n\nClaude only: use the MCP server.\n", id="imports-AGENTS.md"),
    ],
)
def test_one_instruction_set_is_not_drift(claude: str) -> None:
    assert lint({"AGENTS.md": "# Rules\n\nRun pytest.\n", "CLAUDE.md": claude}, select="GDN001,GDN015") == []


def test_an_import_the_reader_does_not_follow_is_still_drift() -> None:
    # Amp follows AGENTS.md's @CLAUDE.md; Codex follows no import at all.
    (found,) = findings({"AGENTS.md": "# Rules\n\n@CLAUDE.md\n", "CLAUDE.md": "# Claude rules\n\nRun unittest.\n"}, select="GDN015")
    message = found.message
    assert "Claude Code reads CLAUDE.md and not AGENTS.md, while Codex reads AGENTS.md and not CLAUDE.md" in message
    assert "(AGENTS.md imports @CLAUDE.md, but Codex does not follow @-imports)" in message
    # AGENTS.md has text of its own: never advise making it a symlink, which would discard it
    assert "Amp" not in message and "make AGENTS.md a symlink" not in message
    assert message.endswith(
        "if they should say the same, put what CLAUDE.md says into AGENTS.md in place of the import, then make CLAUDE.md a symlink to AGENTS.md, or start it with @AGENTS.md and keep only what is specific to Claude Code"
    )


def test_drift_in_a_subfolder_and_with_gemini() -> None:
    files = {
        "pkg/AGENTS.md": "# Pkg\n",
        "pkg/CLAUDE.md": "# Pkg for Claude\n",
        "pkg/GEMINI.md": "@AGENTS.md\n",
    }  # Gemini CLI follows it: one set
    assert lint(files, select="GDN015") == [("pkg/CLAUDE.md", 1, "GDN015")]


def test_an_override_is_meant_to_differ() -> None:
    (found,) = findings({"AGENTS.md": "# Shared\n", "AGENTS.override.md": "# Codex only\n"}, select="GDN015")
    assert found.path == "AGENTS.override.md" and "Codex reads AGENTS.override.md and not AGENTS.md, while Amp" in found.message
    # an override exists to differ: never advise making it a symlink to what it overrides
    assert "symlink" not in found.message
    assert (
        "if Codex should follow AGENTS.md too, delete AGENTS.override.md or copy what Codex needs into AGENTS.override.md" in found.message
    )


def test_repository_settings_that_change_an_agent_silence_claims() -> None:
    files = {"AGENTS.md": "# Rules\n", "GEMINI.md": "# Gemini\n"}
    agents_set = {"agents": ["gemini", "codex"]}
    assert lint(files, select="GDN001,GDN015", config=agents_set) == [("GEMINI.md", 1, "GDN015")]
    files[".gemini/settings.json"] = '{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}\n'
    assert lint(files, select="GDN001,GDN015", config=agents_set) == []


def test_a_gemini_extensions_context_file_is_the_extensions_not_the_folders() -> None:
    # A skills library that is also a Gemini CLI extension: GEMINI.md is what the
    # extension loads into its users' sessions, and differs from AGENTS.md on purpose.
    files = {"AGENTS.md": "# Contributing\n\nRun the tests.\n", "GEMINI.md": "# Superpowers\n\nUse the skills.\n"}
    manifest = '{"name": "x", "version": "1.0.0", "contextFileName": "GEMINI.md"}'
    assert lint({**files, "gemini-extension.json": manifest}, select="GDN015") == []
    # Without contextFileName the extension loads its GEMINI.md all the same.
    assert lint({**files, "gemini-extension.json": '{"name": "x", "version": "1.0.0"}'}, select="GDN015") == []
    # An extension whose context file is another: GEMINI.md is the folder's guidance.
    other = '{"name": "x", "version": "1.0.0", "contextFileName": "CONTEXT.md"}'
    assert lint({**files, "gemini-extension.json": other}, select="GDN015") == [("GEMINI.md", 1, "GDN015")]
    # No manifest: a project's GEMINI.md, still compared.
    assert lint(files, select="GDN015") == [("GEMINI.md", 1, "GDN015")]


def test_cursor_is_not_named_for_a_dot_claude_claude_md() -> None:
    # Whether Cursor reads CLAUDE.md files is unconfirmed.
    (found,) = findings({"AGENTS.md": "agents\n", ".claude/CLAUDE.md": "dot claude\n"}, select="GDN015")
    assert found.path == ".claude/CLAUDE.md"
    assert "while Codex, Amp, Copilot and Cline read AGENTS.md" in found.message and "Cursor" not in found.message
