"""MEM007: a memory `type` outside the configured taxonomy, unless the repository's
own agent instructions list it among the memory types."""

from __future__ import annotations

import functools
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

Where `memory.types` is left as it is, a type that a guidance file of the repository
(CLAUDE.md, AGENTS.md, rules: any of them, whatever files a run checks) or the
store's own README.md lists beside every one of those four, in a frontmatter template
line such as `type: {user, feedback, project, decision, reference}` or
`type: user | feedback | project | reference | decision`, is the team's own type, as
if listed in `memory.types`: the agents that keep the store are told to write it. A
list that misses or misspells one of the four is a template for something else, and
adds nothing; types the settings name are never widened. A change to such a template
alone is judged by a check of the whole tree: the commit hooks and `--new-since`
judge a memory's type when the memory changes.

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
    """The types that ``texts`` list in a template's type line beside every one of
    ``types``: a list of values, each a word, between `,` or `|`. Every usual type must
    be there: a list that misses one, or misspells it (`feedbak`), is a template for
    something else (tickets: `type: {user, project, bug}`) or a typo, and adds nothing."""
    known = set(types)
    found: set[str] = set()
    for text in texts:
        if "type" not in text:
            continue
        for line in _TEMPLATE_LINE.finditer(text):
            items = [item.strip(" \t{}[]()<>\"'`*") for item in _SEPARATOR.split(line["values"])]
            if len(items) <= len(known) or not all(_VALUE.fullmatch(item) for item in items):
                continue
            if known.issubset(items):
                found.update(items)
    return frozenset(found - known)


def _default_types(types: tuple[str, ...]) -> bool:
    return types == _defaults()


@functools.cache
def _defaults() -> tuple[str, ...]:
    """The types memcheck ships with (read once: the file is parsed on each read)."""
    from memcheck import config

    memory = config.defaults()["memory"]
    types = memory.get("types") if isinstance(memory, dict) else None
    return tuple(str(t) for t in types) if isinstance(types, list) else ()


def _guidance_types(ws: Workspace) -> frozenset[str]:
    """The types the repository's guidance files list (once per run): every guidance
    file of the tree, whichever files the run checks (a commit's, one named on the
    command line), but those the settings exclude and links out of the repository."""
    from memcheck.agents import kind_of

    filenames = ws.config.guidance.filenames
    paths = sorted(path for path in ws.tree_files if kind_of(path, filenames) is not None and not ws.excludes(path))
    readable = [path for path in paths if (entry := ws.source.entry(path)) is not None and entry.kind != "outside"]
    return documented_types((ws.document(path).text for path in readable), ws.config.memory.types)


class TeamTypes:
    """The types a store's memories may carry besides the settings' (see MEM007's page),
    worked out once per store, at its first MEM007 finding: a store whose memories all
    carry a team type would otherwise read its own documents once per memory."""

    def __init__(self, ws: Workspace, store: Store) -> None:
        self._ws = ws
        self._store = store
        self._types: frozenset[str] | None = None

    def _documented(self) -> frozenset[str]:
        if self._types is None:
            ws, store = self._ws, self._store
            own = [*store.own, *(join(store.folder, name) for name in ws.markdown_by_folder.get(store.folder, ()) if name == README)]
            from_own = documented_types((ws.document(path).text for path in own), ws.config.memory.types)
            self._types = ws.once(_guidance_types) | from_own
        return self._types

    def told_to_write(self, found: list[Problem]) -> list[Problem]:
        """``found`` (one memory's findings) without MEM007 where the memory's type is
        one the repository's guidance or the store's own documents list."""
        if not found or not any(p.code == MEM007.code for p in found) or not _default_types(self._ws.config.memory.types):
            return found  # (types the settings name are the team's word: a template does not widen them)
        documented = self._documented()
        if not documented:
            return found
        kept = []
        for p in found:
            if p.code == MEM007.code:
                fm = self._ws.document(p.path).frontmatter
                kind = memory_type(fm.data) if fm is not None else None
                if isinstance(kind, str) and kind in documented:
                    continue
            kept.append(p)
        return kept
