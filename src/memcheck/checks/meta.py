"""MCK: findings about memcheck's own comments in the files it checks.

A suppression comment (``<!-- memcheck-disable-next-line MEM010 -->``, see
``memcheck.suppression``) that no longer suppresses anything hides the next real
finding on its line, and one that names no rule suppresses nothing at all. These
rules have no check of their own: ``suppression.apply`` reports them while it
applies the comments.
"""
from __future__ import annotations

from memcheck.problem import WARNING, Rule

MCK001 = Rule("MCK001", "unused-suppression", WARNING, False, "A suppression comment suppresses nothing", """\
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
""")

MCK002 = Rule("MCK002", "unknown-suppression-code", WARNING, False, "A suppression comment names no rule", """\
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
""")

RULES = (MCK001, MCK002)
