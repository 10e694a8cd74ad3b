"""GDN024: a file named like a guidance file in another case (``claude.md``).

A listing rule: the case variants are found among the tree's files
(``find_agent_files``), and each is reported when the run covers it. The secret and
hidden-text rules read these files too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

from memcheck.paths import basename
from memcheck.problem import TREE, WARNING, Rule
from memcheck.workspace.agentfiles import find_agent_files

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

GDN024 = Rule(
    "GDN024",
    "case-variant-name",
    WARNING,
    False,
    "File named like a guidance file in another case",
    """\
## What it does
Reports a file whose name is a guidance file's name in another case (`claude.md`,
`Gemini.md`, `AGENTS.MD`, `.github/Copilot-Instructions.md`) where that file is not
a guidance file of its own.

## Why is this bad?
A case-insensitive file system (the default on macOS and Windows) opens it when an
agent asks for `CLAUDE.md`, and a case-sensitive one (Linux, CI) does not: the agent's
instructions differ from one machine to the next, and a review that looks for changes
to `CLAUDE.md` does not see them. Its secrets and hidden text are reported as a
guidance file's are.

## Example
`claude.md`
```markdown
# Project

Run the tests.
```

## Use instead
`CLAUDE.md`
```markdown
# Project

Run the tests.
```
""",
    scope=TREE,
)


def check(ws: Workspace, paths: Sequence[str]) -> Iterator[Problem]:
    if not paths:
        return
    given = set(paths)
    for path, other in find_agent_files(ws).case_variants:
        if path in given:
            yield GDN024.at(
                path,
                1,
                1,
                f"{path} differs from {other} only in case: a case-insensitive file system (the default on macOS and Windows) opens it "
                f"as {other}, a case-sensitive one does not; rename it to {basename(other)}",
            )
