"""SKL017: a skill key that none of the agents loading the skill reads.

Skill folders are shared (``.agents/skills`` is read by Codex, Gemini CLI and Amp),
and each agent honours its own keys: Claude Code's ``context``, ``agent``, ``hooks``,
``model`` or ``argument-hint`` mean nothing to Codex. What each agent reads is its
``[skills.keys]`` in the agent data; an agent without that fact, or with it
unconfirmed, is "not known to read" the key, and a key no agent's data claims
(a team's own ``owner``) is no finding of this rule.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Iterator

from memcheck import agents
from memcheck.checks.skills.facts import SPEC_KEYS, keys_read, readers
from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import SkillFile
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

SKL017 = Rule(
    "SKL017",
    "key-not-read",
    WARNING,
    False,
    "Skill key that no agent loading the skill reads",
    """\
## What it does
Reports a frontmatter key of one agent's (Claude Code's `context`, `agent`, `hooks`,
`model`, `argument-hint`, `disable-model-invocation`, `user-invocable`, ...) in a
skill that only other agents load: a skill in `.agents/skills`, which Codex, Gemini
CLI and Amp read and Claude Code does not. What each agent reads of a skill is
agent data with its source (Codex's and Gemini CLI's skill loaders read `name`,
`description` and, for Codex, `metadata`); an agent whose keys the data does not
confirm is named as "not known to read" the key. A skill linked or copied into
`.claude/skills` beside it is loaded by Claude Code, and its keys are read there.

## Why is this bad?
The key does nothing where the skill is loaded: `context: fork` does not fork, `hooks`
never run, and `disable-model-invocation: true` does not stop Codex from choosing the
skill by itself.

## Example
`.agents/skills/deploy/SKILL.md`
```yaml
name: deploy
description: Deploys the app to staging. Use when asked to ship a change.
context: fork
```

## Use instead
`.claude/skills/deploy/SKILL.md`
```yaml
name: deploy
description: Deploys the app to staging. Use when asked to ship a change.
context: fork
```
""",
)


def check(ws: Workspace, skill: SkillFile) -> Iterator[Problem]:
    own = _agent_keys()
    keys = sorted(k for k in skill.data if isinstance(k, str) and k in own)
    if not keys:
        return  # most skills: no agent's own key, and no question of the tree asked
    loaders, folders = readers(ws, skill)
    if not loaders:
        return
    known = {a: keys_read(a) for a in loaders}
    for key in keys:
        if any(k is not None and key in k for k in known.values()):
            continue
        ignoring = [a for a in loaders if known[a] is not None]
        if not ignoring:
            continue  # no loader's keys are known: say nothing
        unknown = [a for a in loaders if known[a] is None]
        said = f"{agents.titles(ignoring)} {'ignores' if len(ignoring) == 1 else 'ignore'} it"
        if unknown:
            said += f", and {agents.titles(unknown)} {'is' if len(unknown) == 1 else 'are'} not known to read it"
        owners = agents.titles(own[key])
        homes = [r for a in own[key] for r in agents.agent(a).skill_roots]
        place = f"skills from {', '.join(folders)}" if folders else "this skill"
        yield SKL017.at(
            skill.path,
            skill.line_of(key),
            1,
            f"{key!r} does nothing here: of the agents that load {place}, {said}; it is {owners}'s key, "
            f"and {owners} does not load {place}: "
            + (f"link the skill folder into {' or '.join(homes)}, or remove the key" if homes else "remove the key"),
        )


@cache
def _agent_keys() -> dict[str, list[str]]:
    """Each key some agent reads beyond the Agent Skills specification, with the
    agents that read it (their ids)."""
    found: dict[str, list[str]] = {}
    for a in agents.load():
        for key in sorted((keys_read(a.id) or frozenset()) - SPEC_KEYS):
            found.setdefault(key, []).append(a.id)
    return found
