"""MEM007 unknown-type: a memory type outside the taxonomy."""

from __future__ import annotations

import pytest
from conftest import example
from memory_rules import MEMORY, findings, lint, with_fields


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({MEMORY: with_fields(f"name: Queue\ndescription: Why we queue\n{example('MEM007')}")})
    assert (found.path, found.line, found.code) == (MEMORY, 4, "MEM007")
    assert (
        found.message
        == "type 'decision' is not one of: user, feedback, project, reference; use one of them, or list 'decision' in memory.types if your team keeps its own types"
    )


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({MEMORY: with_fields(f"name: Queue\ndescription: Why we queue\n{example('MEM007', 'Use instead')}")}) == []


def test_metadata_type_counts_for_type() -> None:
    assert lint({MEMORY: with_fields("name: X\ndescription: d\nmetadata:\n  type: nope\n")}) == [(MEMORY, 4, "MEM007")]


def test_a_type_the_settings_list_is_not_reported() -> None:
    assert (
        lint({MEMORY: with_fields("name: X\ndescription: d\ntype: decision\n")}, config={"memory": {"types": ["user", "decision"]}}) == []
    )


KIT_TEMPLATE = """# Memory

Save each memory with this frontmatter:

```yaml
---
name: {{short title}}
description: {{one line}}
type: {{user, feedback, project, decision, reference}}
---
```
"""


def test_a_type_the_repositorys_instructions_list_is_not_reported() -> None:
    """A kit's CLAUDE.md gives its memories' frontmatter template with a fifth type:
    its agents are told to write it, as if the settings listed it."""
    files = {"CLAUDE.md": KIT_TEMPLATE, MEMORY: with_fields("name: X\ndescription: d\ntype: decision\n")}
    assert lint(files) == []


def test_a_type_the_instructions_do_not_list_is_still_reported() -> None:
    files = {"CLAUDE.md": KIT_TEMPLATE, MEMORY: with_fields("name: X\ndescription: d\ntype: decison\n")}
    assert lint(files) == [(MEMORY, 4, "MEM007")]


def test_the_stores_own_readme_lists_types_with_bars() -> None:
    files = {
        ".claude/memory/README.md": "# Schema\n\n    type: user | feedback | project | reference | runbook\n",
        MEMORY: with_fields("name: X\ndescription: d\nmetadata:\n  type: runbook\n"),
    }
    assert lint(files) == []


@pytest.mark.parametrize(
    "line",
    [
        "type: string | number | decision",  # a list of other types, not of memories'
        "type: user, decision",  # two values: an example, not a list of types
        "The type: user, feedback, decision and more was discussed.",  # prose
        "type: user | feedback | the decision kind",  # a value that is no word
        # An outside attack's shapes: a template with a usual type misspelt, and one for
        # another kind of file (tickets), each missing a usual type, list none.
        "type: {user, feedbak, project, reference, decision}",
        "type: {user, project, decision, chore}",
        "type: {user, feedback, project, decision}",
    ],
)
def test_a_line_that_is_no_list_of_memory_types_lists_nothing(line: str) -> None:
    files = {"CLAUDE.md": f"# Notes\n\n{line}\n", MEMORY: with_fields("name: X\ndescription: d\ntype: decision\n")}
    assert lint(files) == [(MEMORY, 4, "MEM007")]


def test_a_list_in_a_file_no_agent_loads_lists_nothing() -> None:
    files = {"docs/notes.md": KIT_TEMPLATE, MEMORY: with_fields("name: X\ndescription: d\ntype: decision\n")}
    assert lint(files) == [(MEMORY, 4, "MEM007")]


def test_types_the_settings_name_are_not_widened_by_a_template() -> None:
    """The settings narrow the types; a stock template in CLAUDE.md does not bring
    `feedback` back (an outside attack's recipe)."""
    files = {
        "CLAUDE.md": "    type: {user, feedback, project, reference, decision}\n",
        MEMORY: with_fields("name: X\ndescription: d\ntype: feedback\n"),
    }
    assert lint(files, config={"memory": {"types": ["user", "project", "decision"]}}) == [(MEMORY, 4, "MEM007")]


def test_the_team_types_are_worked_out_once_per_store(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every memory of the store carries the team's type: the store's own documents
    and the guidance are read for it once, not once per memory (a store of 4,000 such
    memories took 2.7 times as long as one of 2,000)."""
    from memcheck.checks.memory import unknown_type

    calls = []
    real = unknown_type.documented_types
    monkeypatch.setattr(unknown_type, "documented_types", lambda *a: calls.append(1) or real(*a))
    files = {"CLAUDE.md": KIT_TEMPLATE, ".claude/memory/README.md": "# Notes\n"}
    files.update({f".claude/memory/d{i}.md": with_fields(f"name: D{i}\ndescription: d{i}\ntype: decision\n") for i in range(30)})
    assert lint(files) == []
    assert len(calls) == 2  # the guidance, and the store's own documents
