"""SKL024: a skill name that says nothing of what it does (advice, opt-in)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import Advice, SkillFile
    from memcheck.problem import Problem

SKL024 = Rule(
    "SKL024",
    "vague-skill-name",
    WARNING,
    False,
    "Skill name that says nothing of what it does",
    """\
## What it does
Off by default: `select: [ALL, SKL024]` turns it on with every other rule
(docs/guidance-and-skills.md, *Advice for skill authors*). Reports a skill named with
one of the vague words Anthropic's guidance for skill authors warns against (`helper`,
`utils`, `tools`, `documents`, `data`, `files`: the agent data's list).

## Why is this bad?
The name is what a user types after `/` and what the agent sees beside the
description: `helper` says nothing of when the skill applies, and it collides with
every other team's `helper`.

## Example
```yaml
name: helper
description: Fills PDF forms from a JSON file. Use when asked to fill a form.
```

## Use instead
```yaml
name: filling-pdf-forms
description: Fills PDF forms from a JSON file. Use when asked to fill a form.
```
""",
    opt_in=True,  # advice from a style guide (issue 41: off by default)
)


def check(skill: SkillFile, advice: Advice) -> Iterator[Problem]:
    name = skill.data.get("name")
    if isinstance(name, str) and name.strip().lower() in advice.vague_names:
        yield SKL024.at(
            skill.path,
            skill.line_of("name"),
            1,
            f"the name {name.strip()!r} says nothing of what the skill does; name it for its task "
            f"(filling-pdf-forms, not helper: Anthropic's guidance for skill authors, {advice.source})",
        )
