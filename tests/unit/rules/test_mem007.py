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
    ],
)
def test_a_line_that_is_no_list_of_memory_types_lists_nothing(line: str) -> None:
    files = {"CLAUDE.md": f"# Notes\n\n{line}\n", MEMORY: with_fields("name: X\ndescription: d\ntype: decision\n")}
    assert lint(files) == [(MEMORY, 4, "MEM007")]


def test_a_list_in_a_file_no_agent_loads_lists_nothing() -> None:
    files = {"docs/notes.md": KIT_TEMPLATE, MEMORY: with_fields("name: X\ndescription: d\ntype: decision\n")}
    assert lint(files) == [(MEMORY, 4, "MEM007")]
