"""SKL025: a skill description in the first or second person, or with no "use when" trigger (advice, opt-in)."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Iterator

from memcheck import lazy_regex
from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import Advice, SkillFile
    from memcheck.problem import Problem

SKL025 = Rule(
    "SKL025",
    "description-voice",
    WARNING,
    False,
    "Skill description not in the third person, or without a when-to-use trigger",
    """\
## What it does
Off by default: `select: [ALL, SKL025]` turns it on with every other rule
(docs/guidance-and-skills.md, *Advice for skill authors*). Reports a skill description
that opens in the first or second person (`I can help...`, `You can use this...`), or
that never says when to use the skill (no `when`, `use for`, `trigger`, ...).
Anthropic's guidance for skill authors: write it in the third person, saying what the
skill does and when to use it.

## Why is this bad?
The description is put into the system prompt beside every other skill's, and it is
all the agent reads to decide whether to load the skill: a voice that clashes with
the prompt, or no trigger, makes it load at the wrong time or never.

## Example
```yaml
description: I can help you fill PDF forms.
```

## Use instead
```yaml
description: Fills PDF forms from a JSON file. Use when asked to fill or complete a form.
```
""",
    opt_in=True,  # advice from a style guide (issue 41: off by default)
)

_WORD = lazy_regex.compile(r"[a-z']+")


def _latin(text: str) -> bool:
    """Written mostly in the Latin alphabet: the trigger words are looked for only
    there (a Korean description says when to use it in Korean)."""
    letters = [c for c in text if c.isalpha()]
    return sum(c.isascii() for c in letters) >= 0.8 * len(letters)


@cache
def _openings(words: tuple[str, ...]) -> re.Pattern[str]:
    """A sentence opening with one of ``words`` ("Use quando ...")."""
    return re.compile(r"(?:^|[.;:!?]\s+)(?:" + "|".join(re.escape(w) for w in words) + r")\s")


@cache
def _triggers(words: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b")


def check(skill: SkillFile, advice: Advice) -> Iterator[Problem]:
    text = skill.data.get("description")
    if not isinstance(text, str) or not text.strip():
        return  # missing or empty: SKL006's
    lowered = " ".join(text.lower().split())
    words = _WORD.findall(lowered)
    opening = " ".join(words[:2])
    person = next(
        (p for p in (*advice.first_person, *advice.second_person) if words and (opening == p or words[0] == p)),
        None,
    )
    if person is not None:
        which = "first" if person in advice.first_person else "second"
        yield SKL025.at(
            skill.path,
            skill.line_of("description"),
            1,
            f"the description opens in the {which} person ({person!r}); write it in the third person, as the system prompt "
            f'reads it ("Fills PDF forms...": Anthropic\'s guidance for skill authors, {advice.source})',
        )
    elif _latin(lowered) and not _triggers(advice.triggers).search(lowered) and not _openings(advice.trigger_openings).search(lowered):
        yield SKL025.at(
            skill.path,
            skill.line_of("description"),
            1,
            'the description says what the skill does but not when to use it; add a trigger ("Use when ..."), which is '
            f"what the agent matches a task against (Anthropic's guidance for skill authors, {advice.source})",
        )
