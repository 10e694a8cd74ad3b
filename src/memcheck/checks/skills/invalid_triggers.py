"""SKL008: a skill's ``triggers`` is not a list of non-empty strings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.problem import ERROR, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import SkillFile
    from memcheck.problem import Problem

SKL008 = Rule(
    "SKL008",
    "invalid-triggers",
    ERROR,
    False,
    "Skill triggers is not a list of non-empty strings",
    """\
## What it does
Reports a skill's `triggers` (phrases that invoke it) when it is not a list, or holds an empty or non-string
item.

Off by default: `select: [ALL, SKL008]` turns it on with every other rule. None of
the agents memcheck knows reads `triggers` (their models see the key as text), and
on the public repositories nobody on the project had read, judged by someone who
had not read the code, none of its 7 findings was wanted. Turn it on where a tool of
your own reads the key as a list.

## Why is this bad?
A tool that matches triggers against what the user types reads a string letter by
letter, and an empty trigger matches everything.

## Example
```yaml
triggers: run tests
```

## Use instead
```yaml
triggers:
  - "run tests"
```
""",
    opt_in=True,  # no agent reads the key; wanted on none of the 7 findings judged on unseen repositories
)


def check(skill: SkillFile) -> Iterator[Problem]:
    if "triggers" not in skill.data:
        return
    triggers = skill.data["triggers"]
    at = skill.line_of("triggers")
    if not isinstance(triggers, list):
        yield SKL008.at(skill.path, at, 1, f"triggers is a {type(triggers).__name__}, not a list; write one trigger per '- ' line")
        return
    for item in triggers:
        if not isinstance(item, str):
            yield SKL008.at(skill.path, at, 1, f"trigger {item!r} is a {type(item).__name__}; quote it as a string")
        elif not item.strip():
            yield SKL008.at(skill.path, at, 1, "an empty trigger matches everything; remove it")
