"""SKL013: a skill's file that is a symlink out of the repository.

Judged from the path alone: memcheck never follows the link, so the file's other
rules are not run on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.problem import ERROR, Rule
from memcheck.workspace.links_out import unfollowed

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

# Security severity 7.0 (high), as for a memory that links out: an agent loads whatever the link names (the index and
# skills at start-up), nobody reviews that file, and the message says when the place is
# one where secrets are kept (~/.ssh, ~/.aws, a .env): a credential put in the agent's
# context. High, as a literal password, rather than critical: the link holds no secret.
SKL013 = Rule(
    "SKL013",
    "skill-symlink-outside",
    ERROR,
    False,
    "Skill file is a symlink out of the repository",
    """\
## What it does
Reports a skill's file that is a symlink to a place outside the repository: a
`SKILL.md`, a flat skill directly in a skills root, or any file of a skill folder
(its references and scripts). It says when that place is one where secrets are
kept (a path `memcheck guard` stops a symlink pointing at). memcheck never follows
the link, so nothing in the file is checked.

## Why is this bad?
An agent that loads the skill follows the link and reads whatever the path holds on
the machine it runs on: `references/runtime.md -> /proc/self/environ` puts the
machine's environment, tokens and keys included, into the agent's context, and a
linked script runs whatever is there. Other clones have another file there, or none.

## Example
`.claude/skills/deploy/SKILL.md -> /home/me/dotfiles/skills/deploy.md`
```console
$ ln -s /home/me/dotfiles/skills/deploy.md .claude/skills/deploy/SKILL.md
```

## Use instead
Keep the skill's files in the repository (copy them in), or link to files inside it.
`.claude/skills/deploy/SKILL.md`, a regular file:
```markdown
---
name: deploy
description: Deploys the app. Use when shipping.
---

Build the image, push it, then roll out.
```
""",
    security_severity="7.0",
)


def check(ws: Workspace, path: str) -> Problem:
    """SKL013 for ``path``, one of the skill files that link out (``ws.skill_links_out``)."""
    return SKL013.at(path, 1, 1, unfollowed(ws, path, "an agent that loads this skill", "keep the skill's files in the repository"))
