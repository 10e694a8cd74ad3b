"""MEM009: a `created` or `updated` that is not an ISO-8601 date, or an `updated`
before `created`."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Iterator

from memcheck.problem import ERROR, Rule
from memcheck.text import frontmatter as fields

if TYPE_CHECKING:
    from memcheck.checks.memory.facts import FieldFacts
    from memcheck.problem import Problem

MEM009 = Rule(
    "MEM009",
    "invalid-date",
    ERROR,
    False,
    "created/updated is not an ISO-8601 date, or updated precedes created",
    """\
## What it does
Reports `created` or `updated` values that are not ISO-8601 dates or datetimes, and
an `updated` earlier than `created`.

## Why is this bad?
Agents compute a memory's age from these fields to warn about stale memories; a
date they cannot parse makes every memory look fresh (or ancient).

## Example
```yaml
created: 03/25/2026
```

## Use instead
```yaml
created: 2026-03-25
```
""",
)


def check(f: FieldFacts, dates: dict[str, dt.date], bad: list[str]) -> Iterator[Problem]:
    """``dates`` and ``bad`` as ``facts.dates`` reads them."""
    fm = f.frontmatter
    for key in bad:
        yield MEM009.at(
            f.path, fm.key_lines.get(key, 1), 1, f"{key} {fields.short_repr(fm.data[key])} is not an ISO-8601 date (YYYY-MM-DD)"
        )
    if "created" in dates and "updated" in dates and dates["updated"] < dates["created"]:
        yield MEM009.at(f.path, fm.key_lines.get("updated", 1), 1, f"updated {dates['updated']} is before created {dates['created']}")
