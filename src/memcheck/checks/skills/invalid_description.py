"""SKL006: a skill's description is missing, not text, empty or over 1024 characters."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.checks.skills.facts import EXAMPLE_OK
from memcheck.problem import ERROR, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import SkillFile
    from memcheck.problem import Problem

SKL006 = Rule(
    "SKL006",
    "invalid-description",
    ERROR,
    False,
    "Skill description is missing, empty or over 1024 characters",
    f"""\
## What it does
Reports a skill without a `description`, or one that is not a string, is empty, or
is longer than 1024 characters.

## Why is this bad?
The description is all an agent sees when choosing a skill: without one the skill is
never picked; past 1024 characters agents reject or truncate it.

## Example
```yaml
name: run-tests
```

## Use instead
{EXAMPLE_OK}
""",
)

MAX_DESCRIPTION = 1024


def check(skill: SkillFile) -> Iterator[Problem]:
    description = skill.data.get("description")
    at = skill.line_of("description")
    if description is None or (isinstance(description, str) and not description.strip()):
        yield SKL006.at(
            skill.path, at, 1, "no description: agents choose skills by it; say what the skill does and when to use it (1-1024 characters)"
        )
    elif not isinstance(description, str):
        yield SKL006.at(skill.path, at, 1, f"description is a {type(description).__name__}, not text; write it as a string")
    elif len(description) > MAX_DESCRIPTION:
        yield SKL006.at(
            skill.path,
            at,
            1,
            f"description is {len(description)} characters, over the {MAX_DESCRIPTION} agents accept; shorten it and move detail into the body",
        )
