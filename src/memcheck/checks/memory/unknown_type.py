"""MEM007: a memory `type` outside the configured taxonomy, unless the repository's
own agent instructions list it among the memory types."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable, Iterator

from memcheck import lazy_regex
from memcheck.checks.memory.facts import blank, memory_type
from memcheck.paths import join
from memcheck.problem import ERROR, Rule

if TYPE_CHECKING:
    from memcheck.checks.memory.facts import FieldFacts
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.stores import Store

MEM007 = Rule(
    "MEM007",
    "unknown-type",
    ERROR,
    False,
    "Memory type is outside the taxonomy",
    """\
## What it does
Reports a `type` (or `metadata.type`) that is not one of `memory.types`
(default `user`, `feedback`, `project`, `reference`).

A type that the repository's agent instructions (CLAUDE.md, AGENTS.md, rules) or the
store's own documents (its README.md) list beside those types, in a frontmatter
template line such as `type: {user, feedback, project, decision, reference}` or
`type: user | feedback | project | decision`, is the team's own type, as if listed in
`memory.types`: the agents that keep the store are told to write it.

## Why is this bad?
The taxonomy is closed: agents reject or drop unknown types (an index rebuilt by
type sections leaves them out of MEMORY.md entirely), so the memory is never seen.

## Example
```yaml
type: decision
```

## Use instead
```yaml
type: project
```
""",
)


def check(f: FieldFacts) -> Iterator[Problem]:
    kind = f.kind
    if isinstance(kind, str) and not blank(kind) and kind not in f.cfg.types:
        yield MEM007.at(
            f.path,
            f.line_of("type"),
            1,
            f"type {kind!r} is not one of: {', '.join(f.cfg.types)}; use one of them, or list {kind!r} in memory.types if your team keeps its own types",
        )


README = "README.md"  # the store's own description, which is no memory (workspace/stores.NOT_MEMORY)

# A frontmatter template's type line: `type: user | feedback | decision`,
# `    type: {{user, feedback, project, decision}}`, `- `type`: user, feedback, ...`.
_TEMPLATE_LINE = lazy_regex.compile(r"^[ \t>*`\-]*type[`*]*\s*:\s*(?P<values>[^\n]+)$", re.MULTILINE)
_VALUE = lazy_regex.compile(r"[A-Za-z][\w-]*")
_SEPARATOR = lazy_regex.compile(r"[,|]")


def documented_types(texts: Iterable[str], types: tuple[str, ...]) -> frozenset[str]:
    """The types that ``texts`` list in a template's type line beside two or more of
    ``types``: a list of three values or more, each a word, between `,` or `|`."""
    known = set(types)
    found: set[str] = set()
    for text in texts:
        if "type" not in text:
            continue
        for line in _TEMPLATE_LINE.finditer(text):
            items = [item.strip(" \t{}[]()<>\"'`*") for item in _SEPARATOR.split(line["values"])]
            if len(items) < 3 or not all(_VALUE.fullmatch(item) for item in items):
                continue
            if len(known.intersection(items)) >= 2:
                found.update(items)
    return frozenset(found - known)


def _guidance_types(ws: Workspace) -> frozenset[str]:
    """The types the repository's guidance files list (once per run)."""
    return documented_types((ws.document(path).text for path in ws.guidance), ws.config.memory.types)


def told_to_write(ws: Workspace, store: Store, found: list[Problem]) -> list[Problem]:
    """``found`` (one memory's findings) without MEM007 where the memory's type is one
    the repository's guidance or the store's own documents list."""
    if not any(p.code == MEM007.code for p in found):
        return found
    own = [*store.own, *(join(store.folder, name) for name in ws.markdown_by_folder.get(store.folder, ()) if name == README)]
    documented = ws.once(_guidance_types) | documented_types((ws.document(path).text for path in own), ws.config.memory.types)
    if not documented:
        return found
    kept = []
    for p in found:
        if p.code == MEM007.code:
            fm = ws.document(p.path).frontmatter
            kind = memory_type(fm.data) if fm is not None else None
            if isinstance(kind, str) and kind in documented:
                continue
        kept.append(p)
    return kept
