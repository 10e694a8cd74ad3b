"""GDN025: one file @-imported twice by the same file."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.agents.expansion import imports
from memcheck.problem import WARNING, Rule
from memcheck.text import mentions

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

GDN025 = Rule(
    "GDN025",
    "duplicate-import",
    WARNING,
    False,
    "The same file is @-imported twice",
    """\
## What it does
Reports an `@path` import of a file the same guidance file imports already, under
the same or another spelling (`@docs/a.md` and `@./docs/a.md`), in files read by an
agent that follows `@` imports (Claude Code, Gemini CLI, Amp).

## Why is this bad?
The second import brings nothing the first did not: an agent that loads each file
once skips it, and one that does not loads the same text twice, into every session.
Either way it is a slip, often of a section copied from elsewhere.

## Example
```markdown
Style: @docs/style.md

Before a commit, read @docs/style.md again.
```

## Use instead
```markdown
Style: @docs/style.md

Before a commit, read the style guide again.
```
""",
)


def check(ws: Workspace, doc: Document) -> Iterator[Problem]:
    first: dict[str, int] = {}  # each imported file -> the line of its first import
    for imp in imports(ws, doc):
        if imp.kind != mentions.PATH or not imp.target or not ws.exists(imp.target):
            continue  # a missing file is GDN009's, at each import: fixing the path is the one fix
        if imp.target not in first:
            first[imp.target] = imp.line
            continue
        yield GDN025.at(
            doc.path,
            imp.line,
            imp.col,
            f"@{imp.token} imports {imp.target}, which line {first[imp.target]} imports already; a second import adds nothing, so remove one",
        )
