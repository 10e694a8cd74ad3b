"""SKL010: a skill frontmatter key that looks like a misspelt known key.

Known are the Agent Skills keys, Amp's ``triggers``, Claude Code's own (its
claude-skill kind's data) and ``skills.allowed-keys``; any other key is a team's own
and passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.problem import WARNING, Rule
from memcheck.text.frontmatter import near_key

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import SkillFile
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

SKL010 = Rule(
    "SKL010",
    "unknown-key",
    WARNING,
    False,
    "Skill frontmatter key looks like a misspelt known key",
    """\
## What it does
Reports a frontmatter key that no agent reads but that looks like a misspelling of
one they do (the same once case, `-` and `_` are ignored, or nearly the same
letters): the Agent Skills keys (`name`, `description`, `license`, `compatibility`,
`metadata`, `allowed-tools`), Amp's `triggers`, Claude Code's (`when_to_use`,
`argument-hint`, `disable-model-invocation`, `user-invocable`, `disallowed-tools`,
`model`, `effort`, `context`, `agent`, `paths`, `display-name`, ...) and those of
`skills.allowed-keys`. Other keys (`owner`, `status`, another tool's `platforms`)
are not reported: agents ignore them, and teams keep their own metadata there. Nor
is a key whose value is a list or a mapping where the key it is near takes one value
(`agents:` listing the subagents a skill routes to, beside Claude Code's `agent:`,
one subagent's name): it holds what that key cannot, so it is a key of its own. Nor
is a misspelt switch set to what the agent does without it (`user_invocable: true`):
ignored, it changes nothing.

## Why is this bad?
Agents match keys exactly: `trigger` or `allowed_tools` leaves the real setting
unset, and the skill runs without it.

## Example
```yaml
allowed_tools: Read, Grep
```

## Use instead
```yaml
allowed-tools: Read, Grep
```
""",
)

SCHEMA_KEYS = frozenset({"name", "description", "license", "compatibility", "metadata", "allowed-tools", "triggers"})
# The types of a key that takes one value: a list or a mapping under a key near one
# of them is not meant as it.
_SCALAR = frozenset({"string", "boolean", "integer", "number"})
# A `trigger:` longer than this, or over several lines, is prose about when to use the
# skill rather than a phrase that invokes it.
_PHRASE = 80


def check(ws: Workspace, skill: SkillFile) -> Iterator[Problem]:
    data = skill.data
    known = tuple(sorted(SCHEMA_KEYS.union(skill.claude.keys, ws.config.skills.allowed_keys)))
    near = near_key(known)  # one set of matchers per run's keys, not per file
    for key in sorted(str(k) for k in data if k not in known):
        meant = near(key)
        if meant is None:
            continue
        value = data[key]
        spec = skill.claude.keys.get(meant)
        if spec is not None and spec.type in _SCALAR and isinstance(value, (list, dict)):
            # A list under `agents` where `agent` takes one name: a key of its own
            # that holds what the near key cannot, not that key misspelt.
            continue
        if spec is not None and spec.type == "boolean" and spec.default and value is (spec.default == "true"):
            # `user_invocable: true`: what Claude Code does without the key, so the
            # misspelling changes nothing (each such key judged on unseen repositories
            # was judged harmless).
            continue
        if meant == "triggers" and isinstance(value, str) and ("\n" in value.strip() or len(value) > _PHRASE):
            fix = "this text says when to use the skill, which agents read from description: move it there"
        else:
            fix = f"rename it to {meant}" + (
                ", as a list of the phrases that invoke the skill" if meant == "triggers" and not isinstance(value, list) else ""
            )
        yield SKL010.at(
            skill.path,
            skill.line_of(key),
            1,
            f"frontmatter key {key!r} looks like a misspelling of {meant!r}: agents match keys exactly, so this setting is ignored; {fix}",
        )
