"""GDN013 broken-link: a relative Markdown link in a guidance file that points at a missing file."""

from __future__ import annotations

from conftest import example, findings, lint


def test_the_docs_example_is_reported() -> None:
    assert lint({"AGENTS.md": example("GDN013")}) == [("AGENTS.md", 1, "GDN013")]


def test_the_docs_use_instead_the_files_current_path_is_not_reported() -> None:
    assert lint({"AGENTS.md": example("GDN013", "Use instead"), "docs/reference/api.md": "# API\n"}) == []


def test_the_file_at_the_links_path_passes() -> None:
    assert lint({"AGENTS.md": example("GDN013"), "docs/api.md": "# API\n"}) == []


def test_links_that_work_and_links_that_do_not() -> None:
    text = "[ok](real.md) [ok2](../docs/real.md#top) [folder](.)\n[gone](gone.md)\n[up](../../x.md)\n[win](\\.claude\\x.md)\n`[code](nope.md)`\n"
    found = findings({"docs/real.md": "x\n", "docs/AGENTS.md": text}, select="GDN013")
    assert [p.line for p in found] == [2, 3, 4]
    assert "climbs above the repository root" in found[1].message
    assert "not '\\'" in found[2].message


def test_a_kiro_steering_file() -> None:
    assert lint({".kiro/steering/api.md": "---\ninclusion: always\n---\n\nSee [the guide](gone.md).\n"}, select="GDN013") == [
        (".kiro/steering/api.md", 5, "GDN013")
    ]


def test_a_page_named_agents_md_where_the_tree_names_its_guidance_agents_md() -> None:
    # docs/agents.md is a page about agents beside other pages: a case-insensitive file
    # system opens it as AGENTS.md, but the tree's guidance is the AGENTS.md at the root.
    page = {"docs/agents.md": "# Agents\n\nSee [the planner](../plugins/planner.md).\n", "docs/tools.md": "# Tools\n"}
    assert lint({**page, "AGENTS.md": "# Guide\n\nRun the tests.\n"}, select="GDN013") == []
    # A tree that names its guidance only so (src/Agents.md beside src/atoms/Agents.md)
    # has its links checked.
    assert lint(page, select="GDN013") == [("docs/agents.md", 3, "GDN013")]
    assert lint({**page, "AGENTS.md": "# Guide\n\nSee [x](x.md).\n"}, select="GDN013") == [("AGENTS.md", 3, "GDN013")]
