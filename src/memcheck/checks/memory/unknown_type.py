"""MEM007: a memory `type` outside the configured taxonomy."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.checks.memory.facts import blank
from memcheck.problem import ERROR, Rule

if TYPE_CHECKING:
    from memcheck.checks.memory.facts import FieldFacts
    from memcheck.problem import Problem

MEM007 = Rule(
    "MEM007",
    "unknown-type",
    ERROR,
    False,
    "Memory type is outside the taxonomy",
    """\
## What it does
Reports a `type` (or `metadata.type`) that is not one of `memory.types`
(default `user`, `feedback`, `project`, `reference`).

## Why is this bad?
The taxonomy is closed: agents reject or drop unknown types (an index rebuilt by
type sections leaves them out of MEMORY.md entirely), so the memory is never seen.

## Example
```yaml
type: decision
```

## Use instead
```yaml
type: project
```
""",
)


def check(f: FieldFacts) -> Iterator[Problem]:
    kind = f.kind
    if isinstance(kind, str) and not blank(kind) and kind not in f.cfg.types:
        yield MEM007.at(
            f.path,
            f.line_of("type"),
            1,
            f"type {kind!r} is not one of: {', '.join(f.cfg.types)}; use one of them, or list {kind!r} in memory.types if your team keeps its own types",
        )
