"""MEM006 and MEM010: a required field missing, and a key that looks like a misspelt
known one.

One cluster because the two read one cause: a required field that is not there and
an unknown key that looks like it (`Description:`) are one finding, MEM006's, which
says to rename the key; MEM010 is then silent on that key (``explained``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generator, Iterator

from memcheck.checks.memory.facts import EXAMPLE_OK, blank
from memcheck.problem import ERROR, WARNING, Rule, some
from memcheck.text.frontmatter import misspelt_key, near_key

if TYPE_CHECKING:
    from memcheck.checks.memory.facts import FieldFacts
    from memcheck.problem import Problem

MEM006 = Rule(
    "MEM006",
    "missing-required-field",
    ERROR,
    False,
    "Required frontmatter field is missing or empty",
    f"""\
## What it does
Reports a memory file without a non-empty value for each key in `memory.required`
(default `name`, `description`, `type`; `metadata.type` counts for `type`). Where a
key of the file looks like a misspelling of the missing one (`Description:`), the
finding is on that key and says to rename it (MEM010 does not report it too); a
frontmatter with none of the fields (a session log kept in the store) is one finding,
not one per field and per unknown key.

## Why is this bad?
The index entry falls back to the file name, and an agent cannot tell when the
memory is relevant.

## Example
```yaml
---
name: Review style
type: user
---
```

## Use instead
{EXAMPLE_OK}
""",
)


MEM010 = Rule(
    "MEM010",
    "unknown-key",
    WARNING,
    False,
    "Memory frontmatter key looks like a misspelt known key",
    """\
## What it does
Reports a top-level frontmatter key one slip of the keyboard from a key the memory
schema defines or `memory.allowed-keys` allows: only case, `-` or `_` differ
(`Updated`), or one character is wrong, added, dropped or swapped with its neighbour
(`descripton`, `tpye`). Other keys (`lastReadAt`, `created_at`: what a team's own
memory tool writes) pass: agents ignore them. A key that looks like a misspelling of a required field that is missing
is reported by MEM006 instead, which says to rename it.

## Why is this bad?
Agents match keys exactly: the misspelt setting is never read.

## Example
```yaml
descripton: User wants concise reviews
```

## Use instead
Fix the spelling, or, if the key is meant, add it to `memory.allowed-keys` in
`.memcheck.yaml`.
```yaml
description: User wants concise reviews
```
""",
)


def check(f: FieldFacts) -> Iterator[Problem]:
    """MEM006, then MEM010 on the unknown keys that no MEM006 finding explains."""
    explained = yield from _missing(f)
    # Only a key one slip from a known one: agents ignore the rest, and the tools that
    # write memories add their own by design (lastReadAt, created_at: 9 of 9 such
    # findings judged unwanted on real repositories; near_key's looser likeness took
    # them for last_used_at and created).
    near_known = misspelt_key(tuple(sorted(f.allowed))) if any(key not in explained for key in f.unknown) else None
    for key in f.unknown:
        meant = None if key in explained or near_known is None else near_known(key)
        if meant is not None:
            yield MEM010.at(
                f.path,
                f.frontmatter.key_lines[key],
                1,
                f"frontmatter key {key!r} looks like a misspelling of {meant!r}: agents match keys exactly, so this setting is ignored; rename it to {meant}",
            )


def _missing(f: FieldFacts) -> Generator[Problem, None, set[str]]:
    """MEM006; returns the unknown keys a finding explains."""
    path, fm, data, cfg, unknown, kind = f.path, f.frontmatter, f.data, f.cfg, f.unknown, f.kind
    # A required field that is not there and an unknown key are often one cause, said
    # once: the key misspelt (`Description:`), or a file whose frontmatter is not a
    # memory's at all (a session log kept in the store).
    absent = [key for key in cfg.required if key not in data and (key != "type" or kind is None)]
    near = near_key(tuple(cfg.required))
    misspelt: dict[str, str] = {}  # a required key -> the unknown key that looks like it
    for key in absent:
        found = next((u for u in unknown if u not in misspelt.values() and near(u) == key), None)
        if found is not None:
            misspelt[key] = found
    explained = set(misspelt.values())
    if not misspelt and len(cfg.required) > 1 and len(absent) == len(cfg.required):
        held = f" (it holds {some(list(fm.key_lines))})" if fm.key_lines else ""
        yield MEM006.at(
            path,
            1,
            1,
            f"frontmatter has none of the memory fields {', '.join(cfg.required)}{held}, so agents cannot index this file as a memory; add {', '.join(cfg.required[:-1])} and {cfg.required[-1]}",
        )
        explained.update(unknown)
    else:
        for key in cfg.required:
            value = kind if key == "type" else data.get(key)
            if key in misspelt:
                wrong = misspelt[key]
                yield MEM006.at(
                    path,
                    fm.key_lines[wrong],
                    1,
                    f"required field {key!r} is missing: the key {wrong!r} is not read as it (keys are matched exactly); rename it to {key}",
                )
            elif blank(value):
                state = "is empty" if key in data else "is missing"
                yield MEM006.at(path, f.line_of(key) if key in data else 1, 1, f"required field {key!r} {state}; add a one-line {key}")
    return explained
