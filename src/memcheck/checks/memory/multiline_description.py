"""MEM014: a memory description over several lines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.problem import ERROR, Rule

if TYPE_CHECKING:
    from memcheck.checks.memory.facts import FieldFacts
    from memcheck.problem import Problem

MEM014 = Rule(
    "MEM014",
    "multiline-description",
    ERROR,
    False,
    "Description spans several lines",
    """\
## What it does
Reports a `description` that holds line breaks (a YAML block scalar or a quoted
value over several lines).

## Why is this bad?
The description becomes one line of MEMORY.md; agents' line parsers read only its
first line, or nothing at all (`>-`).

## Example
```yaml
description: >-
  User wants concise
  review findings
```

## Use instead
```yaml
description: User wants concise review findings
```
""",
)


def check(f: FieldFacts) -> Iterator[Problem]:
    value = f.data.get("description")
    if isinstance(value, str) and "\n" in value.strip():
        yield MEM014.at(f.path, f.line_of("description"), 1, "description spans several lines; write it on one line")
