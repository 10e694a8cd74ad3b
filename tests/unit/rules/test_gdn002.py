"""GDN002 case-collision: guidance file names differ only by case."""

from __future__ import annotations

from conftest import example, findings, lint


def test_the_docs_example_two_names_one_folder_is_reported() -> None:
    found = [p for p in findings({"AGENTS.md": example("GDN002"), "Agents.md": example("GDN002", nth=2)}) if p.code == "GDN002"]
    assert [(p.path, p.line) for p in found] == [("Agents.md", 1)]
    assert (
        found[0].message
        == "Agents.md and AGENTS.md differ only by case and collide on macOS and Windows checkouts; merge them into one file"
    )


def test_the_docs_use_instead_one_file_is_not_reported() -> None:
    assert lint({"AGENTS.md": example("GDN002", "Use instead")}) == []


def test_folders_that_differ_by_case() -> None:
    assert lint({"Docs/AGENTS.md": "# a\n", "docs/AGENTS.md": "# b\n"}, select="GDN002") == [("docs/AGENTS.md", 1, "GDN002")]
