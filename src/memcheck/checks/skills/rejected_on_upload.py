"""SKL015: a skill name or description that Claude's skill upload refuses.

Only in a skill Claude Code loads; the reserved words come from its claude-skill
kind's data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import SkillFile
    from memcheck.problem import Problem

SKL015 = Rule(
    "SKL015",
    "rejected-on-upload",
    WARNING,
    False,
    "Skill name or description that Claude's skill upload refuses",
    """\
## What it does
Reports a skill Claude Code loads (in `.claude/skills` or a plugin's `skills/`) whose
`name` contains a reserved word (`claude`, `anthropic`), or whose `description`
holds an XML tag (`<example>`).

Off by default: `select: [ALL, SKL015]` turns it on with every other rule. On the
public repositories nobody on the project had read, judged by someone who had not
read the code, 1 of its 17 findings was wanted: skills shipped to Claude Code through
a plugin or kept in a repository, which nobody uploads. Turn it on for skills you
also share through Claude's API or claude.ai.

## Why is this bad?
Claude's API and claude.ai refuse to upload such a skill, so it cannot be shared
there; agents that read the skill from the repository take it as it is.

## Example
```yaml
name: claude-helper
description: Helps with <b>reviews</b>.
```

## Use instead
```yaml
name: review-helper
description: Helps with reviews.
```
""",
    opt_in=True,  # true, but wanted on 1 of the 17 findings judged on unseen repositories
)


def check(skill: SkillFile) -> Iterator[Problem]:
    name, description = skill.data.get("name"), skill.data.get("description")
    word = agentkinds.reserved_word(skill.claude, name) if isinstance(name, str) else None
    if word is not None:
        yield SKL015.at(
            skill.path,
            skill.line_of("name"),
            1,
            f"name {name!r} contains the reserved word {word!r}: Claude's API and claude.ai refuse to upload the skill; rename it",
        )
    tag = agentkinds.xml_tag(description) if isinstance(description, str) else None
    if tag is not None:
        yield SKL015.at(
            skill.path,
            skill.line_of("description"),
            1,
            f"description holds the XML tag {tag!r}: Claude's API and claude.ai refuse to upload the skill; write it as plain text",
        )
