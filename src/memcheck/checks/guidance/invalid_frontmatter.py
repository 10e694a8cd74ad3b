"""GDN004: guidance frontmatter that cannot be parsed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.agents import guidance_kinds
from memcheck.problem import ERROR, WARNING, Rule
from memcheck.text.frontmatter import frontmatter_problem

if TYPE_CHECKING:
    from memcheck import agents
    from memcheck.agents import kinds as agentkinds
    from memcheck.problem import Problem
    from memcheck.text.document import Document

GDN004 = Rule(
    "GDN004",
    "invalid-frontmatter",
    ERROR,
    False,
    "Guidance frontmatter cannot be parsed",
    """\
## What it does
Reports guidance frontmatter that is never closed, is not valid YAML, is not a
mapping, or repeats a key; or that is past memcheck's bounds (more than 64 levels of
nesting, more than 20,000 values or 2,097,152 characters with aliases expanded, a
recursive alias).

## Why is this bad?
Agents that parse the frontmatter (for `globs` and `alwaysApply`) either fail or
read the file as applying everywhere.

## Example
```markdown
---
description: API rules: routes and handlers
---
```

## Use instead
```markdown
---
description: "API rules: routes and handlers"
---
```
""",
)


def trouble(doc: Document, schema: agents.Frontmatter) -> Problem | None:
    """GDN004 for frontmatter no reading makes sense of: the other frontmatter rules
    then have nothing to judge."""
    found = frontmatter_problem(doc)
    fm = doc.frontmatter
    # Cursor takes `key: value` lines that strict YAML rejects (its own editor writes
    # `globs: *.ts`): only frontmatter that no reading makes sense of is reported.
    if found is not None and not (schema.lenient and fm is not None and fm.fallback and not fm.duplicates):
        return GDN004.at(doc.path, found[0], 1, found[1])
    return None


def check_kind_file(kind: agentkinds.Kind, doc: Document) -> Iterator[Problem]:
    """An instructions file only the agent data knows: a warning when its agent reads it anyway."""
    if (found := guidance_kinds.unparsable(kind, doc)) is not None:
        yield GDN004.at(doc.path, found.line, 1, found.message)._replace(severity=WARNING if found.fails_open else ERROR)
