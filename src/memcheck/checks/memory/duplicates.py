"""MEM011 and MEM023: two memories of one store under one name, and one memory saved
twice under two names.

One cluster because one memory saved twice under one name is one finding, MEM011's
(which then says to merge), not MEM011 and MEM023."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.index.memory import FILE_DATE
from memcheck.paths import basename
from memcheck.problem import ERROR, STORE, WARNING, Rule, escaped
from memcheck.text.duplicates import duplicates_of

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.duplicates import Alike
    from memcheck.workspace.discover import Workspace

MEM011 = Rule(
    "MEM011",
    "duplicate-name",
    ERROR,
    False,
    "Two memory files in one store share a name",
    """\
## What it does
Reports a memory whose `name` another file of the same store already uses.

## Why is this bad?
Agents that save memories by name (nano-claude-code's `MemorySave`) overwrite one
with the other; readers of the index cannot tell the two entries apart.

## Example
`review.md` and `review_style.md` both with `name: Review style`.
In `.claude/memory/review.md`:
```markdown
---
name: Review style
description: Concise reviews
type: user
---

Keep review comments short.
```
and in `.claude/memory/review_style.md`:
```markdown
---
name: Review style
description: Findings first
type: feedback
---

Put blocking findings first.
```

## Use instead
Merge the two memories, or give each a distinct name. In `.claude/memory/review_style.md`:
```markdown
---
name: Findings order
description: Findings first
type: feedback
---

Put blocking findings first.
```
""",
    scope=STORE,
)


MEM023 = Rule(
    "MEM023",
    "duplicate-memory",
    WARNING,
    False,
    "Two memories of one store say the same thing",
    """\
## What it does
Reports a memory whose body is another memory's of the same store (case and
whitespace aside), or whose description is the same and whose body nearly so (80%
of its words alike, in order). The later file, by name, is reported and names the
earlier one. Two files of a dated series (`session_2026-05-28_run.md`,
`session_2026-05-29_run.md`: names the same but for their days) are records of two
days, alike as a series' records are: only two with the same body (case and whitespace
aside) are reported.

## Why is this bad?
The store's MEMORY.md lists both, and agents load its first 200 lines: a memory
saved twice under two names spends that budget twice, and the two copies drift
apart as each is edited.

## Example
`feedback_testing.md` and `feedback_tests.md`, both "Run the integration tests
against a real database, never mocks." In `.claude/memory/feedback_testing.md`:
```markdown
---
name: Testing
description: Integration tests
type: feedback
---

Run the integration tests against a real database, never mocks.
```
and in `.claude/memory/feedback_tests.md`:
```markdown
---
name: Tests
description: How to test
type: feedback
---

Run the integration tests against a real database, never mocks.
```

## Use instead
Keep one, merge what the other adds into it, and delete the other. The store keeps
`.claude/memory/feedback_testing.md` alone:
```markdown
---
name: Testing
description: Integration tests
type: feedback
---

Run the integration tests against a real database, never mocks.
```
""",
    scope=STORE,
)


def check(ws: Workspace, alike: list[Alike], named_twice: list[tuple[str, int, str, str]]) -> Iterator[Problem]:
    """``alike``: each memory's description and body, in the store's order;
    ``named_twice``: (path, line of name, name, the file that has it first)."""
    copies = {dup.path: dup for dup in duplicates_of(alike)} if ws.wants(MEM023.code) else {}
    for path, line, name, first in named_twice:
        # One memory saved twice under one name is one finding, not MEM011 and MEM023.
        copy = copies.pop(path) if path in copies and copies[path].earlier == first else None
        merge = (
            f"; it says what {basename(first)} says: merge them into it and delete this one"
            if copy is not None
            else "; give each memory its own name"
        )
        yield MEM011.at(path, line, 1, f"name {name!r} is already used by {basename(first)}{merge}")
    for dup in copies.values():
        if dup.ratio < 1.0 and _dated_series(basename(dup.path), basename(dup.earlier)):
            continue
        earlier = escaped(basename(dup.earlier))
        alike_text = (
            f"the same body as {earlier}"
            if dup.ratio == 1.0
            else f"the description of {earlier} and nearly its body ({int(dup.ratio * 100)}% of the words alike)"
        )
        yield MEM023.at(
            dup.path,
            1,
            1,
            f"{escaped(basename(dup.path))} has {alike_text}: the store holds one memory under two names; merge them into {earlier} and delete this one",
        )


def _dated_series(name: str, other: str) -> bool:
    """Whether two file names are the same but for the days in them (a log written
    each day, each run): other days, not one day written two ways
    (`2026-05-28`, `20260528`)."""
    days = [(y, m, d) for y, _, m, d in FILE_DATE.findall(name)]
    if not days or days == [(y, m, d) for y, _, m, d in FILE_DATE.findall(other)]:
        return False
    return FILE_DATE.sub("", name) == FILE_DATE.sub("", other)
