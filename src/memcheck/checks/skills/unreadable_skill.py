"""SKL001: a skill file that cannot be read as UTF-8 text.

It is the family's first gate: nothing else is judged in a file that cannot be read,
and a file that exhausts memcheck's stack or memory while it is checked is reported
under this code too (the family's pass wraps each file's check in ``contained``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.paths import basename
from memcheck.problem import ERROR, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document

SKL001 = Rule(
    "SKL001",
    "unreadable-skill",
    ERROR,
    False,
    "Skill file cannot be read as UTF-8 text",
    """\
## What it does
Reports a skill file that cannot be read, is binary, is not UTF-8 or is over 1 MiB,
or that exhausts memcheck's stack or memory while it is checked.

## Why is this bad?
Agents cannot read its name or description, so the skill never appears.

## Example
A `SKILL.md` saved as UTF-16. `.claude/skills/deploy/SKILL.md`, saved as UTF-16:
```markdown
---
name: deploy
description: Deploys the app. Use when shipping.
---

Build the image, push it, then roll out.
```

## Use instead
Re-save it as UTF-8.
```markdown
---
name: deploy
description: Deploys the app. Use when shipping.
---

Build the image, push it, then roll out.
```
""",
)


def check(doc: Document) -> Problem | None:
    """SKL001 when ``doc`` could not be read, else None (the file's other checks run)."""
    if doc.error is None:
        return None
    return SKL001.at(doc.path, doc.error_line, 1, f"{basename(doc.path)} {doc.error}")
