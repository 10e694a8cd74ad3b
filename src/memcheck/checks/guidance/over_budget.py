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
than `guidance.max-tokens` (10,000) approximate tokens (bytes / 4). A file over
more than one budget is one finding, on line 1, naming each: one long file is one
problem, with one remedy.

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
    """One finding per file, however many budgets it is over: the lines, bytes and
    tokens of one long file are one problem, with one remedy (on an unseen
    repository a 1,092-line rule was reported three times, once per measure)."""
    cfg = ws.config.guidance
    lines = len(doc.lines) - (1 if doc.text.endswith("\n") else 0)
    files, tokens = reached.loaded(depth)
    move = "move reference material into files read on demand"
    imports = "turn @-imports into plain links"
    # (what the file is, the budget it is over, the line, the remedy) of each budget it is over
    over: list[tuple[str, str, int, str]] = []
    if lines > cfg.max_lines:
        over.append((f"has {lines} lines", f"guidance.max-lines {cfg.max_lines}", cfg.max_lines + 1, move))
    if doc.size > cfg.max_bytes:
        over.append((f"is {doc.size} bytes", f"guidance.max-bytes {cfg.max_bytes}", 1, move))
    if tokens > cfg.max_tokens:
        with_imports = f"with its {files - 1} import(s) " if files > 1 else ""
        over.append((f"{with_imports}loads about {tokens} tokens", f"guidance.max-tokens {cfg.max_tokens}", 1, f"shorten it or {imports}"))
    if not over:
        return
    name = basename(doc.path)
    if len(over) == 1:
        ((what, budget, line, remedy),) = over
        yield GDN014.at(doc.path, line, 1, f"{name} {what}, over {budget}; {remedy}")
        return
    said = ", ".join(what for what, *_ in over[:-1]) + " and " + over[-1][0]
    budgets = ", ".join(budget for _, budget, *_ in over[:-1]) + " and " + over[-1][1]
    remedy = f"{move}, and {imports}" if tokens > cfg.max_tokens and files > 1 else move
    yield GDN014.at(doc.path, 1, 1, f"{name} {said}, over {budgets}; {remedy}")
