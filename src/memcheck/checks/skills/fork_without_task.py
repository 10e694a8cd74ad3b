"""SKL020: a Claude Code skill with ``context: fork`` whose body gives the subagent nothing to do."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterator

from memcheck import lazy_regex
from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import SkillFile
    from memcheck.problem import Problem

SKL020 = Rule(
    "SKL020",
    "fork-without-task",
    WARNING,
    False,
    "Forked skill with nothing for the subagent to do",
    """\
## What it does
Reports a Claude Code skill with `context: fork` whose body holds no text: nothing but
blank lines, headings, HTML comments and rules.

## Why is this bad?
With `context: fork` the skill's body is the whole prompt of the subagent it starts
(Claude Code's skills reference): an empty body sends a subagent off with no task,
and it returns without doing anything.

## Example
```markdown
---
name: audit-deps
description: Audits the dependencies for known vulnerabilities. Use before a release.
context: fork
---

# Audit dependencies
```

## Use instead
```markdown
---
name: audit-deps
description: Audits the dependencies for known vulnerabilities. Use before a release.
context: fork
---

# Audit dependencies

Run `npm audit --json`, list each high or critical advisory with the package that
pulls it in, and propose the smallest upgrade that fixes it.
```
""",
)

# What gives a reader nothing to do: a heading, a rule, an HTML comment (whole, or
# the lines of one), blank lines.
_NOTHING = lazy_regex.compile(r"\s*(?:#{1,6}(?:\s.*)?|(?:[-*_]\s*){3,})?\s*")
_COMMENT = lazy_regex.compile(r"<!--.*?-->", re.S)


def check(skill: SkillFile) -> Iterator[Problem]:
    if skill.data.get("context") != "fork":
        return
    body = _COMMENT.sub("", skill.doc.body)
    if any(not _NOTHING.fullmatch(line) for line in body.splitlines()):
        return
    yield SKL020.at(
        skill.path,
        skill.line_of("context"),
        1,
        "context: fork runs the skill's body as a subagent's whole prompt, and the body holds no instructions "
        "(only headings or blank lines): the subagent has nothing to do; write the task in the body, or remove context: fork",
    )
