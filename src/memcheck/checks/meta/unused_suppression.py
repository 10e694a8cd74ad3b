"""MCK001: a suppression comment (``<!-- memcheck-disable-next-line MEM010 -->``)
that no longer suppresses anything, which would hide the next real finding on its line.

It has no check of its own: ``suppression.apply`` reports it while it applies the
comments, after every other rule has run (its scope).
"""

from __future__ import annotations

from memcheck.problem import SUPPRESSION, WARNING, Rule

MCK001 = Rule(
    "MCK001",
    "unused-suppression",
    WARNING,
    False,
    "A suppression comment suppresses nothing",
    """\
## What it does
Reports a `memcheck-disable…` comment, or one rule code in it, that suppresses no
finding: the finding it was written for has been fixed, moved, or was never there.
A comment naming a secret rule (`SEC…`) is reported too: secrets cannot be
suppressed by a comment.

Only codes of rules that are on are judged: with `--select IDX`, a comment about
`MEM010` is neither used nor reported.

## Why is this bad?
A stale suppression silently swallows the next real finding on its line, and the
comment itself is text every agent that reads the file loads for nothing.

## Example
```markdown
<!-- memcheck-disable-next-line GDN009 -->
See @docs/style.md for the style guide.
```
after `docs/style.md` was restored.

## Use instead
Remove the comment, or the codes in it that no longer apply.
```markdown
See @docs/style.md for the style guide.
```
""",
    scope=SUPPRESSION,
)
