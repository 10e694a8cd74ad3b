"""AGT017: a subagent's project memory that git ignores."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.problem import WARNING, Problem, Rule
from memcheck.text.frontmatter_reading import Frontmatter

if TYPE_CHECKING:
    from memcheck.workspace.discover import Workspace

AGT017 = Rule(
    "AGT017",
    "agent-memory-ignored",
    WARNING,
    False,
    "Subagent's project memory is git-ignored",
    """\
## What it does
Reports a Claude Code subagent with `memory: project` whose memory folder,
`.claude/agent-memory/<name>/`, the repository's `.gitignore` ignores.

## Why is this bad?
`memory: project` is the memory meant to be committed: what the subagent learns is
shared with the team through the repository. Ignored, it stays on one machine, and
each clone's subagent starts from nothing; `memory: local` says that plainly.

## Example
With `.claude/agent-memory/` in `.gitignore`:
```yaml
name: code-reviewer
description: Reviews a change for bugs.
memory: project
```

## Use instead
Commit the memory (take `.claude/agent-memory/` out of `.gitignore`), or keep it
personal on purpose:
```yaml
name: code-reviewer
description: Reviews a change for bugs.
memory: local
```
""",
)


def check(ws: Workspace, kind: agentkinds.Kind, path: str, fm: Frontmatter) -> Iterator[Problem]:
    name = fm.data.get("name")
    if not isinstance(name, str) or not name.strip():
        return
    base = path.split("/.claude/agents/")[0] + "/" if "/.claude/agents/" in path else ""
    for spec in kind.keys.values():
        value = fm.data.get(spec.name)
        folder = dict(spec.folders).get(value) if isinstance(value, str) else None
        if folder is None:
            continue
        memory = f"{base}{folder}/{name.strip()}/MEMORY.md"
        if ws.ignored_by_git([memory]):
            yield AGT017.at(
                path,
                fm.key_lines.get(spec.name, 1),
                1,
                f"{spec.name}: {value} keeps what this subagent learns in {base}{folder}/{name.strip()}/ to be committed and shared, but git ignores that folder, so it never leaves this machine; stop ignoring {base}{folder}/, or use {spec.name}: local",
            )
