"""GDN001 unread-guidance: no configured agent reads this guidance file."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import example, findings, lint


def test_the_docs_example_agent_md_beside_agents_md_is_reported() -> None:
    (found,) = findings({"AGENTS.md": example("GDN001"), "AGENT.md": example("GDN001", nth=2)})
    assert (found.path, found.line, found.code) == ("AGENT.md", 1, "GDN001")
    assert found.message.startswith("no configured agent reads AGENT.md: ")
    assert "move what it says into AGENTS.md, and delete it" in found.message


def test_the_docs_use_instead_what_it_said_moved_into_agents_md_is_not_reported() -> None:
    assert lint({"AGENTS.md": example("GDN001", "Use instead")}) == []


def test_a_file_another_file_cites_is_in_use() -> None:
    files = {"AGENTS.md": "# Rules\n", "AGENT.md": "# Rules\n", "README.md": "See AGENT.md for the rules.\n"}
    assert lint(files, select="GDN001") == []


def test_case_variants_make_no_claim_about_readers() -> None:
    # agents.md is found by the AGENTS.md look-up on macOS and Windows only, and which
    # of AGENT.md and agents.md Amp prefers is not confirmed: nothing is claimed.
    assert lint({"AGENT.md": "# a\n", "agents.md": "# b\n"}, select="GDN001,GDN015") == []


def test_a_file_only_an_agent_outside_agents_reads_names_it_as_an_option() -> None:
    files = {"AGENTS.md": "# Rules\n", ".claude/rules/api.md": "# API\n\nUse REST.\n"}
    assert lint(files, select="GDN001", config={"agents": ["codex"]}) == [(".claude/rules/api.md", 1, "GDN001")]
    (found,) = findings(files, select="GDN001", config={"agents": ["codex"]})
    assert "add claude-code to agents:" in found.message


def test_agent_md_beside_agents_md_names_every_agent() -> None:
    (found,) = findings({"AGENTS.md": "# Rules\n", "AGENT.md": "# Old rules\n"}, select="GDN001")
    assert found.message == (
        "no configured agent reads AGENT.md: Amp reads AGENT.md only in a folder without AGENTS.md, and Claude Code, Codex, Cursor, Copilot, "
        "Gemini CLI, Antigravity CLI, Kiro and Cline do not read it; move what it says into AGENTS.md, and delete it"
    )


@pytest.mark.parametrize(
    ("files", "config", "unread"),
    [
        pytest.param({"AGENT.md": "x\n"}, None, None, id="AGENT.md-alone-Amp-reads-it"),
        pytest.param({"AGENT.md": "x\n"}, {"agents": ["codex", "claude-code"]}, "AGENT.md", id="AGENT.md-alone-Amp-not-configured"),
        pytest.param(
            {"AGENT.md": "x\n", "CLAUDE.md": "y\n"}, {"agents": ["amp"]}, None, id="AGENT.md-and-CLAUDE.md-which-Amp-reads-unconfirmed"
        ),
        pytest.param({"CLAUDE.md": "x\n", ".claude/CLAUDE.md": "y\n"}, {"agents": ["claude-code"]}, None, id="both-CLAUDE.md-unconfirmed"),
        # Claude Code 2.1.277+ reads AGENTS.md where no CLAUDE.md is: older versions do not, so nothing is claimed
        pytest.param({"AGENTS.md": "x\n"}, {"agents": ["claude-code"]}, None, id="AGENTS.md-for-claude-code-only"),
        pytest.param(
            {"AGENTS.md": "x\n", "CLAUDE.md": "@AGENTS.md\n"}, {"agents": ["claude-code"]}, None, id="AGENTS.md-imported-by-CLAUDE.md"
        ),
        # whether Cursor reads a plain .md there is unconfirmed: nothing is said either way
        pytest.param({".cursor/rules/style.md": "x\n"}, None, None, id="plain-md-in-cursor-rules"),
        pytest.param({".claude/rules/a.md": "x\n"}, {"agents": ["codex"]}, ".claude/rules/a.md", id="claude-rule-without-claude-code"),
        pytest.param({"GEMINI.md": "x\n"}, {"agents": ["codex"]}, "GEMINI.md", id="GEMINI.md-without-gemini"),
        pytest.param({"GEMINI.md": "x\n"}, {"agents": ["codex", "copilot"]}, None, id="root-GEMINI.md-Copilot-reads-it"),
        pytest.param(
            {"notes/RULES.md": "x\n"},
            {"agents": ["codex"], "guidance": {"filenames": ["AGENTS.md", "RULES.md"]}},
            None,
            id="custom-name-no-claim",
        ),
    ],
)
def test_unread_files(files: dict[str, str], config: dict[str, Any] | None, unread: str | None) -> None:
    assert [path for path, _, _ in lint(files, select="GDN001", config=config)] == ([unread] if unread else [])


@pytest.mark.parametrize(
    ("files", "unread", "fix"),
    [
        pytest.param(
            {".claude/rules/a.md": "x\n"}, ".claude/rules/a.md", "move what it says into a file Codex reads, and delete it", id="rule"
        ),
        # beside a file Codex reads: the advice names it
        pytest.param(
            {"CLAUDE.md": "claude\n", "AGENTS.md": "agents\n"},
            "CLAUDE.md",
            "move what it says into AGENTS.md, and delete it",
            id="claude-md-beside-agents-md",
        ),
    ],
)
def test_unread_advice_with_agents_set_speaks_of_the_configured_agents(files: dict[str, str], unread: str, fix: str) -> None:
    (found,) = findings(files, select="GDN001", config={"agents": ["codex"]})
    # no claim about an agent outside agents:, only the plain option of adding it
    assert found.path == unread
    assert (
        found.message
        == f"no configured agent reads {unread.rpartition('/')[2]}: Codex does not read it; {fix}; or, if this repository also serves Claude Code, add claude-code to agents:"
    )


AGENT_MD_BESIDE_AGENTS_MD = {"AGENTS.md": "# Agents\n\nRun the tests.\n", "AGENT.md": "# Agent protocol\n\nHow agents hand work over.\n"}


@pytest.mark.parametrize(
    "citing",
    [
        pytest.param({"README.md": "# Shop\n\nSee [the agent protocol](AGENT.md).\n"}, id="readme-link"),
        pytest.param({"CLAUDE.md": "# Claude\n\nFollow the protocol in AGENT.md.\n"}, id="claude-md-names-it"),
        pytest.param({"CODEX.md": "# Codex\n\nRead [AGENT.md](./AGENT.md#handover) first.\n"}, id="codex-md-link-with-fragment"),
        pytest.param({"docs/guide.md": "# Guide\n\nThe protocol: @../AGENT.md\n"}, id="mention-from-a-subfolder"),
        pytest.param({"docs/guide.md": "# Guide\n\nThe protocol is in `AGENT.md`.\n"}, id="path-from-the-root-in-a-code-span"),
    ],
)
def test_a_cited_agent_md_is_left_alone(citing: dict[str, str]) -> None:
    assert lint({**AGENT_MD_BESIDE_AGENTS_MD, **citing}, select="GDN001") == []


def test_an_agent_md_nothing_cites_is_still_reported() -> None:
    files = {**AGENT_MD_BESIDE_AGENTS_MD, "README.md": "# Shop\n\nSee AGENTS.md and docs/AGENT.md.\n"}  # neither names the root AGENT.md
    (found,) = findings(files, select="GDN001")
    assert found.path == "AGENT.md" and found.message.endswith("move what it says into AGENTS.md, and delete it")


def test_a_plain_md_among_cursor_rules_gets_no_finding_of_any_rule() -> None:
    # Whether Cursor loads .cursor/rules/*.md is not in a primary source: memcheck
    # says nothing of such a file, neither "rename it" nor anything it holds.
    assert lint({".cursor/rules/style.md": "---\nglobs: [nothing/**]\n---\nx\n"}) == []
