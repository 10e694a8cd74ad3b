"""IDX012: a store's MEMORY.md that git ignores while its memories are committed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

IDX012 = Rule(
    "IDX012",
    "ignored-index",
    WARNING,
    False,
    "MEMORY.md is ignored by git",
    """\
## What it does
Reports a store's MEMORY.md that is on disk but that git ignores, while the store's
memory files are committed (added with `git add -f` into an ignored folder).

## Why is this bad?
Every other clone gets the memory files without their index, and agents there load
no MEMORY.md at session start: none of the memories is seen.

## Example
`.claude/` in `.gitignore`, `.claude/memory/*.md` committed with `git add -f`,
and `.claude/memory/MEMORY.md` written by `memcheck fix` but never added. `.gitignore`:
```text
.claude/
```

## Use instead
Commit it: `git add -f .claude/memory/MEMORY.md`, or stop ignoring the store's folder.
```console
$ git add -f .claude/memory/MEMORY.md
```
""",
)


def check(ws: Workspace, path: str) -> Problem | None:
    """IDX012 when git ignores the index at ``path``, else None (the index is judged either way)."""
    if not ws.ignores(path):
        return None
    return IDX012.at(
        path, 1, 1, f"git ignores {path}, so other clones get the memories without their index; commit it: `git add -f {path}`"
    )
