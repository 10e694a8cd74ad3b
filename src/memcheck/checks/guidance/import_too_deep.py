"""GDN012: an @-import chain deeper than the reading agent follows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import agents
from memcheck.agents import expansion, guidance_model
from memcheck.agents.expansion import Reach, reach
from memcheck.problem import ERROR, IMPORTS, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

GDN012 = Rule(
    "GDN012",
    "import-too-deep",
    ERROR,
    False,
    "@-import chain is deeper than the reading agent follows",
    """\
## What it does
Reports an `@` import chain longer than the agent that reads the file follows:
Claude Code follows 4 hops from a `CLAUDE.md`, `.claude/CLAUDE.md`,
`CLAUDE.local.md` or rule; Gemini CLI 5 from a `GEMINI.md`. It names the agent and
the file it never loads. `guidance.max-import-depth`, when set, is a house limit
for every guidance file.

## Why is this bad?
The agent stops expanding at its limit: files further down are never read.

## Example
`CLAUDE.md` → `a.md` → `b.md` → `c.md` → `d.md` → `e.md`.
```console
$ head CLAUDE.md a.md b.md c.md d.md e.md
==> CLAUDE.md <==
@a.md

==> a.md <==
@b.md

==> b.md <==
@c.md

==> c.md <==
@d.md

==> d.md <==
@e.md

==> e.md <==
Run the release checklist before tagging.
```

## Use instead
Import the deep files directly from the guidance file. `CLAUDE.md`:
```markdown
@a.md
@e.md
```
""",
    scope=IMPORTS,
)


def check(ws: Workspace, doc: Document, read_by: dict[str, int]) -> Iterator[Problem]:
    path = doc.path
    roots = guidance_model.reads_as_root(ws, path, read_by)
    for agent in ws.config.agents:
        facts = agents.agent(agent)
        depth = facts.import_depth
        if depth is None or facts.follows_imports == agents.NO or agent not in roots:
            continue
        for hop, chain in _never_loaded(reach(ws, path, depth))[:1]:
            yield GDN012.at(
                path,
                hop.line,
                hop.col,
                f"import chain {' -> '.join(chain)} is {len(chain) - 1} hops deep, and {agents.title(agent)} follows {depth}, so it never loads {chain[-1]}; import it from a shallower file",
            )
    house = ws.config.guidance.max_import_depth
    if house is not None:
        for hop, chain in _never_loaded(reach(ws, path, house))[:1]:
            yield GDN012.at(
                path,
                hop.line,
                hop.col,
                f"import chain {' -> '.join(chain)} is {len(chain) - 1} hops deep, over guidance.max-import-depth {house}; import {chain[-1]} from a shallower file",
            )


def _never_loaded(reached: Reach) -> list[tuple[expansion.Import, tuple[str, ...]]]:
    # A file too deep down one chain that a shorter chain (a direct import) loads is
    # loaded all the same: only the others are never loaded.
    return [(hop, chain) for hop, chain in reached.too_deep if chain[-1] not in reached.visited()]
