"""SKL018: a hook in a Claude Code skill's frontmatter under an event that does not exist.

The event names are agent data (claude-code.toml's ``[hooks]``, from Claude Code's
hooks reference, with its date): a name outside them is reported, with the event it
looks like a misspelling of where there is one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import agents
from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import SkillFile
    from memcheck.problem import Problem

SKL018 = Rule(
    "SKL018",
    "unknown-hook-event",
    WARNING,
    False,
    "Skill hook under an event Claude Code does not fire",
    """\
## What it does
Reports a key of a Claude Code skill's `hooks` that is not one of Claude Code's hook
events (`PreToolUse`, `PostToolUse`, `Stop`, `SessionStart`, ...: the list of its
hooks reference, kept in the agent data with the date it was read). Names are
compared exactly, case included.

## Why is this bad?
A hook under an event Claude Code never fires never runs: the check or the clean-up
it was written for silently does not happen while the skill is active.

## Example
```yaml
hooks:
  PreToolCall:
    - matcher: Bash
      hooks:
        - type: command
          command: ./scripts/check-command.sh
```

## Use instead
```yaml
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: ./scripts/check-command.sh
```
""",
)


# How like a real event an unknown name must be to be offered as the one meant
# (difflib's ratio: PreToolCall is 0.67 of PreToolUse).
_NEAR = 0.65


def check(skill: SkillFile) -> Iterator[Problem]:
    hooks = skill.data.get("hooks")
    if not isinstance(hooks, dict):
        return  # not a mapping: SKL007 reports the type
    fact = agents.hook_events(agents.CLAUDE_CODE)
    if fact is None:
        return
    events, where = fact
    unknown = sorted(str(e) for e in hooks if str(e) not in events)
    if not unknown:
        return
    # difflib, imported only here: a skill with hooks is rare, and its import is a
    # millisecond of every commit hook's start-up.
    import difflib

    names = sorted(events)
    folded = {e.casefold(): e for e in names}
    for event in unknown:
        meant = folded.get(event.casefold()) or next(iter(difflib.get_close_matches(event, names, 1, _NEAR)), None)
        fix = (
            f"did you mean {meant}?"
            if meant
            else "use one of the events of Claude Code's hooks reference (PreToolUse, PostToolUse, Stop, ...)"
        )
        yield SKL018.at(
            skill.path,
            _line_of(skill, event),
            1,
            f"hooks event {event!r} is not one Claude Code fires (its hooks reference, read {where.checked}), "
            f"so this hook never runs; {fix}",
        )


def _line_of(skill: SkillFile, event: str) -> int:
    """The line of ``event`` below ``hooks:``, or the line of ``hooks``."""
    start = skill.line_of("hooks")
    lines = skill.doc.text.splitlines()
    for number in range(start, min(skill.frontmatter.end_line, len(lines))):
        text = lines[number].strip()
        if text.startswith((f"{event}:", f'"{event}":', f"'{event}':")):
            return number + 1
    return start
