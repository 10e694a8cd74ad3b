"""SKL023: a file path with Windows separators in a skill (advice, opt-in)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import lazy_regex
from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import Advice, SkillFile
    from memcheck.problem import Problem

SKL023 = Rule(
    "SKL023",
    "backslash-path",
    WARNING,
    False,
    "Skill names a file with backslashes",
    """\
## What it does
Off by default: `select: [ALL, SKL023]` turns it on with every other rule
(docs/guidance-and-skills.md, *Advice for skill authors*). Reports a relative file
path written with backslashes in a skill's body: a Markdown link's target
(`[guide](references\\guide.md)`) or a path in inline code (`` `scripts\\check.py`
``), outside fenced code blocks. Anthropic's guidance for skill authors: always
forward slashes, even on Windows.

## Why is this bad?
On Linux and macOS a backslash is part of the file name, not a separator: the agent
following the skill looks for a file that does not exist.

## Example
```markdown
Run `scripts\\check_form.py` before filling the form.
```

## Use instead
```markdown
Run `scripts/check_form.py` before filling the form.
```
""",
    opt_in=True,  # advice from a style guide (issue 41: off by default)
)

# A relative path of two or more parts joined by backslashes, the last with an extension.
_PATH = r"(?:[\w.-]+\\)+[\w-]+\.\w+"
_LINK = lazy_regex.compile(r"\]\((" + _PATH + r")\)")
_CODE = lazy_regex.compile(r"`(" + _PATH + r")`")
_FENCE = lazy_regex.compile(r"\s{0,3}(```|~~~)")


def check(skill: SkillFile, advice: Advice) -> Iterator[Problem]:
    fenced = False
    for offset, line in enumerate(skill.doc.body.splitlines()):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced or "\\" not in line:
            continue
        for found in (*_LINK.finditer(line), *_CODE.finditer(line)):
            path = found.group(1)
            yield SKL023.at(
                skill.path,
                skill.doc.body_line + offset,
                found.start(1) + 1,
                f"{path!r} is written with backslashes, which are no separator on Linux or macOS; write "
                f"{path.replace(chr(92), '/')!r} (Anthropic's guidance for skill authors, {advice.source})",
            )
