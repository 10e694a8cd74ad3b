"""GDN020 codex-never-reads: a file Codex never reads where it is."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint

CONFIG = {".codex/config.toml": 'project_doc_fallback_filenames = ["CODEX.md"]\n'}


def test_the_docs_example_a_fallback_beside_agents_md_is_reported_on_agents_md() -> None:
    files = {"AGENTS.md": example("GDN020"), "CODEX.md": example("GDN020", nth=2), ".codex/config.toml": example("GDN020", nth=3)}
    (found,) = findings(files)
    assert (found.path, found.line, found.code) == ("AGENTS.md", 1, "GDN020")
    assert "Codex never reads CODEX.md" in found.message and "only in a folder without AGENTS.md" in found.message


def test_the_docs_use_instead_what_it_said_moved_into_agents_md_is_not_reported() -> None:
    assert lint({"AGENTS.md": example("GDN020", "Use instead"), ".codex/config.toml": example("GDN020", nth=3)}) == []


@pytest.mark.parametrize(
    ("files", "reported"),
    [
        pytest.param({"AGENTS.md": "a\n", "CODEX.md": "c\n", **CONFIG}, [("AGENTS.md", 1)], id="fallback-beside-AGENTS.md"),
        pytest.param({"pkg/CODEX.md": "c\n", "AGENTS.md": "a\n", **CONFIG}, [], id="fallback-in-a-folder-without-AGENTS.md"),
        pytest.param({"AGENTS.md": "a\n", "CODEX.md": "c\n"}, [], id="not-a-fallback"),
        pytest.param(
            {"AGENTS.md": "a\n", "CODEX.md": "c\n", ".codex/config.toml": "project_doc_fallback_filenames = [\n"},
            [],
            id="unparsable-config",
        ),
        pytest.param({".codex/AGENTS.md": "a\n"}, [(".codex/AGENTS.md", 1)], id="dot-codex-AGENTS.md"),
        # tomllib recurses once per nesting level: a config nested thousands deep is Codex's own error, not a crash
        pytest.param(
            {"AGENTS.md": "a\n", "CODEX.md": "c\n", ".codex/config.toml": "x = " + "[" * 5000 + "]" * 5000 + "\n"},
            [],
            id="config-nested-too-deep",
        ),
        pytest.param(
            {"AGENTS.md": "a\n", "CODEX.md": "c\n", ".codex/config.toml": "x = " + "{y = " * 5000 + "1" + "}" * 5000 + "\n"},
            [],
            id="tables-nested-too-deep",
        ),
    ],
)
def test_files_codex_never_reads(files: dict[str, str], reported: list[tuple[str, int]]) -> None:
    assert [(p, line) for p, line, _ in lint(files, select="GDN020")] == reported


def test_a_projects_dot_codex_agents_md_names_codex_home() -> None:
    (found,) = findings({".codex/AGENTS.md": "a\n"}, select="GDN020")
    assert found.message.startswith("Codex never reads a project's .codex/AGENTS.md: its own AGENTS.md is $CODEX_HOME/AGENTS.md")


def test_only_when_codex_is_configured() -> None:
    assert lint({"AGENTS.md": "a\n", "CODEX.md": "c\n", **CONFIG}, select="GDN020", config={"agents": ["claude-code"]}) == []


def test_a_fallback_that_is_another_agents_own_file_is_not_reported() -> None:
    # `CLAUDE.md` named as Codex's fallback for the folders without an AGENTS.md, and
    # beside one at the root: Claude Code reads it there, and Codex reads AGENTS.md.
    # Deleting it (an unseen repository was told to) would leave Claude Code nothing.
    config = {".codex/config.toml": 'project_doc_fallback_filenames = ["CLAUDE.md", "CODEX.md"]\n'}
    assert [f for f in lint({"AGENTS.md": "# Codex guide\n", "CLAUDE.md": "# Claude Code guide\n", **config}) if f[2] == "GDN020"] == []
    # A fallback no other agent reads is still reported beside it.
    (found,) = [
        f
        for f in findings({"AGENTS.md": "# Codex guide\n", "CLAUDE.md": "# Claude\n", "CODEX.md": "# Codex\n", **config})
        if f.code == "GDN020"
    ]
    assert "Codex never reads CODEX.md" in found.message


def test_a_fallback_no_other_agent_reads_there_is_still_reported() -> None:
    # Amp reads AGENT.md only in a folder without AGENTS.md: beside one, nobody reads it
    # (an outside attack); and CLAUDE.md where the settings name Codex alone.
    amp = {".codex/config.toml": 'project_doc_fallback_filenames = ["AGENT.md"]\n'}
    assert [f[2] for f in lint({"AGENTS.md": "# Codex\n", "AGENT.md": "# Amp\n", **amp}) if f[2] == "GDN020"] == ["GDN020"]
    claude = {".codex/config.toml": 'project_doc_fallback_filenames = ["CLAUDE.md"]\n'}
    only_codex = {"agents": ["codex"]}
    files = {"AGENTS.md": "# Codex\n", "CLAUDE.md": "# Claude\n", **claude}
    assert [f[2] for f in lint(files, config=only_codex) if f[2] == "GDN020"] == ["GDN020"]
