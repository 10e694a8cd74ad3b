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
Reports a Claude Code skill with `context: fork` whose body gives the subagent nothing
of its own to do: nothing but blank lines, headings, HTML comments and rules, links
(a list of links to reference files, with no word beside them) and `$ARGUMENTS` (or
`$ARGUMENTS[N]`, `$N`). Any other text, however short, is taken as a task: this rule
does not judge whether prose is an instruction.

## Why is this bad?
With `context: fork` the skill's body is the whole prompt of the subagent it starts
(Claude Code's skills reference, which warns that a forked skill needs explicit
instructions, not only guidelines): an empty body sends a subagent off with no task,
and it returns without doing anything. Links alone name what to read but not what to
do with it. A body of only `$ARGUMENTS` is the same prompt as an empty one, since
Claude Code appends the arguments to a body without `$ARGUMENTS`: whatever the
caller passes, and nothing when the model invokes it without arguments.

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
# A line that only points somewhere: one or more links (inline, reference, autolink,
# a bare URL, a link definition), as a list item or not, with nothing but punctuation
# between them. Narrow on purpose: a word beside a link ("- [api](api.md): the
# endpoints") is text, and text is taken as a task.
_LINKS = lazy_regex.compile(
    r"\s*(?:(?:[-*+]|\d{1,9}[.)])\s+)?"
    r"(?:\[[^\]\n]*\]:\s*\S+"  # a link definition
    r"|(?:(?:!?\[[^\]\n]*\](?:\([^)\n]*\)|\[[^\]\n]*\])|<[a-z][a-z0-9+.-]*:[^>\s]*>|https?://\S+)[\s,;|]*)+)\s*",
    re.I,
)
# A line of only the arguments: what Claude Code puts there is what the caller passes.
_ARGUMENTS = lazy_regex.compile(r"\s*(?:(?:\$ARGUMENTS(?:\[\d+\])?|\$\d+)[\s,;:]*)+")


def check(skill: SkillFile) -> Iterator[Problem]:
    if skill.data.get("context") != "fork":
        return
    body = _COMMENT.sub("", skill.doc.body)
    found = set()
    for line in body.splitlines():
        if _NOTHING.fullmatch(line):
            continue
        if _LINKS.fullmatch(line):
            found.add("links")
        elif _ARGUMENTS.fullmatch(line):
            found.add("$ARGUMENTS")
        else:
            return  # text: taken as the task
    if not found:
        yield SKL020.at(
            skill.path,
            skill.line_of("context"),
            1,
            "context: fork runs the skill's body as a subagent's whole prompt, and the body holds no instructions "
            "(only headings or blank lines): the subagent has nothing to do; write the task in the body, or remove context: fork",
        )
        return
    what = " and ".join(sorted(found, key=("links", "$ARGUMENTS").index))
    arguments = (
        " ($ARGUMENTS is only what the caller passes, nothing when the model invokes the skill without arguments)"
        if "$ARGUMENTS" in found
        else ""
    )
    yield SKL020.at(
        skill.path,
        skill.line_of("context"),
        1,
        f"context: fork runs the skill's body as a subagent's whole prompt, and the body holds no instructions "
        f"(only {what}){arguments}: the subagent has no task of the skill's own; "
        "write what to do in the body, or remove context: fork",
    )
