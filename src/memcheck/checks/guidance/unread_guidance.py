"""GDN001: a guidance file that no configured agent reads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import agents
from memcheck.agents import guidance_model
from memcheck.paths import basename
from memcheck.problem import ERROR, TREE, Rule

if TYPE_CHECKING:
    from memcheck.agents import readers
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

GDN001 = Rule(
    "GDN001",
    "unread-guidance",
    ERROR,
    False,
    "No configured agent reads this guidance file",
    """\
## What it does
Reports a guidance file that none of the agents in `agents:` reads (by default
every agent memcheck knows: `memcheck agents` lists them), judged per agent with
its default settings: `AGENT.md` beside `AGENTS.md` (Amp reads `AGENT.md` only in a
folder without `AGENTS.md`, and no other agent reads it), or a file only agents
outside `agents:` read (`.claude/rules` when Claude Code is not configured). A file
an agent reaches through an `@`-import of a file it reads counts as read. Where it
is not confirmed whether an agent reads a file (both `CLAUDE.md` and
`.claude/CLAUDE.md` in one folder, a case variant such as `agents.md`, an
`AGENTS.md` alone that Claude Code reads from release 2.1.277 on, a plain `.md` file
in `.cursor/rules`), nothing is reported; nor is a
file that another Markdown file of the repository cites (links to, `@`-mentions or
names by its path: a README's "see AGENT.md", a CLAUDE.md that says to follow it).
Such a file is a document in use: people and agents are pointed to it, and an agent
told to read it does.

## Why is this bad?
Nothing in the file reaches any agent, while its authors believe it does.

## Example
`AGENTS.md` and `AGENT.md` in the root, each written by hand. In `AGENTS.md`:
```markdown
# Rules

Run `make test` before every commit.
```
and in `AGENT.md`:
```markdown
# Rules

Run `make check` before you push.
```

## Use instead
Move what the unread file says into the file the agents read, and delete it; or,
if the repository also serves an agent that reads it, add that agent to `agents:`
(the message names such agents as an option). A `CLAUDE.md` over 4 MiB, which
Claude Code skips: shorten it. `AGENTS.md`, with what `AGENT.md` said moved into it
(and `AGENT.md` deleted):
```markdown
# Rules

Run `make test` before every commit.

Run `make check` before you push.
```
""",
    scope=TREE,
)


def check(ws: Workspace, model: readers.Reading) -> Iterator[Problem]:
    configured = model.configured
    by_folder: dict[str, list[str]] | None = None  # made at the first file that needs it
    unread = ws.once(guidance_model.unread_once)
    # A file other files cite (README's "see AGENT.md", a link from CLAUDE.md) is a
    # document in use, not stray instructions: deleting it would break those citations,
    # and an agent told to read it does.
    in_use = guidance_model.cited(ws, unread)
    for real in unread:
        names = model.names_of(real)
        name = basename(real)
        # Only the configured agents are spoken of; an agent outside `agents:` that
        # reads the file is named only in the plainly optional advice to add it.
        reasons = dict.fromkeys(why for p in names if p in model.direct for a in configured if (why := model.direct[p][a][1]))
        silent = [a for a in configured if not any(model.direct[p][a][1] for p in names if p in model.direct)]
        said = "; ".join(reasons)
        if silent:
            said += (", and " if said else "") + f"{agents.titles(silent)} {'does' if len(silent) == 1 else 'do'} not read it"
        if any(agents.CLAUDE_CODE in model.too_big.get(p, ()) for p in names) and agents.CLAUDE_CODE in configured:
            fix = "shorten it below 4 MiB"
        elif real in in_use:
            continue
        else:
            by_folder = by_folder if by_folder is not None else guidance_model.folder_files(model)
            into = guidance_model.read_beside(model, real, by_folder)
            fix = (
                f"move what it says into {into}, and delete it"
                if into
                else f"move what it says into a file {agents.titles(configured)} {'reads' if len(configured) == 1 else 'read'}, and delete it"
            )
        others = [a for a in agents.ALL if a not in configured and model.state(a, real) == agents.READS]
        if others:
            fix += f"; or, if this repository also serves {agents.titles(others)}, add {', '.join(others)} to agents:"
        yield GDN001.at(real, 1, 1, f"no configured agent reads {name}: {said}; {fix}")
