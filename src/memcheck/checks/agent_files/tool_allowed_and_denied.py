"""AGT009: a tool both given and taken away in one subagent."""

from __future__ import annotations

from typing import Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.problem import WARNING, Problem, Rule
from memcheck.text.frontmatter_reading import Frontmatter

AGT009 = Rule(
    "AGT009",
    "tool-allowed-and-denied",
    WARNING,
    False,
    "Subagent names a tool in both tools and disallowedTools",
    """\
## What it does
Reports a tool a Claude Code subagent lists in `tools` and again in
`disallowedTools`.

## Why is this bad?
`disallowedTools` takes its tools away from the ones the subagent has, `tools`
included: the tool is not available, and the line in `tools` does nothing. One
of the two is a mistake, and a reader cannot tell which.

## Example
```yaml
tools: Read, Grep, Bash
disallowedTools: Bash
```

## Use instead
```yaml
tools: Read, Grep
```
""",
)


def check(kind: agentkinds.Kind, path: str, fm: Frontmatter) -> Iterator[Problem]:
    for spec in kind.keys.values():
        given = spec.removes_from
        if given is None or spec.name not in fm.data or given not in fm.data:
            continue
        allowed = set(agentkinds.tool_names(fm.data[given]))
        for tool in agentkinds.tool_names(fm.data[spec.name]):
            if tool in allowed:
                yield AGT009.at(
                    path,
                    fm.key_lines.get(spec.name, 1),
                    1,
                    f"{tool} is in both {given} and {spec.name}: {kind.agent_title} takes it away, so naming it in {given} does nothing; remove it from one of them",
                )
