"""GDN019: an instructions file the agent loads nothing from.

Its findings are the issues of ``guidance_kinds.file_issues`` named in ``WHAT``.
"""

from __future__ import annotations

from memcheck.problem import WARNING, Rule

GDN019 = Rule(
    "GDN019",
    "loads-nothing",
    WARNING,
    False,
    "Instructions file the agent loads nothing from",
    """\
## What it does
Reports a guidance, rule, instructions or steering file with no text (or only
frontmatter), a Copilot `.instructions.md` without `applyTo`, and a Kiro steering
file with `inclusion: fileMatch` but no `fileMatchPattern`.

## Why is this bad?
The agent loads nothing from an empty file, and applies one without its pattern to
no file: the instructions are never read.

## Example
`inclusion: fileMatch` alone. In `.kiro/steering/ts.md`:
```markdown
---
inclusion: fileMatch
---

Use strict mode.
```

## Use instead
`inclusion: fileMatch` and `fileMatchPattern: "src/**/*.ts"`.
```markdown
---
inclusion: fileMatch
fileMatchPattern: "src/**/*.ts"
---

Use strict mode.
```
""",
)

# The issues of guidance_kinds.file_issues that are this rule's: no text, or no key
# the agent needs to apply the file.
WHAT = {"empty": GDN019, "missing": GDN019}
