"""MEM015: memories of a store whose description is over the configured length, told
once for the store."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import lazy_regex
from memcheck.paths import basename
from memcheck.problem import STORE, WARNING, Rule, some

if TYPE_CHECKING:
    from memcheck.checks.memory.facts import FieldFacts
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.stores import Store

MEM015 = Rule(
    "MEM015",
    "long-description",
    WARNING,
    False,
    "Memories of a store have descriptions longer than the configured maximum",
    """\
## What it does
Reports the memories whose `description` is longer than
`memory.description-max-length` characters (default 300): one finding per store, on
its MEMORY.md, naming the memories (the first five, and how many more), since one
habit (an agent that writes long descriptions) usually explains them all. A
`memcheck-disable-file MEM015` comment in MEMORY.md quiets it for the store; in the
memory's own file, when it is the only one. A memory MEMORY.md lists on a line of its
own words (a curator's short hook) is left out: its description is loaded nowhere.

## Why is this bad?
Every description is loaded into every session through MEMORY.md; long ones push
the index toward its 200-line / 25,000-byte cap, past which agents see nothing.

## Example
A description that retells the whole memory. In `.claude/memory/review.md`:
```markdown
---
name: Review style
description: User wants concise reviews with blocking findings first, each with the file path and the line, then suggestions, then nits, and no praise, no summary of the change and no restating of the diff, with questions only where the intent is unclear, at most ten comments on a pull request, grouped by file, and a verdict on the first line
type: user
---

Put blocking findings first and cite the file path.
```

## Use instead
One sentence that says when the memory matters; keep the detail in the body.
```markdown
---
name: Review style
description: How the user wants code reviews written
type: user
---

Blocking findings first, each with the file path and the line, then suggestions,
then nits. No praise, no summary of the change, no restating of the diff. Ask
questions only where the intent is unclear. At most ten comments on a pull request,
grouped by file, and a verdict on the first line.
```
""",
    scope=STORE,
)


def length(f: FieldFacts) -> int:
    """The memory's description's length when it is over the configured most, else 0:
    the fact the store's finding is made of."""
    desc = f.data.get("description")
    if isinstance(desc, str) and len(desc.strip()) > f.cfg.description_max_length:
        return len(desc.strip())
    return 0


def check(ws: Workspace, store: Store, over: list[tuple[str, int, str]]) -> Iterator[Problem]:
    """One finding for the store, on its MEMORY.md (where long descriptions land),
    naming the memories (``over``: each with its description's length and the
    description, in the store's order); about the memory when there is one, so a suppression comment in it applies.
    One habit (an agent that writes long descriptions) shows in many files of a store,
    and a finding per file buried the rest of the report (582 MEM015 findings in one
    repository)."""
    long = _loaded(ws, store, over)
    if not long:
        return
    most = ws.config.memory.description_max_length
    advice = "descriptions go into MEMORY.md, which agents load every session"
    if len(long) == 1:
        ((path, n),) = long
        message = f"{basename(path)} has a description of {n} characters, over the {most} configured; {advice}: shorten it to one sentence and keep the detail in the body"
    else:
        named = some([f"{basename(path)} {n}" for path, n in long])
        message = f"{len(long)} memories of this store have a description over the {most} characters configured ({named}); {advice}: shorten them to one sentence and keep the detail in the body"
    yield MEM015.at(store.index, 1, 1, message, about=long[0][0] if len(long) == 1 else "")


def _loaded(ws: Workspace, store: Store, over: list[tuple[str, int, str]]) -> list[tuple[str, int]]:
    """Of ``over``, the memories whose description MEMORY.md holds or will: not one the
    index lists on a line of its own words (a curator's short hook, which `fix` keeps
    where the index is not regenerated): its description is loaded nowhere (five such
    memories on unseen repositories, each judged unwanted or untrue)."""
    if not over or not store.has_index or ws.config.index.mode == "generate":
        return [(path, n) for path, n, _ in over]
    doc = ws.document(store.index)
    # Each line by the files it links, in one pass over the index: a look-up per
    # memory, not a scan of the index per memory.
    linking: dict[str, list[str]] = {}
    for line in doc.text.split("\n") if doc.error is None else ():
        for target in _LINK_TARGET.findall(line):
            linking.setdefault(target.removeprefix("./"), []).append(line)
    kept = []
    for path, n, description in over:
        lines = linking.get(basename(path), [])
        if lines and not any(_holds(line, description) for line in lines):
            continue
        kept.append((path, n))
    return kept


_LINK_TARGET = lazy_regex.compile(r"\]\(([^()\s]+)\)")


def _holds(line: str, description: str) -> bool:
    """Whether an index line carries a description: its first words, as `fix` writes
    them (a curator's line says something else)."""
    words = " ".join(description.split()[:4]).casefold()
    return words in " ".join(line.split()).casefold()
