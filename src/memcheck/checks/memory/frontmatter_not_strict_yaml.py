"""MEM004: frontmatter that strict YAML rejects but a `key: value` reading still reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.problem import ERROR, Rule
from memcheck.text.frontmatter import key_to_quote, quote_hint, unprintable_line

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.text.frontmatter_reading import Frontmatter

MEM004 = Rule(
    "MEM004",
    "frontmatter-not-strict-yaml",
    ERROR,
    False,
    "Frontmatter is not strict YAML; a value needs quotes",
    """\
## What it does
Reports frontmatter that strict YAML rejects but that still reads as `key: value`
lines, and names the value to quote. The usual cause is an unquoted `: ` inside a
value; another is a value that starts with a quoted string and goes on after it
(`name: "Deploy" notes`), which is quoted whole, in single quotes. The index is still
built from the `key: value` reading, as agents' line parsers do.

## Why is this bad?
Agents with a real YAML parser (and memcheck's schema checks) cannot read the file;
agents with line parsers can. The same memory means different things to different tools.

## Example
```yaml
description: Deploy target: Railway, not Vercel
```

## Use instead
```yaml
description: "Deploy target: Railway, not Vercel"
```
""",
)


def check(doc: Document, fm: Frontmatter) -> Problem | None:
    if not fm.fallback:
        return None
    key = key_to_quote(fm.raw_values, fm.key_lines)
    line = fm.key_lines.get(key, fm.yaml_error_line) if key else unprintable_line(doc, fm.yaml_error_line)
    hint = quote_hint(key, fm.raw_values.get(key, "")) if key else None
    return MEM004.at(doc.path, line, 1, f"frontmatter is not valid YAML ({fm.yaml_error}){hint or ''}")
