"""GDN001 unread-guidance: no configured agent reads this guidance file."""
from __future__ import annotations

from conftest import findings, lint


def test_the_docs_example_agent_md_beside_agents_md_is_reported() -> None:
    # The doc's Example is prose: AGENTS.md and AGENT.md in the root, each written by hand.
    files = {"AGENTS.md": "# Rules\n\nRun make test.\n", "AGENT.md": "# Rules\n\nRun make check.\n"}
    assert lint(files, select="GDN001") == [("AGENT.md", 1, "GDN001")]
    (found,) = findings(files, select="GDN001")
    assert found.message.startswith("no configured agent reads AGENT.md: ")
    assert "move what it says into AGENTS.md, and delete it" in found.message


def test_the_docs_use_instead_one_file_the_agents_read_passes() -> None:
    assert lint({"AGENTS.md": "# Rules\n\nRun make test.\n\nRun make check.\n"}, select="GDN001") == []


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
