"""IDX015: index entries that carry a placeholder instead of their memory's description."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.problem import STORE, WARNING, Rule
from memcheck.workspace.stores import INDEX_NAME

if TYPE_CHECKING:
    from memcheck.checks.index.state import IndexState
    from memcheck.problem import Problem

IDX015 = Rule(
    "IDX015",
    "placeholder-description",
    WARNING,
    True,
    "Index entries carry a placeholder instead of a description",
    """\
## What it does
Reports an index whose entries say nothing about their memories: a placeholder
where the description goes (`---`, `TODO`, `TBD`, `...`, `N/A`), or the same text on
every entry (three or more) that is not the memories' own description. This is what
a generator leaves when it cannot read the memories' frontmatter. One finding per
index, on the first such entry, naming how many there are.

## Why is this bad?
Agents read the index to decide which memory to open; an entry that says `TODO`
tells them nothing, so they open every memory or none.

## Example
```markdown
- [Deploy](deploy.md) — TODO
- [Testing](testing.md) — TODO
```

## Use instead
Run `memcheck fix`: it fills in each memory's own `description` (or, without one, the
first sentence of its body), keeping the entry's link and separator. A memory whose
frontmatter does not parse keeps its placeholder until it does (its MEM finding
says what to fix). What `fix` writes:
```markdown
- [Deploy](deploy.md) — How to deploy
- [Testing](testing.md) — How to test
```
""",
    scope=STORE,
)


def check(state: IndexState) -> Problem | None:
    """IDX015 for the index's placeholder descriptions, on the first; fixable when
    ``fix`` fills any in (or regenerates the index)."""
    # The index engine is imported where an index is judged afresh (see the package's judged).
    from memcheck.index.form import detect_form, entries, placeholders
    from memcheck.index.plan import GENERATE

    whole, plan = state.whole, state.plan
    found = list(entries(whole.lines, whole.layout.kinds, whole.resolved, state.memories))
    holes = placeholders(found, detect_form(found, plan.style)) if found else []
    if not holes:
        return None
    first = holes[0]
    filled = set(plan.changes.filled) if plan.changes is not None else set()
    fixable = plan.mode == GENERATE or any(h.memory.filename in filled for h in holes)
    stuck = [h.memory.filename for h in holes if not h.memory.parsed]
    n = len(holes)
    what = f"{n} entr{'y' if n == 1 else 'ies'} of {INDEX_NAME} carry a placeholder instead of a description ({first.text!r}"
    what += f" on line {first.line + 1}" + (f" and {n - 1} more" if n > 1 else "") + "); agents cannot tell what each memory holds"
    if fixable:
        what += ": run `memcheck fix` to fill in each memory's own description"
    if stuck:
        names = ", ".join(stuck[:3]) + (f" and {len(stuck) - 3} more" if len(stuck) > 3 else "")
        what += f"; {names} {'has' if len(stuck) == 1 else 'have'} no frontmatter memcheck can read: fix that first"
    elif not fixable:
        what += "; write a description for each"
    problem = IDX015.at(state.path, first.line + 1, 1, what)
    return problem if fixable else problem._replace(fixable=False)
