"""GDN022 local-file-hides-agents-md: a CLAUDE.local.md makes Claude Code leave AGENTS.md aside."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint

TEAM = "# Team\n\nRun `make test` before every commit.\n"


def test_the_docs_example_a_personal_claude_local_md_beside_agents_md_is_reported() -> None:
    (found,) = findings({"AGENTS.md": example("GDN022"), "CLAUDE.local.md": example("GDN022", nth=2)})
    assert (found.path, found.line, found.code) == ("CLAUDE.local.md", 1, "GDN022")
    assert found.message.startswith("CLAUDE.local.md hides AGENTS.md from your Claude Code")
    assert found.message.endswith("start CLAUDE.local.md with @AGENTS.md to read both")


def test_the_docs_use_instead_a_claude_local_md_that_imports_agents_md_is_not_reported() -> None:
    assert lint({"AGENTS.md": example("GDN022"), "CLAUDE.local.md": example("GDN022", "Use instead")}) == []


@pytest.mark.parametrize(
    ("files", "reported"),
    [
        pytest.param({"AGENTS.md": "team\n", "CLAUDE.local.md": "mine\n"}, [("CLAUDE.local.md", 1)], id="beside"),
        pytest.param({"pkg/AGENTS.md": "team\n", "CLAUDE.local.md": "mine\n"}, [("CLAUDE.local.md", 1)], id="above-an-AGENTS.md-below"),
        pytest.param({"AGENTS.md": "team\n", "CLAUDE.local.md": "@AGENTS.md\nmine\n"}, [], id="imports-it"),
        pytest.param({"AGENTS.md": "team\n", "CLAUDE.md": "claude\n", "CLAUDE.local.md": "mine\n"}, [], id="the-team-CLAUDE.md-decides"),
        pytest.param({"AGENTS.md": "team\n", "pkg/CLAUDE.local.md": "mine\n"}, [], id="below-the-AGENTS.md-folder"),
    ],
)
def test_claude_local_md_hiding_agents_md(files: dict[str, str], reported: list[tuple[str, int]]) -> None:
    assert [(p, line) for p, line, _ in lint(files, select="GDN022")] == reported


def test_the_import_named_is_relative_to_the_local_file() -> None:
    (found,) = findings({"pkg/AGENTS.md": "team\n", "CLAUDE.local.md": "mine\n"}, select="GDN022")
    assert "hides pkg/AGENTS.md" in found.message and "with @pkg/AGENTS.md to read both" in found.message


def test_more_than_three_hidden_files_are_counted() -> None:
    files = {f"p{n}/AGENTS.md": "team\n" for n in range(5)} | {"CLAUDE.local.md": "mine\n"}
    (found,) = findings(files, select="GDN022")
    assert "p0/AGENTS.md, p1/AGENTS.md, p2/AGENTS.md and 2 more" in found.message


def test_only_when_claude_code_is_configured() -> None:
    assert lint({"AGENTS.md": "team\n", "CLAUDE.local.md": "mine\n"}, select="GDN022", config={"agents": ["codex"]}) == []
