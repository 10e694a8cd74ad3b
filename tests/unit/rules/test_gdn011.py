"""GDN011 import-cycle: @-imports that form a cycle (the imports cluster)."""

from __future__ import annotations

from conftest import example, findings, lint


def test_the_docs_example_two_files_importing_each_other_are_each_reported() -> None:
    files = {"CLAUDE.md": example("GDN011"), "AGENTS.md": example("GDN011", nth=2)}
    assert [f for f in lint(files) if f[2] == "GDN011"] == [("AGENTS.md", 3, "GDN011"), ("CLAUDE.md", 1, "GDN011")]


def test_the_docs_use_instead_one_direction_is_not_reported() -> None:
    assert lint({"CLAUDE.md": example("GDN011"), "AGENTS.md": example("GDN011", "Use instead")}) == []


def test_a_cycle_through_plain_documents_is_reported_on_the_guidance_file() -> None:
    (found,) = findings({"AGENTS.md": "@a.md\n", "a.md": "@b.md\n", "b.md": "@a.md\n"}, select="GDN011")
    assert found.path == "AGENTS.md" and found.message == "import cycle a.md -> b.md -> a.md; import in one direction only"


def test_a_cycle_between_folders_is_reported_on_each_member() -> None:
    files = {"one/AGENTS.md": "# One\n\n@../two/AGENTS.md\n", "two/AGENTS.md": "# Two\n\n@../one/AGENTS.md\n"}
    found = findings(files, select="GDN011")
    assert [(p.path, p.line) for p in found] == [("one/AGENTS.md", 3), ("two/AGENTS.md", 3)]
    assert "one/AGENTS.md -> two/AGENTS.md -> one/AGENTS.md" in found[0].message
