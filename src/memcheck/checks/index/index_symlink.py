"""IDX013: a store's MEMORY.md that is a symlink (inside the repository) with
findings ``memcheck fix`` would fix.

It reads the other rules' findings, so the family's pass calls it last, on what they
found (kept or judged afresh): it turns each of them unfixable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.problem import STORE, WARNING, Rule
from memcheck.workspace.stores import INDEX_NAME

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

IDX013 = Rule(
    "IDX013",
    "index-symlink",
    WARNING,
    False,
    "MEMORY.md is a symlink that `memcheck fix` will not write through",
    """\
## What it does
Reports a store's MEMORY.md that is a symlink (to another file of the repository)
when the index has something `memcheck fix` would fix: fix never writes through a
symlink, so those findings are not fixable here.

## Why is this bad?
`memcheck fix` leaves the index as it is, and the findings stay until someone edits
the file the link points at.

## Example
`.claude/memory/MEMORY.md -> ../../docs/memory-index.md`, with a memory the index
does not list.
```console
$ ln -s ../../docs/memory-index.md .claude/memory/MEMORY.md
```

## Use instead
Edit the file the link points at (`memcheck index STORE` prints what fix would
write), or replace the link with a regular file and run `memcheck fix`.
`docs/memory-index.md`, listing the memory:
```markdown
- [User preferences](user_prefs.md) — How the user likes to work
```
""",
    scope=STORE,
)


def wrap(ws: Workspace, path: str, found: list[Problem]) -> list[Problem]:
    """``found``, the findings on the index at ``path`` (a symlink), as they stand
    where fix never writes through it: with IDX013 when any was fixable."""
    if not any(p.fixable for p in found):
        return found
    # fix never writes through a symlink: say so once, and claim nothing is fixable.
    target = ws.link_target(path)
    found = [p._replace(fixable=False) for p in found]
    found.append(
        IDX013.at(
            path,
            1,
            1,
            f"{INDEX_NAME} is a symlink to {target}; `memcheck fix` does not write through symlinks: edit {target}, or replace the link with a file",
        )
    )
    return found
