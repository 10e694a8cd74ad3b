"""IDX011: a MEMORY.md that cannot be read, or is not a file memcheck reads and writes.

Three of the family's gates: a special file (never opened), a folder or a dangling
symlink (fix would write through or replace it), and a file that cannot be read as
text; none of the index's other rules is judged after one. A store's check that
exhausts memcheck's stack or memory is reported under this code too (the family's
pass wraps each store's check in ``contained``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.index.store import odd_index
from memcheck.problem import ERROR, Rule
from memcheck.workspace.stores import INDEX_NAME

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

IDX011 = Rule(
    "IDX011",
    "unreadable-index",
    ERROR,
    False,
    "MEMORY.md cannot be read as UTF-8 text",
    """\
## What it does
Reports a MEMORY.md that cannot be read, is binary, is not UTF-8 or is over 1 MiB,
or is a FIFO or other special file (never opened, and never replaced by `fix`),
or is not a file memcheck reads and writes: a folder, or a symlink that points at
nothing (`memcheck fix` never writes through one). A symlink out of the repository
is `IDX014`.

## Why is this bad?
Agents cannot load it at session start.

## Example
An index saved as UTF-16. `.claude/memory/MEMORY.md`, saved as UTF-16:
```markdown
- [User preferences](user_prefs.md) — How the user likes to work
```

## Use instead
Re-save it as UTF-8, or delete it and run `memcheck fix`. The same text, saved as UTF-8:
```markdown
- [User preferences](user_prefs.md) — How the user likes to work
```
""",
)


def special(ws: Workspace, path: str) -> Problem | None:
    """IDX011 when the index at ``path`` is a FIFO or other special file, else None."""
    kind = ws.special_kind(path)
    if kind is None:
        return None
    return IDX011.at(
        path, 1, 1, f"{INDEX_NAME} is {kind}, not a regular file; not read (agents cannot load it either): replace it with a file"
    )


def odd(ws: Workspace, path: str) -> Problem | None:
    """IDX011 when the index at ``path`` is a folder or a symlink to nothing, else None."""
    kind = odd_index(ws, path)
    if kind is None:
        return None
    return IDX011.at(path, 1, 1, f"{INDEX_NAME} is {kind}; `memcheck fix` will not write through or replace it: make it a regular file")


def check(doc: Document) -> Problem | None:
    """IDX011 when the index ``doc`` could not be read as text, else None."""
    if doc.error is None:
        return None
    return IDX011.at(doc.path, doc.error_line, 1, f"{INDEX_NAME} {doc.error}")
