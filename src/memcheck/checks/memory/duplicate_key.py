"""MEM005: a key that appears twice in a memory's frontmatter."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.problem import ERROR, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.frontmatter_reading import Frontmatter

MEM005 = Rule(
    "MEM005",
    "duplicate-key",
    ERROR,
    False,
    "Frontmatter repeats a key",
    """\
## What it does
Reports a key that appears twice in the same frontmatter mapping.

## Why is this bad?
PyYAML and most agents silently keep the last value, so the first one is dead text
that readers still believe.

## Example
```yaml
name: Review style
type: user
type: feedback
```

## Use instead
Keep one `type:` line with the value you mean.
```yaml
name: Review style
type: feedback
```
""",
)


def check(path: str, fm: Frontmatter) -> Iterator[Problem]:
    for key, line in fm.duplicates:
        yield MEM005.at(path, line, 1, f"key {key!r} appears more than once; YAML keeps only the last value")
