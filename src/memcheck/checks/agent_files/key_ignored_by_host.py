"""AGT012: a key one of the agent's hosts reads and another ignores."""

from __future__ import annotations

from typing import Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.problem import WARNING, Problem, Rule
from memcheck.text.frontmatter_reading import Frontmatter

AGT012 = Rule(
    "AGT012",
    "key-ignored-by-host",
    WARNING,
    False,
    "Custom agent key that one of the places it runs ignores",
    """\
## What it does
Reports a key of a Copilot custom agent that one of the places the agent runs
ignores, while the file is meant for both (no `target`, or the `target` of the
place that ignores it): `argument-hint` and `handoffs`, which GitHub.com's cloud
agent ignores (VS Code reads them), and `mcp-servers` and `metadata`, which VS Code
and the other IDEs ignore (GitHub.com reads them).

Off by default: `select: [ALL, AGT012]` turns it on with every other rule. On the
public repositories nobody on the project had read, judged by someone who had not
read the code, none of its 22 findings was wanted: custom agents written for VS Code
with its chat hints and follow-up buttons, whose instructions run the same on
GitHub.com. Turn it on where one agent file must behave alike in both places.

## Why is this bad?
An agent without `target` runs in both places, and behaves differently in each:
the handoff buttons or MCP servers it was written with are missing in one of them.
Saying where it is meant to run (`target: vscode` or `target: github-copilot`)
makes that explicit.

## Example
```yaml
description: Plans a change.
handoffs:
  - label: Implement
    agent: implementer
```

## Use instead
```yaml
description: Plans a change.
target: vscode
handoffs:
  - label: Implement
    agent: implementer
```
""",
    opt_in=True,  # true, but wanted on none of the findings judged on unseen repositories
)


def check(kind: agentkinds.Kind, path: str, fm: Frontmatter) -> Iterator[Problem]:
    target = fm.data.get("target")
    for spec in kind.keys.values():
        if not spec.ignored_by or spec.name not in fm.data:
            continue
        if isinstance(target, str) and target.strip() and target.strip() != spec.ignored_target:
            continue  # meant for a place that reads it
        where = f" (target: {target.strip()})" if isinstance(target, str) and target.strip() else ""
        yield AGT012.at(
            path,
            fm.key_lines.get(spec.name, 1),
            1,
            f"{spec.name} is ignored by {spec.ignored_by}, where this {kind.agent_title} custom agent also runs{where}; set target to where it is meant to run, or leave {spec.name} out",
        )
