"""IDX006: in generate mode, an index that differs from its render.

It reads the other rules' findings: the family's pass calls it after them, and it is
reported only where none of them is something ``fix`` repairs (their fix is the
render's first step, and their findings say more than "differs from line n").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from memcheck.checks.index.unlisted_memory import IDX003
from memcheck.problem import ERROR, STORE, Rule
from memcheck.workspace.stores import INDEX_NAME

if TYPE_CHECKING:
    from memcheck.checks.index.state import IndexState
    from memcheck.problem import Problem
    from memcheck.workspace.stores import Store

IDX006 = Rule(
    "IDX006",
    "index-out-of-date",
    ERROR,
    True,
    "MEMORY.md differs from its deterministic render",
    """\
## What it does
In `generate` mode, reports an index whose lines differ from what `memcheck fix`
renders from the store (entry order, names, descriptions, headings). Blank lines
are not compared: Markdown formatters add them around headings and lists, and
`fix` keeps them.

With `index.mode` unset, the mode is `generate` only for an index that reads as a
renderer wrote it (one style's headings and entries, in that style's order), so
this reports a render the store has moved on from; a hand-written list in its own
order, or with entries under no type heading (`# Memory` and one entry: the grouped
render puts every entry under its type's), is curated (sync mode), and not reported. `memcheck index STORE --explain`
says which mode was chosen, and why.

## Why is this bad?
Agents that keep a generated index rebuild all of it on every write; an index that drifted
from the store shows agents stale names and descriptions.

## Example
A grouped index listing `c.md` under `## User` after the memory's type became
`project`; in `generate` mode set in the config, an entry still showing a
description that the memory file has since changed. The first, in
`.claude/memory/MEMORY.md`:
```markdown
# Memory

## User
- [Deploy target](c.md) - Where the app is deployed
```

## Use instead
Run `memcheck fix`, or `memcheck index STORE` to see the render. What `fix` writes:
```markdown
# Memory

## Project
- [Deploy target](c.md) - Where the app is deployed
```
""",
    scope=STORE,
)


def check(store: Store, state: IndexState, found: Sequence[Problem]) -> Problem | None:
    """IDX006 for an index in generate mode that is not its render, where ``found`` (the
    index's findings so far) holds nothing fixable, else None. An unlisted memory counts
    even where fix has no room for it: the render lists it."""
    from memcheck.index.plan import GENERATE

    plan, text = state.plan, state.text
    if plan.mode != GENERATE or plan.text == text or any(p.fixable or p.code == IDX003.code for p in found):
        return None
    line = _first_difference(text, plan.text)
    return IDX006.at(
        state.path,
        line,
        1,
        f"{INDEX_NAME} differs from its {plan.style} render from line {line}; run `memcheck fix` (or `memcheck index {store.folder or '.'}` to see it)",
    )


def _first_difference(old: str, new: str) -> int:
    a, b = old.split("\n"), new.split("\n")
    for i, (x, y) in enumerate(zip(a, b), 1):
        if x != y:
            return i
    return min(len(a), len(b))
