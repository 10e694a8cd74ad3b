"""AGT010: a committed subagent that skips every permission prompt."""

from __future__ import annotations

from typing import Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.problem import WARNING, Problem, Rule
from memcheck.text.frontmatter_reading import Frontmatter

AGT010 = Rule(
    "AGT010",
    "bypass-permissions",
    WARNING,
    False,
    "Subagent runs every tool without asking (permissionMode: bypassPermissions)",
    """\
## What it does
Reports a Claude Code subagent in the repository with `permissionMode:
bypassPermissions`.

## Why is this bad?
In that mode the subagent skips every permission prompt: it runs any command
through Bash, writes and deletes any file, and fetches any URL without asking.
Committed to a shared repository, it does so for everyone who clones it, on their
machine, whatever their own settings ask to be confirmed; and what the subagent
reads (a web page, an issue, a file) can steer what it runs.

## Example
```yaml
permissionMode: bypassPermissions
```

## Use instead
Ask before risky tools, and allow the safe commands by name in settings:
```yaml
permissionMode: acceptEdits
```
""",
    security_severity="5.0",
)


def check(kind: agentkinds.Kind, path: str, fm: Frontmatter) -> Iterator[Problem]:
    for spec in kind.keys.values():
        value = fm.data.get(spec.name)
        if spec.unsafe and isinstance(value, str) and value.strip() in spec.unsafe:
            yield AGT010.at(
                path,
                fm.key_lines.get(spec.name, 1),
                1,
                f"{spec.name}: {value.strip()} lets this {kind.agent_title} subagent run every tool (any Bash command, any file write, any fetch) without asking, for everyone who uses this repository; use acceptEdits or default, and allow the commands it needs by name",
            )
