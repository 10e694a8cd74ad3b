"""SKL014: a skill Claude Code loads names a tool Claude Code does not have.

The tools are the claude-skill kind's data; the family's pass judges the skill's
values against it once (``SkillFile.issues``), and this rule reports the tools.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import SkillFile
    from memcheck.problem import Problem

SKL014 = Rule(
    "SKL014",
    "unknown-tool",
    WARNING,
    False,
    "Skill names a tool the agent does not have",
    """\
## What it does
Reports a name in a skill's `allowed-tools` or `disallowed-tools` that is none of
Claude Code's tools (`Read`, `Grep`, `Bash`, ...), an MCP tool (`mcp__server__tool`)
or a tool with a rule in brackets (`Bash(git diff:*)`). Names are compared exactly,
case included; both comma- and space-separated lists are read.

## Why is this bad?
A misspelt tool is silently left out: the skill runs without the tool you meant to
allow, or with the one you meant to forbid. The list of tools is Claude Code's tools
reference as memcheck holds it; no source says it is complete, and a tool newer than
it (as `Workflow`) is reported as one memcheck does not know, not as one Claude Code
lacks: leave it, or ignore SKL014 on that line.

## Example
```yaml
allowed-tools: Read, grep
```

## Use instead
```yaml
allowed-tools: Read, Grep
```
""",
)


def check(skill: SkillFile) -> Iterator[Problem]:
    for issue in skill.issues:
        if issue.what == "tool":
            yield SKL014.at(skill.path, skill.line_of(issue.key), 1, issue.message)
