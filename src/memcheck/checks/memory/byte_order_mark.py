"""MEM017: a memory file that starts with a UTF-8 byte-order mark."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document

MEM017 = Rule(
    "MEM017",
    "byte-order-mark",
    WARNING,
    False,
    "Memory file starts with a UTF-8 byte-order mark",
    """\
## What it does
Reports a memory file that begins with a UTF-8 BOM.

## Why is this bad?
Line parsers that expect `---` on the first line see `\\ufeff---` and find no frontmatter.

## Example
A file saved by an editor set to "UTF-8 with BOM". `.claude/memory/review.md`, with
the BOM (`EF BB BF`) before its first `---`:
```markdown
---
name: Review style
description: Concise reviews
type: user
---

Keep review comments short.
```

## Use instead
Save the file as UTF-8 without BOM: the same text, with nothing before `---`.
```markdown
---
name: Review style
description: Concise reviews
type: user
---

Keep review comments short.
```
""",
)


def check(doc: Document) -> Problem | None:
    if not doc.bom:
        return None
    return MEM017.at(doc.path, 1, 1, "file starts with a UTF-8 byte-order mark; save it without BOM")
