"""SKL022: a skill body longer than Anthropic's guidance for skill authors advises (advice, opt-in)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import Advice, SkillFile
    from memcheck.problem import Problem

SKL022 = Rule(
    "SKL022",
    "long-skill-body",
    WARNING,
    False,
    "Skill body over the length the skill authoring guidance advises",
    """\
## What it does
Off by default: `select: [ALL, SKL022]` turns it on with every other rule
(docs/guidance-and-skills.md, *Advice for skill authors*). Reports a skill whose body
(the text after its frontmatter) is over 500 lines: the limit of Anthropic's published
guidance for skill authors ("Skill authoring best practices", platform.claude.com),
kept in the agent data with its source.

## Why is this bad?
The whole body enters the context when the skill is used. The guidance is to keep
`SKILL.md` short and move detail into reference files the skill links to, which the
agent reads only when the task needs them. Advice, not a limit any agent enforces.

## Example
```text
.claude/skills/deploy/SKILL.md: 620 lines after its frontmatter
```

## Use instead
```text
.claude/skills/deploy/SKILL.md: 120 lines after its frontmatter, linking references/rollback.md
```
""",
    opt_in=True,  # advice from a style guide (issue 41: off by default)
)


def check(skill: SkillFile, advice: Advice) -> Iterator[Problem]:
    lines = skill.doc.body.count("\n") + (0 if skill.doc.body.endswith("\n") or not skill.doc.body else 1)
    if advice.max_body_lines and lines > advice.max_body_lines:
        yield SKL022.at(
            skill.path,
            skill.doc.body_line + advice.max_body_lines,
            1,
            f"the skill's body is {lines} lines, over the {advice.max_body_lines} that Anthropic's guidance for skill authors "
            f"advises ({advice.source}); move detail into files the skill links to, which are read only when needed",
        )
