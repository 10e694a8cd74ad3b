"""MEM019: an unquoted value that YAML cuts at ` #` (the rest read as a comment).

Its quick fix (quote the value) is the language server's: server/session.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.memory.facts import FieldFacts
    from memcheck.problem import Problem

MEM019 = Rule(
    "MEM019",
    "value-cut-by-comment",
    WARNING,
    False,
    "YAML reads part of a value as a comment",
    """\
## What it does
Reports an unquoted value containing ` #`: YAML treats the rest of the line as a
comment, while agents' line parsers keep it.

## Why is this bad?
The value silently differs between tools: `description: fix PR #36` is `fix PR` to YAML.

## Example
```yaml
description: Follow-up to PR #36
```

## Use instead
```yaml
description: "Follow-up to PR #36"
```
""",
)


def check(f: FieldFacts) -> list[Problem]:
    # A list, not a generator: asked of every memory, and most have no ` #` at all.
    fm, data = f.frontmatter, f.data
    if fm.fallback or not any(" #" in raw for raw in fm.raw_values.values()):
        return []
    found = []
    for key in sorted(fm.plain_keys):
        raw, value = fm.raw_values.get(key), data.get(key)
        if isinstance(value, str) and raw and raw != value and " #" in raw and raw.startswith(value):
            found.append(
                MEM019.at(
                    f.path,
                    fm.key_lines.get(key, 1),
                    1,
                    f"YAML reads the value of {key!r} as {value!r} and the rest as a comment; quote the value",
                )
            )
    return found
