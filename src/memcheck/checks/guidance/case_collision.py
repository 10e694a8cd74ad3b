"""GDN002: guidance files or skills whose names differ only by case."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.agents import guidance_model
from memcheck.problem import ERROR, TREE, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

GDN002 = Rule(
    "GDN002",
    "case-collision",
    ERROR,
    False,
    "Guidance file names differ only by case",
    """\
## What it does
Reports guidance files or skills whose paths are equal when case is ignored
(`AGENTS.md` and `agents.md`, `Docs/AGENTS.md` and `docs/AGENTS.md`).

## Why is this bad?
macOS and Windows check them out into one file: one silently overwrites the other.

## Example
`AGENTS.md` and `Agents.md` in the same folder. In `AGENTS.md`:
```markdown
# Build

Run `make test` before every commit.
```
and in `Agents.md`:
```markdown
# Style

Keep functions short.
```

## Use instead
Merge them into one file with one name. `AGENTS.md`:
```markdown
# Build

Run `make test` before every commit.

# Style

Keep functions short.
```
""",
    scope=TREE,
)


def check(ws: Workspace) -> Iterator[Problem]:
    for path, first in guidance_model.case_collisions(ws):
        yield GDN002.at(
            path, 1, 1, f"{path} and {first} differ only by case and collide on macOS and Windows checkouts; merge them into one file"
        )
