"""AGT006: a subagent names a tool the agent does not have; judged from the agent data
(``agentkinds.validate``, which the family's pass asks once per file)."""

from __future__ import annotations

from memcheck.problem import WARNING, Rule

AGT006 = Rule(
    "AGT006",
    "unknown-tool",
    WARNING,
    False,
    "Agent file names a tool the agent does not have",
    """\
## What it does
Reports a name in a subagent's `tools` or `disallowedTools` that is none of Claude
Code's tools (`Read`, `Grep`, `Bash`, `Edit`, ...), an MCP tool (`mcp__server__tool`)
or a tool with a rule in brackets (`Bash(git diff:*)`). Names are compared exactly,
case included.

## Why is this bad?
A misspelt tool is silently left out: the subagent runs without the tool you meant
to give it, or with the one you meant to take away.

## Example
```yaml
tools: read, Grepp
```

## Use instead
```yaml
tools: Read, Grep
```
""",
)


# The issues of ``agentkinds.validate`` this rule reports (the family's pass asks it once
# per file and gives each issue to the rule of its kind).
WHAT = frozenset({"tool"})
