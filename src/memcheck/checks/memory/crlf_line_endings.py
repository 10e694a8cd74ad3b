"""MEM018: memory files of a store with CRLF line endings, told once for the store."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.paths import basename
from memcheck.problem import STORE, WARNING, Rule, some

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.stores import Store

MEM018 = Rule(
    "MEM018",
    "crlf-line-endings",
    WARNING,
    False,
    "Memory files of a store use CRLF line endings",
    """\
## What it does
Reports the memory files with Windows (CRLF) line endings: one finding per store, on
its MEMORY.md, naming the files (the first five, and how many more), since one
cause (an editor, or a checkout without `.gitattributes`) usually explains them all.
A `memcheck-disable-file MEM018` comment in MEMORY.md quiets it for the store; in the
file's own text, when it is the only one.

## Why is this bad?
Agents that keep memory stores split frontmatter with `^---\\n`; with CRLF their regex does not match
and the memory loses its frontmatter.

## Example
A file committed from Windows without `core.autocrlf`. `.claude/memory/review.md`,
each line ending in CRLF:
```markdown
---
name: Review style
description: Concise reviews
type: user
---

Keep review comments short.
```

## Use instead
Convert to LF (`dos2unix`), and add `*.md text eol=lf` to `.gitattributes`. The same
text, each line ending in LF:
```markdown
---
name: Review style
description: Concise reviews
type: user
---

Keep review comments short.
```
""",
    scope=STORE,
)


def check(store: Store, crlf: list[str]) -> Iterator[Problem]:
    """One finding for the store, on its MEMORY.md, naming the memories with CRLF
    endings (``crlf``, in the store's order); about the memory when there is one, so a
    suppression comment in it applies. One cause (an editor that saves CRLF, a
    checkout without .gitattributes) shows in many files of a store."""
    if not crlf:
        return
    split = "agents that split frontmatter at '---\\n' find none in"
    attributes = "add '*.md text eol=lf' to .gitattributes"
    if len(crlf) == 1:
        message = f"{basename(crlf[0])} uses CRLF line endings; {split} it: convert it to LF and {attributes}"
    else:
        message = f"{len(crlf)} memory files of this store use CRLF line endings ({some([basename(p) for p in crlf])}); {split} them: convert them to LF and {attributes}"
    yield MEM018.at(store.index, 1, 1, message, about=crlf[0] if len(crlf) == 1 else "")
