"""AGT001: a subagent, custom agent or prompt file that cannot be read as UTF-8 text."""

from __future__ import annotations

from memcheck.paths import basename
from memcheck.problem import ERROR, Problem, Rule
from memcheck.text.document import Document

AGT001 = Rule(
    "AGT001",
    "unreadable-agent-file",
    ERROR,
    False,
    "Agent file cannot be read as UTF-8 text",
    """\
## What it does
Reports a subagent, custom agent or prompt file that cannot be read, is binary, is
not UTF-8 or is over 1 MiB.

## Why is this bad?
The agent cannot read its name, description or instructions, so it never loads.

## Example
`.claude/agents/reviewer.md` saved as UTF-16:
```markdown
---
name: reviewer
description: Reviews code.
---
You review code.
```

## Use instead
Re-save it as UTF-8.
```markdown
---
name: reviewer
description: Reviews code.
---
You review code.
```
""",
)


def check(doc: Document) -> Problem:
    """The finding on a file that could not be read (``doc.error`` is set)."""
    return AGT001.at(doc.path, doc.error_line, 1, f"{basename(doc.path)} {doc.error}")
