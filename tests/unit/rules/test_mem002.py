"""MEM002 missing-frontmatter: a memory file without YAML frontmatter."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import example, write
from memory_rules import MEMORY, STORE, findings, lint

SIBLING = f"{STORE}/testing.md"


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({MEMORY: example("MEM002"), SIBLING: example("MEM002", nth=2)})
    assert (found.path, found.line, found.code) == (MEMORY, 1, "MEM002")
    assert found.message == "no YAML frontmatter: start the file with '---', name, description and type, then '---'"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({MEMORY: example("MEM002", "Use instead"), SIBLING: example("MEM002", nth=2)}) == []


def test_no_field_rule_runs_on_a_file_without_frontmatter() -> None:
    # A file name MEM012 reports is still reported: the name is not in the frontmatter.
    assert lint({f"{STORE}/Review Style.md": "# Review style\nname: \n", SIBLING: example("MEM002", nth=2)}) == [
        (f"{STORE}/Review Style.md", 1, "MEM002"),
        (f"{STORE}/Review Style.md", 1, "MEM012"),
    ]


def test_a_store_where_no_memory_has_frontmatter_is_not_told_to_add_it() -> None:
    # A `.claude/memory` folder of plain notes that the guidance tells agents to read
    # by path, its MEMORY.md written by hand (judged unwanted on unseen repositories:
    # seven notes of one such folder, two of another, the only note of a third).
    notes = {
        f"{STORE}/session_guide.md": "# Session guide\nRead project_state.md first.\n",
        f"{STORE}/project_state.md": "# Project state\nPhase 2.\n",
    }
    assert [f for f in lint(notes) if f[2] == "MEM002"] == []
    assert [f for f in lint({MEMORY: example("MEM002")}) if f[2] == "MEM002"] == []


def test_memories_with_frontmatter_as_a_rule_make_the_others_findings() -> None:
    # The store's convention is frontmatter: every note without it is told, wherever
    # the ones with it sort.
    notes = {
        f"{STORE}/a_note.md": "# A\n",
        f"{STORE}/m_memory.md": example("MEM002", nth=2),
        f"{STORE}/n_memory.md": example("MEM002", nth=2).replace("name: testing", "name: n"),
        f"{STORE}/z_note.md": "# Z\n",
    }
    assert [f for f in lint(notes) if f[2] == "MEM002"] == [(f"{STORE}/a_note.md", 1, "MEM002"), (f"{STORE}/z_note.md", 1, "MEM002")]


def test_a_change_cannot_take_its_own_store_out_of_the_rule() -> None:
    # An outside attack: two memories of three stripped of frontmatter, or four notes
    # added to three memories; each note is told while one memory has frontmatter.
    stripped = {f"{STORE}/a.md": "# A\n", f"{STORE}/b.md": "# B\n", f"{STORE}/c.md": example("MEM002", nth=2)}
    assert [f[0] for f in lint(stripped) if f[2] == "MEM002"] == [f"{STORE}/a.md", f"{STORE}/b.md"]
    added = {f"{STORE}/note_{i}.md": f"# Note {i}\n" for i in range(4)}
    added.update({f"{STORE}/m_{i}.md": example("MEM002", nth=2).replace("name: testing", f"name: m{i}") for i in range(3)})
    assert len([f for f in lint(added) if f[2] == "MEM002"]) == 4


@pytest.mark.parametrize(
    "head",
    [
        "\n---\nname: review\ndescription: How to review\ntype: user\n---\n",
        "<!-- synced by memsync -->\n---\nname: review\ndescription: How to review\ntype: user\n---\n",
    ],
)
def test_frontmatter_below_the_first_line_is_told_in_any_store(head: str) -> None:
    # A tool's banner or a blank line above `---` (an outside attack): agents read no
    # frontmatter there, and the file was written as a memory.
    (found,) = [f for f in findings({MEMORY: head + "\nBody.\n", f"{STORE}/plain.md": "# Plain\n"}) if f.code == "MEM002"]
    assert found.path == MEMORY
    assert found.message == "frontmatter below the first line: agents read none there; move the '---' block to the top of the file"


def test_stores_the_settings_name_are_told_without_frontmatter() -> None:
    # `memory.stores` set by the team: each is a store of memories by their word.
    settings = {"memory": {"stores": ["team-memory"]}}
    files = {"team-memory/a.md": "# A\n", "team-memory/b.md": "# B\n"}
    assert [f for f in lint(files, config=settings) if f[2] == "MEM002"] == [
        ("team-memory/a.md", 1, "MEM002"),
        ("team-memory/b.md", 1, "MEM002"),
    ]


def test_an_unreadable_memory_says_nothing_of_the_stores_convention(tmp_path: Path) -> None:
    write(tmp_path, f"{STORE}/broken.md", "---\nname: caf\xe9\n---\n".encode("latin-1"))
    write(tmp_path, f"{STORE}/plain.md", "# Plain\n")
    assert [f for f in lint({}, root=tmp_path) if f[2] in ("MEM001", "MEM002")] == [(f"{STORE}/broken.md", 2, "MEM001")]
