"""MEM002: a memory file without YAML frontmatter in a store where another memory has it (a gate: no field rule runs after it)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memcheck import lazy_regex
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
Reports a memory file whose first line is not `---`, so it has no YAML frontmatter,
in a store where another memory has frontmatter.

A store none of whose memories has frontmatter is a folder of notes kept another way
(read by their paths, listed by hand): nothing is reported there, unless the settings
name the stores (`memory.stores`) or the file holds frontmatter below its first line
(blank lines or a comment above `---`), which agents do not read.

## Why is this bad?
The index is built from each file's `name`, `description` and `type`. Without
frontmatter, agents fall back to the file name and the memory's type is unknown.

## Example
```markdown
# Review style
Put blocking findings first.
```

beside a memory of the same store that has frontmatter:

```markdown
---
name: testing
description: How the team runs its tests
type: project
---

Run the whole suite before pushing.
```

## Use instead
{EXAMPLE_OK}
`memcheck fix` never invents frontmatter: only you know what the memory is.
""",
)


# Frontmatter below the first line: blank lines or HTML comments above a `---` block
# that holds keys (a sync tool's banner, an editor's blank line). Agents read no
# frontmatter there, and it is told in every store: the file was written as a memory.
_DISPLACED = lazy_regex.compile(r"\A(?:[ \t]*\r?\n|[ \t]*<!--.*?-->[ \t]*\r?\n){1,20}---[ \t]*\r?\n[A-Za-z_][\w-]*[ \t]*:", re.S)
DISPLACED = "frontmatter below the first line"


def check(doc: Document) -> Problem | None:
    if doc.has_frontmatter:
        return None
    if _DISPLACED.match(doc.text[:4000]):
        return MEM002.at(doc.path, 1, 1, f"{DISPLACED}: agents read none there; move the '---' block to the top of the file")
    return MEM002.at(doc.path, 1, 1, "no YAML frontmatter: start the file with '---', name, description and type, then '---'")


def told(found: Problem, declared: bool, convention: bool) -> bool:
    """Whether a MEM002 finding of a store is told: where another memory of the store
    has frontmatter (``convention``), the settings declare the stores (``declared``),
    or the file's frontmatter is below its first line."""
    return convention or declared or found.message.startswith(DISPLACED)
