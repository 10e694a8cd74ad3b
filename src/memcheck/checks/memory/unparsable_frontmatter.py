"""MEM003: frontmatter never closed, or that neither YAML nor a line reading can parse
(a gate: no field rule runs after it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.checks.memory.facts import EXAMPLE_OK
from memcheck.problem import ERROR, Rule
from memcheck.text.frontmatter import squeezed_key

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document

MEM003 = Rule(
    "MEM003",
    "unparsable-frontmatter",
    ERROR,
    False,
    "Frontmatter cannot be parsed",
    f"""\
## What it does
Reports frontmatter that is never closed by a second `---` line, is not a mapping,
or is neither valid YAML nor readable as `key: value` lines; and frontmatter past
the bounds memcheck reads YAML within, which is not read at all: collections nested
more than 64 levels deep, more than 20,000 values or 2,097,152 characters with each
alias counted as all it stands for (a YAML "billion laughs"), or an alias inside
what it refers to.

## Why is this bad?
No tool can read the memory's name, description or type from it.

## Example
```markdown
---
name: Review style
description: [unclosed
```

## Use instead
{EXAMPLE_OK}
""",
)


def check(doc: Document) -> Problem | None:
    """The one finding on frontmatter that cannot be read at all, if it cannot."""
    path, fm = doc.path, doc.frontmatter
    if doc.unterminated or fm is None:
        return MEM003.at(path, 1, 1, "frontmatter opened on line 1 is never closed by a '---' line")
    if fm.yaml_error is None or fm.fallback:
        return None
    squeezed = squeezed_key(doc.lines[1 : fm.end_line - 1])
    if squeezed is not None:
        bare, offset = squeezed
        # `name:bob` is one string to YAML, not a key and its value: say the fix.
        return MEM003.at(
            path,
            2 + offset,
            len(bare) + 2,
            f"frontmatter cannot be parsed: `{bare}:` has no space after its colon, so YAML reads the line as text; add a space after `{bare}:`",
        )
    return MEM003.at(path, fm.yaml_error_line, 1, f"frontmatter cannot be parsed: {fm.yaml_error}")
