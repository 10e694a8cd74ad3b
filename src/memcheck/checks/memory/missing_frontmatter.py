"""MEM002: a memory file without YAML frontmatter (a gate: no field rule runs after it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.checks.memory.facts import EXAMPLE_OK
from memcheck.problem import ERROR, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document

MEM002 = Rule(
    "MEM002",
    "missing-frontmatter",
    ERROR,
    False,
    "Memory file has no frontmatter",
    f"""\
## What it does
Reports a memory file whose first line is not `---`, so it has no YAML frontmatter.

## Why is this bad?
The index is built from each file's `name`, `description` and `type`. Without
frontmatter, agents fall back to the file name and the memory's type is unknown.

## Example
```markdown
# Review style
Put blocking findings first.
```

## Use instead
{EXAMPLE_OK}
`memcheck fix` never invents frontmatter: only you know what the memory is.
""",
)


def check(doc: Document) -> Problem | None:
    if doc.has_frontmatter:
        return None
    return MEM002.at(doc.path, 1, 1, "no YAML frontmatter: start the file with '---', name, description and type, then '---'")
