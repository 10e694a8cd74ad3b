"""AGT008: a subagent's ``hooks`` naming an event its agent has no hook for."""

from __future__ import annotations

from typing import Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.problem import WARNING, Problem, Rule
from memcheck.text.frontmatter import near_key
from memcheck.text.frontmatter_reading import Frontmatter

AGT008 = Rule(
    "AGT008",
    "unknown-hook-event",
    WARNING,
    False,
    "Subagent hook names an event that does not exist",
    """\
## What it does
Reports a key of a Claude Code subagent's `hooks` mapping that is not one of the
events of Claude Code's hooks reference (`PreToolUse`, `PostToolUse`, `Stop`,
`SubagentStart`, ... 33 in all, as the `claude-code-settings` crate lists them).
Event names are matched exactly, case included.

## Why is this bad?
A hook under an event that never fires never runs: the check or the formatting it
was written for silently does not happen.

## Example
```yaml
hooks:
  BeforeToolUse:
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


def check(kind: agentkinds.Kind, path: str, fm: Frontmatter) -> Iterator[Problem]:
    hooks = fm.data.get("hooks")
    if not kind.hook_events or not isinstance(hooks, dict):
        return
    near = near_key(kind.hook_events)
    line = fm.key_lines.get("hooks", 1)
    for event in sorted(str(k) for k in hooks if str(k) not in kind.hook_events):
        meant = near(event)
        usual: list[str] = [e for e in ("PreToolUse", "PostToolUse", "Stop") if e in kind.hook_events] or list(kind.hook_events[:3])
        advice = f"did you mean {meant}?" if meant is not None else f"use one of its events ({', '.join(usual)}, ...)"
        yield AGT008.at(
            path,
            line,
            1,
            f"hooks names the event {event!r}, which is not one of {kind.agent_title}'s hook events, so its hooks never run; {advice}",
        )
