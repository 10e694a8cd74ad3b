"""IDX010: a MEMORY.md with a byte-order mark, CRLF or lone CR line endings, or no final newline."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.problem import WARNING, Rule
from memcheck.workspace.stores import INDEX_NAME

if TYPE_CHECKING:
    from memcheck.checks.index.state import IndexState
    from memcheck.problem import Problem

IDX010 = Rule(
    "IDX010",
    "index-encoding",
    WARNING,
    True,
    "MEMORY.md has a BOM, CRLF or CR line endings or no final newline",
    """\
## What it does
Reports a byte-order mark, CRLF line endings, lone CR line endings (which most
tools read as one long line) or a missing final newline in MEMORY.md.

## Why is this bad?
Agents that rebuild the index write LF without BOM, so every rebuild shows as a
whole-file change; a BOM also counts against the byte cap.

## Example
An index saved by a Windows editor. `.claude/memory/MEMORY.md`, with a byte-order
mark and CRLF line endings:
```markdown
- [User preferences](user_prefs.md) — How the user likes to work
```

## Use instead
Run `memcheck fix`. It writes the same text without the mark, each line ending in LF:
```markdown
- [User preferences](user_prefs.md) — How the user likes to work
```
""",
)


def check(state: IndexState) -> Problem | None:
    """IDX010 naming each flaw of the index's encoding, else None."""
    doc, text = state.doc, state.text
    lone_cr = text != doc.text  # CRLF is turned into LF when the file is read: a CR left is alone
    no_final_newline = bool(text) and not text.endswith("\n")
    if not (doc.bom or doc.crlf or lone_cr or no_final_newline):
        return None
    flaws = (
        ("a byte-order mark", doc.bom),
        ("CRLF line endings", doc.crlf),
        ("CR line endings", lone_cr),
        ("no final newline", no_final_newline),
    )
    what = " and ".join(x for x, on in flaws if on)
    return IDX010.at(state.path, 1, 1, f"{INDEX_NAME} has {what}; run `memcheck fix`")
