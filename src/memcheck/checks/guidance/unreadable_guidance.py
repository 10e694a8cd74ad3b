"""GDN003: a guidance file that cannot be read.

The family's pass reports it where ``doc.error`` stops the file's checks, and
``problem.contained`` where checking the file exhausts the stack or memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.agents import guidance_model
from memcheck.paths import basename
from memcheck.problem import ERROR, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

GDN003 = Rule(
    "GDN003",
    "unreadable-guidance",
    ERROR,
    False,
    "Guidance file cannot be read: unreadable, binary, not UTF-8 or over 1 MiB",
    """\
## What it does
Reports a guidance file that cannot be read, is binary, is not UTF-8 or is over 1 MiB,
or that exhausts memcheck's stack or memory while it is checked.

## Why is this bad?
Agents read guidance as UTF-8 Markdown; anything else is skipped or garbled.

## Example
`AGENTS.md` saved as UTF-16:
```markdown
# Rules

Run `make test` before every commit.
```

## Use instead
Re-save it as UTF-8.
```markdown
# Rules

Run `make test` before every commit.
```
""",
)


def check(ws: Workspace, doc: Document, kind: str | None) -> Iterator[Problem]:
    """A guidance file memcheck cannot read (``doc.error``), and whether Claude Code skips it too."""
    yield GDN003.at(doc.path, doc.error_line, 1, f"{basename(doc.path)} {doc.error}{guidance_model.claude_skips(ws, doc, kind)}")


def check_kind_file(doc: Document) -> Iterator[Problem]:
    """An instructions file only the agent data knows (Kiro steering, Cline rules) that memcheck cannot read."""
    yield GDN003.at(doc.path, doc.error_line, 1, f"{basename(doc.path)} {doc.error}")
