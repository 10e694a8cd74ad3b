"""MCK002: a suppression comment that names no rule, and so suppresses nothing.

It has no check of its own: ``suppression.apply`` reports it while it applies the
comments, after every other rule has run (its scope).
"""

from __future__ import annotations

from memcheck.problem import SUPPRESSION, WARNING, Rule

MCK002 = Rule(
    "MCK002",
    "unknown-suppression-code",
    WARNING,
    False,
    "A suppression comment names no rule",
    """\
## What it does
Reports a code in a `memcheck-disable…` comment that is neither a rule code nor the
prefix of one (`memcheck rules` lists them).

## Why is this bad?
A misspelt code suppresses nothing: the finding it was meant for is still
reported, and the comment looks as if it worked.

## Example
```markdown
<!-- memcheck-disable-next-line GND009 -->
```

## Use instead
```markdown
<!-- memcheck-disable-next-line GDN009 -->
```
""",
    scope=SUPPRESSION,
)
