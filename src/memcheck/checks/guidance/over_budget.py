"""GDN014: a guidance file over its size budget (lines, bytes, or tokens with its imports)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.paths import basename
from memcheck.problem import IMPORTS, WARNING, Rule

if TYPE_CHECKING:
    from memcheck.agents.expansion import Reach
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

GDN014 = Rule(
    "GDN014",
    "over-budget",
    WARNING,
    False,
    "Guidance file is over its size budget",
    """\
## What it does
Warns when a guidance file has more lines than `guidance.max-lines` (500) or more
bytes than `guidance.max-bytes` (40,000), or when it and its imports come to more
than `guidance.max-tokens` (10,000) approximate tokens (bytes / 4).

A file named like guidance in another case (`docs/agents.md`) in a tree whose
guidance takes the name in its own case (an `AGENTS.md` elsewhere) is a page about
agents, which only a case-insensitive file system opens as guidance: it is not
checked here. Where the tree names its guidance only so (`src/Agents.md`), it is.

## Why is this bad?
Guidance is loaded into every session: a long file crowds out the task, and
agents follow short, specific rules better than long ones.

## Example
A 900-line AGENTS.md that pastes the whole API reference.
```console
$ wc -l AGENTS.md
900 AGENTS.md
```

## Use instead
Keep the rules short; move reference material into files the agent reads on demand
(a plain link, not an `@` import). `AGENTS.md`, with the reference in `docs/api.md`:
```markdown
# Rules

The API is listed in [the reference](docs/api.md).
```
""",
    scope=IMPORTS,
)


def check(ws: Workspace, doc: Document, reached: Reach, depth: int) -> Iterator[Problem]:
    cfg = ws.config.guidance
    path = doc.path
    lines = len(doc.lines) - (1 if doc.text.endswith("\n") else 0)
    if lines > cfg.max_lines:
        yield GDN014.at(
            path,
            cfg.max_lines + 1,
            1,
            f"{basename(path)} has {lines} lines, over guidance.max-lines {cfg.max_lines}; move reference material into files read on demand",
        )
    if doc.size > cfg.max_bytes:
        yield GDN014.at(
            path,
            1,
            1,
            f"{basename(path)} is {doc.size} bytes, over guidance.max-bytes {cfg.max_bytes}; move reference material into files read on demand",
        )
    files, tokens = reached.loaded(depth)
    if tokens > cfg.max_tokens:
        with_imports = f" with its {files - 1} import(s)" if files > 1 else ""
        yield GDN014.at(
            path,
            1,
            1,
            f"{basename(path)}{with_imports} loads about {tokens} tokens, over guidance.max-tokens {cfg.max_tokens}; shorten it or turn @-imports into plain links",
        )
