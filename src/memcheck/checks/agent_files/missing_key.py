"""AGT004: an agent file without a key its kind requires; judged from the agent data
(``agentkinds.validate``, which the family's pass asks once per file)."""

from __future__ import annotations

from memcheck.checks.agent_files.kind_text import EXAMPLE_OK
from memcheck.problem import ERROR, Rule

AGT004 = Rule(
    "AGT004",
    "missing-key",
    ERROR,
    False,
    "Agent file lacks a key its kind requires",
    f"""\
## What it does
Reports a subagent without `name` or `description`, or a Copilot custom agent
without `description`.

## Why is this bad?
The agent identifies a subagent by its `name` and decides when to hand it work by
its `description`: without them the subagent is not loaded, or never chosen.

## Example
```yaml
name: code-reviewer
```

## Use instead
{EXAMPLE_OK}
""",
)


# The issues of ``agentkinds.validate`` this rule reports (the family's pass asks it once
# per file and gives each issue to the rule of its kind).
WHAT = frozenset({"missing"})
