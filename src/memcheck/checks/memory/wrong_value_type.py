"""MEM008: a memory field that is not a one-line string, or a `metadata` that is not a
mapping (a multi-line description is MEM014's)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.checks.memory.facts import blank
from memcheck.problem import ERROR, Rule
from memcheck.text import frontmatter as fields

if TYPE_CHECKING:
    from memcheck.checks.memory.facts import FieldFacts
    from memcheck.problem import Problem

MEM008 = Rule(
    "MEM008",
    "wrong-value-type",
    ERROR,
    False,
    "Frontmatter value has the wrong type",
    """\
## What it does
Reports `name`, `description`, `type` and `agent_name` values that are not one-line
strings (a list, a mapping, a number, a multi-line name), and a `metadata` that is
not a mapping.

## Why is this bad?
Index renderers print these values on one line; anything else renders as Python
reprs or breaks the entry.

## Example
```yaml
name:
  - Review style
```

## Use instead
```yaml
name: Review style
```
""",
)


def check(f: FieldFacts) -> Iterator[Problem]:
    path, data, kind = f.path, f.data, f.kind
    if not blank(kind) and not isinstance(kind, str):
        yield MEM008.at(path, f.line_of("type"), 1, f"type must be a string, got {type(kind).__name__}")
    for key in ("name", "description", "agent_name"):
        value = data.get(key)
        if blank(value):
            continue
        if not isinstance(value, str):
            yield MEM008.at(
                path, f.line_of(key), 1, f"{key} must be a one-line string, got {type(value).__name__} {fields.short_repr(value)}"
            )
        elif key != "description" and "\n" in value.strip():
            yield MEM008.at(path, f.line_of(key), 1, f"{key} spans several lines; write it on one line")
    if "metadata" in data and data["metadata"] is not None and not isinstance(data["metadata"], dict):
        yield MEM008.at(path, f.line_of("metadata"), 1, f"metadata must be a mapping, got {type(data['metadata']).__name__}")
