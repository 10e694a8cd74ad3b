"""IDX014: a store's MEMORY.md that is a symlink out of the repository.

A gate, judged from the path alone: memcheck never follows the link, so the index's
other rules are not run on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.problem import ERROR, Rule
from memcheck.workspace.links_out import leads_to
from memcheck.workspace.stores import INDEX_NAME

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

# Security severity 7.0 (high), as for a memory that links out: an agent loads whatever the link names (the index and
# skills at start-up), nobody reviews that file, and the message says when the place is
# one where secrets are kept (~/.ssh, ~/.aws, a .env): a credential put in the agent's
# context. High, as a literal password, rather than critical: the link holds no secret.
IDX014 = Rule(
    "IDX014",
    "index-symlink-outside",
    ERROR,
    False,
    "MEMORY.md is a symlink out of the repository",
    """\
## What it does
Reports a store's MEMORY.md that is a symlink to a place outside the repository,
and says when that place is one where secrets are kept (a path `memcheck guard`
stops a symlink pointing at). memcheck never follows the link, and `memcheck fix`
never writes through it or replaces it.

## Why is this bad?
Agents load the index at the start of every session, without being asked: they
follow the link and read whatever the path holds on the machine they run on.
`MEMORY.md -> /proc/self/environ` puts the machine's environment, tokens and keys
included, into every session's context. Other clones get another file there, or
none, and no index of their memories.

## Example
`.claude/memory/MEMORY.md -> /home/me/notes/MEMORY.md`
```console
$ ln -s /home/me/notes/MEMORY.md .claude/memory/MEMORY.md
```

## Use instead
Make MEMORY.md a regular file in the repository: remove the link, then run
`memcheck fix` to write the index from the store's memories. `.claude/memory/MEMORY.md`,
as `fix` writes it:
```markdown
# Memory

## User
- [User preferences](user_prefs.md) - How the user likes to work
```
""",
    security_severity="7.0",
)


def check(ws: Workspace, path: str) -> Problem | None:
    """IDX014 when the index at ``path`` links out of the repository, else None."""
    target = ws.link_out(path)
    if target is None:
        return None
    return IDX014.at(
        path,
        1,
        1,
        f"{INDEX_NAME} is a symlink to {leads_to(ws, path, target)}: agents load the index at the start of every session, so they read that file; "
        "memcheck does not follow it; make MEMORY.md a regular file in the repository (remove the link, then `memcheck fix` writes one)",
    )
