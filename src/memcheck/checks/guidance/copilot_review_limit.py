"""GDN017: Copilot code review reads only the first 4,000 characters of an instructions file."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import agents
from memcheck.agents import guidance_model
from memcheck.problem import IMPORTS, WARNING, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document

GDN017 = Rule(
    "GDN017",
    "copilot-review-limit",
    WARNING,
    False,
    "Copilot code review may read only the first 4,000 characters",
    """\
## What it does
Off by default: `select: [ALL, GDN017]` turns it on with every other rule. GitHub's
documentation said that Copilot code review reads only the first 4,000 characters of
each instructions file until 2026, when the statement was taken out; whether review
still stops there is not confirmed, so the rule reports only where it is asked to.

Reports `.github/copilot-instructions.md` and `.github/instructions/*.instructions.md`
files longer than 4,000 characters, unless they say `excludeAgent: code-review`,
naming the line from which Copilot code review would no longer read them, and which
other Copilot agents read the whole file (`excludeAgent: coding-agent` keeps the
coding agent out).

## Why is this bad?
Where code review reads only the first 4,000 characters of each instructions file,
rules past that point reach Copilot chat and the coding agent but never the review.

## Example
A 9,000-character `copilot-instructions.md` whose review checklist is at the end.
```console
$ wc -m .github/copilot-instructions.md
9000 .github/copilot-instructions.md
$ tail -n 3 .github/copilot-instructions.md
## Review checklist

- Every change has a test.
```

## Use instead
Put what review must check first, or move it into a short path-specific
`.instructions.md` file. `.github/copilot-instructions.md`, the checklist first and
the reference material moved out, under 4,000 characters:
```markdown
# Instructions

## Review checklist

- Every change has a test.

## Style

- Prefer small functions with one purpose.
- See [the style guide](../docs/style.md) for the rest.
```
""",
    scope=IMPORTS,
    # GitHub's docs stated the limit until github/docs#42361 took the statement out
    # (2026); github/docs#42761 asks whether it still holds, unanswered.
    opt_in=True,
)


def check(doc: Document) -> Iterator[Problem]:
    cut = guidance_model.copilot_review_cut(doc)
    if cut is None:
        return
    line, others = cut
    limit = agents.number(agents.COPILOT, "review_chars")
    yield GDN017.at(
        doc.path,
        line,
        1,
        f"Copilot code review read only the first {limit:,} characters of this file, as GitHub's documentation said until 2026 (it no longer says so), and it has {len(doc.text):,}: from line {line} on, review may not see it ({others}); put what review must check first, or shorten the file",
    )
