"""SKL019: a Claude Code skill names an ``agent`` without ``context: fork``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import SkillFile
    from memcheck.problem import Problem

SKL019 = Rule(
    "SKL019",
    "agent-without-fork",
    WARNING,
    False,
    "Skill names an agent but does not run in a fork",
    """\
## What it does
Reports `agent` in a Claude Code skill that has no `context: fork`. Claude Code's
skills reference: `agent` is the subagent type to use *when `context: fork` is set*.

## Why is this bad?
Without `context: fork` the skill runs inline, in the conversation, and `agent` is
ignored: the `Explore` or custom subagent you chose (its tools, its model, its
separate context) is never used.

## Example
```yaml
name: explore-code
description: Maps the code base's modules. Use when asked how the code is laid out.
agent: Explore
```

## Use instead
```yaml
name: explore-code
description: Maps the code base's modules. Use when asked how the code is laid out.
context: fork
agent: Explore
```
""",
)


def check(skill: SkillFile) -> Iterator[Problem]:
    data = skill.data
    # A context with another value is SKL007's (the only value is fork).
    if data.get("agent") is None or data.get("context") is not None:
        return
    yield SKL019.at(
        skill.path,
        skill.line_of("agent"),
        1,
        f"agent: {data['agent']} is ignored: Claude Code uses it only with context: fork, and this skill runs inline "
        "in the conversation; add context: fork to run it in that subagent, or remove agent",
    )
