"""SKL026: a Claude Code skill that takes positional arguments and has no ``argument-hint`` (advice, opt-in)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import lazy_regex
from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import SkillFile
    from memcheck.problem import Problem

SKL026 = Rule(
    "SKL026",
    "arguments-without-hint",
    WARNING,
    False,
    "Skill takes positional arguments but has no argument-hint",
    """\
## What it does
Off by default: `select: [ALL, SKL026]` turns it on with every other rule
(docs/guidance-and-skills.md, *Advice for skill authors*). Reports a Claude Code skill
whose body reads positional arguments (`$ARGUMENTS[0]`, or `$0`, `$1` outside code)
and that has no `argument-hint`, the hint Claude Code shows in the `/` menu for what
to pass.

## Why is this bad?
The skill expects its arguments in an order the user cannot see: `/deploy staging
v2` and `/deploy v2 staging` both run, one of them wrong.

## Example
```markdown
---
name: deploy
description: Deploys a version to an environment. Use when asked to ship.
---

Deploy version $ARGUMENTS[1] to $ARGUMENTS[0].
```

## Use instead
```markdown
---
name: deploy
description: Deploys a version to an environment. Use when asked to ship.
argument-hint: "[environment] [version]"
---

Deploy version $ARGUMENTS[1] to $ARGUMENTS[0].
```
""",
    opt_in=True,  # advice from a style guide (issue 41: off by default)
)

_INDEXED = lazy_regex.compile(r"\$ARGUMENTS\[\d+\]")
_SHORT = lazy_regex.compile(r"(?<![\\\w$])\$\d\b")
_INLINE_CODE = lazy_regex.compile(r"`[^`]*`")
_FENCE = lazy_regex.compile(r"\s{0,3}(```|~~~)")


def check(skill: SkillFile) -> Iterator[Problem]:
    if skill.data.get("argument-hint") is not None:
        return
    fenced = False
    for offset, line in enumerate(skill.doc.body.splitlines()):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        found = _INDEXED.search(line) or (None if fenced else _SHORT.search(_INLINE_CODE.sub("", line)))
        if found is not None:
            yield SKL026.at(
                skill.path,
                skill.doc.body_line + offset,
                1,
                f"the body reads the positional argument {found.group(0)} and the skill has no argument-hint: the / menu "
                'shows nothing of what to pass, or in what order; add argument-hint ("[environment] [version]")',
            )
            return
