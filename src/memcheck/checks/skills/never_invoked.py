"""SKL021: a Claude Code skill that neither the user nor Claude can invoke."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import SkillFile
    from memcheck.problem import Problem

SKL021 = Rule(
    "SKL021",
    "never-invoked",
    WARNING,
    False,
    "Skill that neither the user nor Claude can invoke",
    """\
## What it does
Reports a Claude Code skill with both `user-invocable: false` and
`disable-model-invocation: true` (booleans in any of the words Claude Code takes:
`false`, `no`, `off`, `0`; `true`, `yes`, `on`, `1`).

## Why is this bad?
`user-invocable: false` takes the skill off the `/` menu, so only Claude can run it;
`disable-model-invocation: true` stops Claude from running it, so only the user can
(Claude Code's skills reference). Together, nobody can: the skill is dead weight.

## Example
```yaml
user-invocable: false
disable-model-invocation: true
```

## Use instead
```yaml
disable-model-invocation: true
```
""",
)

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def check(skill: SkillFile) -> Iterator[Problem]:
    data = skill.data
    if _is(data.get("user-invocable"), False) and _is(data.get("disable-model-invocation"), True):
        yield SKL021.at(
            skill.path,
            skill.line_of("disable-model-invocation"),
            1,
            "user-invocable: false hides the skill from the / menu and disable-model-invocation: true stops Claude "
            "from running it: nobody can invoke this skill; remove one of the two (or the skill)",
        )


def _is(value: object, wanted: bool) -> bool:
    if isinstance(value, bool):
        return value is wanted
    if isinstance(value, int):
        return value == int(wanted)
    return isinstance(value, str) and value.strip().lower() in (_TRUE if wanted else _FALSE)
