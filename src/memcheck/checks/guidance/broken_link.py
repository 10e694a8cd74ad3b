"""GDN013: a relative Markdown link in a guidance file that points at a missing file."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.agents import links
from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

GDN013 = Rule(
    "GDN013",
    "broken-link",
    WARNING,
    False,
    "Relative Markdown link points at a missing file",
    """\
## What it does
Reports `[text](path)` links, images and reference definitions with a relative
target that does not exist, resolved from the file's folder (outside code).
Definitions are read as CommonMark reads them: a `[text]: more` line inside a
paragraph is text, and so is one with more than a target and a title.

A file named like guidance in another case (`docs/agents.md`) in a tree whose
guidance takes the name in its own case (an `AGENTS.md` elsewhere) is a page about
agents, which only a case-insensitive file system opens as guidance: it is not
checked here. Where the tree names its guidance only so (`src/Agents.md`), it is.

## Why is this bad?
Agents follow these links to read more; a dead link sends them looking for a file
that is gone, often after a rename.

## Example
```markdown
See [the API guide](docs/api.md).
```

## Use instead
Point the link at the file's current path, or remove it. The guide moved to
`docs/reference/api.md`:
```markdown
See [the API guide](docs/reference/api.md).
```
""",
)


def check(ws: Workspace, doc: Document) -> Iterator[Problem]:
    for line, col, message in links.dead_links(ws, doc):
        yield GDN013.at(doc.path, line, col, message)
