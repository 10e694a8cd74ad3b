"""GDN018: a guidance file that is a symlink out of the repository (checked no further)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.agents import guidance_model
from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

GDN018 = Rule(
    "GDN018",
    "guidance-symlink-outside",
    WARNING,
    False,
    "Guidance file is a symlink out of the repository",
    """\
## What it does
Reports a guidance file (`CLAUDE.md`, `AGENTS.md`, ...) that is a symlink to a file
outside the repository, naming the agents that read it. memcheck never follows a
symlink out of the repository, so nothing in that file is checked.

## Why is this bad?
Agents follow the link and load whatever the path holds on each machine: other
clones may have another file there, or none, and no check sees what it says.

## Example
`CLAUDE.md -> /home/me/dotfiles/CLAUDE.md`
```console
$ ln -s /home/me/dotfiles/CLAUDE.md CLAUDE.md
```

## Use instead
Keep the file in the repository (copy it in), or link to a file inside it. `CLAUDE.md`,
a regular file:
```markdown
# Rules

Run `make test` before every commit.
```
""",
)


def check(ws: Workspace, path: str) -> Iterator[Problem]:
    yield GDN018.at(path, 1, 1, guidance_model.outside_link_message(ws, path))
