"""MEM012: a memory file name that breaks links or checkouts: on the file itself (what
it holds), and across the store (two names that differ only by case)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.paths import basename, join, name_trouble, parent, safe_name
from memcheck.problem import STORE, WARNING, Rule
from memcheck.workspace.stores import INDEX_NAME

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

MEM012 = Rule(
    "MEM012",
    "non-slug-filename",
    WARNING,
    False,
    "Memory file name breaks links or checkouts",
    """\
## What it does
Reports a memory file name that holds whitespace, a character Windows does not allow
in a file name (`<>:"|?*\\` and control characters), or one that Markdown link
targets treat specially (`()[]#%` and backquotes); and two memories of one store
whose names differ only by case. Capital letters alone and letters outside ASCII
are fine: agents and links handle them, and other tools look for some such names as
they are (`SOUL.md`, `LAST_SESSION.md`).

## Why is this bad?
A space or a parenthesis breaks the `[name](file.md)` link that agents write into
MEMORY.md; a `?` or `:` makes the checkout fail on Windows; `Notes.md` and
`notes.md` are one file on macOS and Windows, so one overwrites the other.

## Example
`Review Style.md`
```text
.claude/memory/Review Style.md
```

## Use instead
`Review-Style.md` (or `review_style.md`)
```text
.claude/memory/Review-Style.md
```
""",
    scope=STORE,
)


def check(ws: Workspace, path: str) -> Problem | None:
    """What is wrong with a memory's file name, if anything."""
    name = basename(path)
    trouble = name_trouble(name)
    if trouble is None:
        return None
    slug = safe_name(name)
    to = f" to {slug}" if slug != name and not ws.exists(join(parent(path), slug)) else ""
    return MEM012.at(path, 1, 1, f"file name {name!r} holds {trouble}; rename it{to}")


def index_twin(path: str) -> Problem:
    """``path``, a file of the store named as its MEMORY.md but for case."""
    name = basename(path)
    return MEM012.at(
        path,
        1,
        1,
        f"{name} and {INDEX_NAME} differ only by case and collide on macOS and Windows checkouts, where one replaces the other; rename {name}",
    )


def case_twin(path: str, twin: str, what: str = "memory") -> Problem:
    """``path`` whose name differs from the earlier ``twin``'s only by case (``what``
    the two are: memories, or the store's own documents, ``file``)."""
    return MEM012.at(
        path,
        1,
        1,
        f"{basename(path)} and {basename(twin)} differ only by case and collide on macOS and Windows checkouts; merge them into one {what}",
    )
