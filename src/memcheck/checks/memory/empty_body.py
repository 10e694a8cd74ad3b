"""MEM013: a memory with nothing after its frontmatter."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.text.frontmatter_reading import Frontmatter

MEM013 = Rule(
    "MEM013",
    "empty-body",
    WARNING,
    False,
    "Memory file has no content after its frontmatter",
    """\
## What it does
Reports a memory file whose body (everything after the frontmatter) is blank.

## Why is this bad?
An agent that opens the memory finds nothing beyond the index line: the memory is
either unfinished or should be deleted.

## Example
```markdown
---
name: Review style
description: Concise reviews
type: user
---
```

## Use instead
Write the memory's content below the frontmatter, or delete the file.
```markdown
---
name: Review style
description: Concise reviews
type: user
---

Keep review comments short and put blocking findings first.
```
""",
)


def check(doc: Document, fm: Frontmatter) -> Problem | None:
    if doc.body and not doc.body.isspace():  # (what `body.strip()` says, without a copy of each body)
        return None
    return MEM013.at(doc.path, fm.end_line, 1, "nothing after the frontmatter: write the memory or delete the file")
