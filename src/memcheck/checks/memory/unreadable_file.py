"""MEM001: a memory file that cannot be read as UTF-8 text (the pass's first gate)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.paths import basename
from memcheck.problem import ERROR, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document

MEM001 = Rule(
    "MEM001",
    "unreadable-file",
    ERROR,
    False,
    "Memory file cannot be read as UTF-8 text",
    """\
## What it does
Reports a memory file that cannot be read, is binary, is not valid UTF-8 or is
larger than 1 MiB, or that exhausts memcheck's stack or memory while it is checked.
So is a file of the store named in capitals that holds no memory field (`SOUL.md`,
`USER.md`: a file an agent harness loads by its name, not through the index): the
secret and hidden-text rules read it, and what they cannot read (past its first MiB,
or in bytes that are not text) passes them unseen.

## Why is this bad?
Agents load memory files as UTF-8 Markdown. A file they cannot decode is either
skipped silently or garbles the context it is loaded into.

## Example
A `notes.md` saved as UTF-16 or Latin-1 by an editor, or a binary pasted into the store.
`.claude/memory/notes.md`, saved as Latin-1:
```markdown
---
name: Café
description: Where the team meets
type: reference
---

Stand-ups are at the Café Central, Tuesdays at ten.
```

## Use instead
Re-save the file as UTF-8, or move non-Markdown files out of the memory folder.
The same text, saved as UTF-8:
```markdown
---
name: Café
description: Where the team meets
type: reference
---

Stand-ups are at the Café Central, Tuesdays at ten.
```
""",
)


def check(doc: Document) -> Problem | None:
    """Why ``doc`` cannot be read, if it cannot: nothing else is checked in it then."""
    if doc.error is None:
        return None
    return MEM001.at(doc.path, doc.error_line, 1, f"{basename(doc.path)} {doc.error}")
