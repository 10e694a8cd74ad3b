"""MEM022: a memory file that is a symlink out of the repository."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.problem import ERROR, Rule
from memcheck.workspace.links_out import unfollowed

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

# Security severity 7.0 (high): an agent loads whatever the link names (the index and
# skills at start-up), nobody reviews that file, and the message says when the place is
# one where secrets are kept (~/.ssh, ~/.aws, a .env): a credential put in the agent's
# context. High, as a literal password, rather than critical: the link holds no secret.
MEM022 = Rule(
    "MEM022",
    "memory-symlink-outside",
    ERROR,
    False,
    "Memory file is a symlink out of the repository",
    """\
## What it does
Reports a memory file (a `*.md` file in a memory store) that is a symlink to a place
outside the repository, and says when that place is one where secrets are kept (a
path `memcheck guard` stops a symlink pointing at). memcheck never follows the link,
so nothing in the file is checked, and `memcheck fix` never lists it in MEMORY.md.

## Why is this bad?
An agent that reads the memory follows the link and loads whatever the path holds
on the machine it runs on: `runtime.md -> /proc/self/environ`, listed in MEMORY.md
as "read first", puts the machine's environment, tokens and keys included, into
the agent's context. Other clones have another file there, or none.

## Example
`.claude/memory/runtime.md -> /proc/self/environ`
```console
$ ln -s /proc/self/environ .claude/memory/runtime.md
```

## Use instead
Keep the memory in the repository as a regular file (copy in what it should say),
or link to a file inside the repository. `.claude/memory/runtime.md`, a regular file:
```markdown
---
name: Runtime
description: What the app reads from its environment
type: reference
---

The app reads `DATABASE_URL` and `PORT` from its environment.
```
""",
    security_severity="7.0",
)


def check(ws: Workspace, path: str) -> Problem:
    """The finding on ``path``, one of the store's memories that link out (``Store.outside``)."""
    return MEM022.at(
        path, 1, 1, unfollowed(ws, path, "an agent that reads this memory", "keep the memory in the repository as a regular file")
    )
