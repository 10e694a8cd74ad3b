"""SKL012: a relative link in a skill file that points at a missing file.

Checked in any readable skill file, frontmatter or none: a skill's body points the
agent at its resources whatever its header says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.agents import links
from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

SKL012 = Rule(
    "SKL012",
    "broken-link",
    WARNING,
    False,
    "Relative link in a skill points at a missing file",
    """\
## What it does
Reports `[text](path)` links, images and reference definitions in a skill file
whose relative target does not exist, resolved from the skill's folder (outside
code spans, fenced blocks and HTML comments). Definitions are read as CommonMark
reads them: a `[text]: more` line inside a paragraph is text, and so is one with
more than a target and a title.

## Why is this bad?
A skill's body points the agent at its resources (`references/api.md`,
`scripts/run.sh`); a dead link sends it looking for a file that is gone.

## Example
```markdown
See [the API notes](references/api.md).
```
with no `references/api.md` beside the `SKILL.md`.

## Use instead
Point the link at the file's current path, or remove it. The link to
`references/api-v2.md`, which is beside the `SKILL.md`:
```markdown
See [the API notes](references/api-v2.md).
```
""",
)


def check(ws: Workspace, doc: Document) -> Iterator[Problem]:
    for line, col, message in links.dead_links(ws, doc):
        yield SKL012.at(doc.path, line, col, message)
