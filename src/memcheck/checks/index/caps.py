"""IDX007, IDX008, IDX009: a MEMORY.md over (or near) the line and byte caps where
agents stop reading. One cluster: the three read the same lines of the index as agents
count them (``cap_lines``), split once, and IDX009 is reported only under both caps."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

from memcheck.problem import ERROR, WARNING, Rule
from memcheck.workspace.stores import INDEX_NAME

if TYPE_CHECKING:
    from memcheck.checks.index.state import IndexState
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

IDX007 = Rule(
    "IDX007",
    "over-line-cap",
    ERROR,
    False,
    "MEMORY.md is longer than the line cap",
    """\
## What it does
Reports an index with more lines than `index.max-lines` (default 200) and names
the entries past the cap.

## Why is this bad?
Agents load only the first 200 lines of MEMORY.md: everything after is invisible.
Claude Code 2.1.210 and later refuses a memory write that would leave its MEMORY.md
over its cap, so an index over it was written by hand or by another tool.

## Example
A 215-line index: its last 15 lines are never loaded.
```console
$ wc -l .claude/memory/MEMORY.md
215 .claude/memory/MEMORY.md
```

## Use instead
Shorten descriptions, merge related memories, or move detail into memory bodies.
```console
$ wc -l .claude/memory/MEMORY.md
150 .claude/memory/MEMORY.md
```
""",
)

IDX008 = Rule(
    "IDX008",
    "over-byte-cap",
    ERROR,
    False,
    "MEMORY.md is larger than the byte cap",
    """\
## What it does
Reports an index larger than `index.max-bytes` (default 25,000) and names the
entries past the cap.

## Why is this bad?
Agents truncate MEMORY.md at 25,000 bytes: entries after that point are invisible.
Claude Code 2.1.210 and later refuses a memory write that would leave its MEMORY.md
over its cap, so an index over it was written by hand or by another tool.

## Example
An index of 180 lines with 200-character descriptions.
```console
$ wc -l -c .claude/memory/MEMORY.md
  180 39920 .claude/memory/MEMORY.md
```

## Use instead
Shorten descriptions, merge related memories, or move detail into memory bodies.
Related memories merged into 150, with 40-character descriptions:
```console
$ wc -l -c .claude/memory/MEMORY.md
  150 9230 .claude/memory/MEMORY.md
```
""",
)

IDX009 = Rule(
    "IDX009",
    "near-cap",
    WARNING,
    False,
    "MEMORY.md is close to a cap",
    """\
## What it does
Warns when an index reaches `index.warn-ratio` (default 90%) of its line or byte cap.

## Why is this bad?
The next few memories will fall past the cap, silently.

## Example
A 185-line index.
```console
$ wc -l .claude/memory/MEMORY.md
185 .claude/memory/MEMORY.md
```

## Use instead
Consolidate now, while everything is still loaded.
```console
$ wc -l .claude/memory/MEMORY.md
150 .claude/memory/MEMORY.md
```
""",
)


def check(ws: Workspace, state: IndexState) -> Iterator[Problem]:
    # The index engine is imported where an index is judged afresh (see the package's judged).
    from memcheck.index.caps import byte_cut, cap_lines, cap_usage

    path, cfg = state.path, ws.config.index
    size = cap_usage(state.doc)[1]
    lines = cap_lines(state.text)
    if len(lines) > cfg.max_lines:
        past = lines[cfg.max_lines :]
        yield IDX007.at(
            path,
            cfg.max_lines + 1,
            1,
            f"{INDEX_NAME} has {len(lines)} lines, over the {cfg.max_lines}-line cap; agents never see lines {cfg.max_lines + 1}-{len(lines)}{_entries(past)}",
        )
    if size > cfg.max_bytes:
        cut = byte_cut(lines, cfg.max_bytes)
        yield IDX008.at(
            path,
            cut + 1,
            1,
            f"{INDEX_NAME} is {size} bytes, over the {cfg.max_bytes}-byte cap; agents stop reading in line {cut + 1}{_entries(lines[cut:])}",
        )
    near = [
        f"{n} of {cap} {unit}"
        for n, cap, unit in ((len(lines), cfg.max_lines, "lines"), (size, cfg.max_bytes, "bytes"))
        if cap * cfg.warn_ratio <= n <= cap
    ]
    if near and len(lines) <= cfg.max_lines and size <= cfg.max_bytes:
        yield IDX009.at(path, 1, 1, f"{INDEX_NAME} is at {' and '.join(near)}; consolidate before entries fall past the cap")


def _entries(lines: Sequence[str]) -> str:
    from memcheck.index.caps import entry_names

    names = entry_names(lines)
    if not names:
        return ""
    shown = ", ".join(names[:5])
    more = f" and {len(names) - 5} more" if len(names) > 5 else ""
    return f" (entries past the cap: {shown}{more})"
