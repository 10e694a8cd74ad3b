"""AGT005: an agent file frontmatter value of the wrong type or value; judged from the
agent data (``agentkinds.validate``, which the family's pass asks once per file)."""

from __future__ import annotations

from memcheck.problem import ERROR, Rule

AGT005 = Rule(
    "AGT005",
    "invalid-value",
    ERROR,
    False,
    "Agent file frontmatter value has the wrong type or value",
    """\
## What it does
Checks each frontmatter value against what the agent accepts: a subagent's `name`
(lowercase letters, digits and hyphens), `model` (`sonnet`, `opus`, `haiku`,
`inherit` or a full model ID), `permissionMode`, `memory` (`user`, `project`,
`local`), `effort`, `isolation` (`worktree`), `maxTurns` (a positive whole
number), `background` (a boolean), `hooks` (a mapping); a Copilot custom agent's
`target` (`vscode`, `github-copilot`); and the type of every other known key.

## Why is this bad?
The agent ignores a value it does not know, or refuses the file: the subagent runs
with another model, other permissions or no memory, unnoticed.

## Example
```yaml
model: gpt-4
memory: team
```

## Use instead
```yaml
model: sonnet
memory: project
```
""",
)


# The issues of ``agentkinds.validate`` this rule reports (the family's pass asks it once
# per file and gives each issue to the rule of its kind).
WHAT = frozenset({"type", "value", "quoted"})
