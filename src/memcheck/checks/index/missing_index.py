"""IDX001: a memory store without its MEMORY.md index.

A gate: the store's other index rules need an index to read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.index.store import index_elsewhere, move_advice
from memcheck.problem import ERROR, STORE, Rule
from memcheck.workspace.stores import INDEX_NAME

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.stores import Store

IDX001 = Rule(
    "IDX001",
    "missing-index",
    ERROR,
    True,
    "Memory store has no MEMORY.md",
    """\
## What it does
Reports a memory store folder without a `MEMORY.md` index.

## Why is this bad?
Agents load only the index at session start; memories it does not list are never
seen.

## Example
`.claude/memory/` holding `user_prefs.md` and no `MEMORY.md`. `.claude/memory/user_prefs.md`:
```markdown
---
name: User preferences
description: How the user likes to work
type: user
---

Short answers; ask before large refactors.
```

## Use instead
Run `memcheck fix`: it writes the index (in the `grouped` style unless
`index.style` says otherwise). `.claude/memory/MEMORY.md`, as `fix` writes it:
```markdown
# Memory

## User
- [User preferences](user_prefs.md) - How the user likes to work
```

When a `MEMORY.md` one folder up or one folder down names most of the store's
memory files (`.claude/MEMORY.md` listing the files of `.claude/memory/`), it is
this store's index in the wrong folder: move it with the `git mv` the message
gives. `memcheck fix` then writes no second index beside it.
""",
    scope=STORE,
)


def check(ws: Workspace, store: Store) -> Problem:
    """IDX001 for ``store``, which has no index to read (nor a file of another kind in its place)."""
    path = store.index
    if ws.staged is not None and ws.on_disk("is_file", path):  # judging a commit (see workspace.staged.StagedFiles)
        return IDX001.at(
            path, 1, 1, f"{path} is not staged: the commit holds memories of {store.folder or '.'}/ without their index; `git add {path}`"
        )
    if (elsewhere := index_elsewhere(ws, store)) is not None:
        # fix leaves it: a second index here would leave the curated one behind.
        message = f"memory store {store.folder or '.'}/ has no {INDEX_NAME}, but {move_advice(elsewhere, path)}"
        return IDX001.at(path, 1, 1, message)._replace(fixable=False)
    return IDX001.at(path, 1, 1, f"memory store {store.folder or '.'}/ has no {INDEX_NAME}; run `memcheck fix` to write it")
