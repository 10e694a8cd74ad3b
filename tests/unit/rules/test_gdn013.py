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
