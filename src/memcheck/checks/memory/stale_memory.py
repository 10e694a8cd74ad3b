"""MEM016: a memory not updated within `memory.stale-after-days` (off by default)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Iterator

from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.memory.facts import FieldFacts
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

MEM016 = Rule(
    "MEM016",
    "stale-memory",
    WARNING,
    False,
    "Memory not updated within the configured number of days",
    """\
## What it does
Reports a memory whose `updated` (or else `created`) date is older than
`memory.stale-after-days`. Off by default (0): CI must not turn red by the calendar alone.

## Why is this bad?
Old project memories describe decisions that may no longer hold.

## Example
`updated: 2024-01-02` with `stale-after-days: 180`, checked on 2026-03-01. In
`.claude/memory/deploy.md`:
```markdown
---
name: Deploy target
description: Where the app is deployed
type: project
updated: 2024-01-02
---

We deploy to Heroku.
```
and in `.memcheck.yaml`:
```yaml
memory:
  stale-after-days: 180
```

## Use instead
Review the memory; update its content and `updated`, or delete it.
```markdown
---
name: Deploy target
description: Where the app is deployed
type: project
updated: 2026-02-01
---

We deploy to Railway; Heroku was retired in 2025.
```
""",
)


def check(ws: Workspace, f: FieldFacts, dates: dict[str, dt.date]) -> Iterator[Problem]:
    """``dates`` as ``facts.dates`` reads them."""
    days = f.cfg.stale_after_days
    last = dates.get("updated") or dates.get("created")
    if days and last is not None:
        age = (ws.today() - last).days
        if age > days:
            key_lines = f.frontmatter.key_lines
            yield MEM016.at(
                f.path,
                key_lines.get("updated") or key_lines.get("created") or 1,
                1,
                f"last updated {last} ({age} days ago, over {days}); review the memory and bump updated",
            )
