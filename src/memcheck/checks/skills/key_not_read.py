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
from memcheck.workspace.skills import plugins_on

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
A skill's keys are told in one finding, at the first key's line. Nothing is told
of a key whose agent has plugins turned on in the project's settings (Claude Code's
`enabledPlugins` in `.claude/settings.json`): a plugin may bring that agent its own
copy of the skill, which the tree does not hold, and the copy here is then the other
agents' alone.

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
    # One finding per skill for the keys that share a cause (the same loaders ignore
    # them, the same agents own them), at the first key's line: one per key was 41
    # findings for 17 skills on one repository, each telling the same fix.
    told: dict[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]], list[str]] = {}
    for key in keys:
        if any(k is not None and key in k for k in known.values()):
            continue
        ignoring = tuple(a for a in loaders if known[a] is not None)
        if not ignoring:
            continue  # no loader's keys are known: say nothing
        if not ws.once(plugins_on).isdisjoint(own[key]):
            # The key's agent has plugins on here: a copy of the skill may reach it from
            # one, which the tree does not show (the folder here is the other agents').
            continue
        unknown = tuple(a for a in loaders if known[a] is None)
        told.setdefault((ignoring, unknown, tuple(own[key])), []).append(key)
    place = f"skills from {', '.join(folders)}" if folders else "this skill"
    groups = sorted((sorted(named, key=skill.line_of), cause) for cause, named in told.items())
    for named, (ignoring, unknown, owned) in sorted(groups, key=lambda g: skill.line_of(g[0][0])):
        one = len(named) == 1
        it, keys_word = ("it", "key") if one else ("them", "keys")
        said = f"{agents.titles(list(ignoring))} {'ignores' if len(ignoring) == 1 else 'ignore'} {it}"
        if unknown:
            said += f", and {agents.titles(list(unknown))} {'is' if len(unknown) == 1 else 'are'} not known to read {it}"
        owners = agents.titles(list(owned))
        homes = [r for a in owned for r in agents.agent(a).skill_roots]
        which = repr(named[0]) if one else ", ".join(map(repr, named[:-1])) + f" and {named[-1]!r}"
        advice = f"link the skill folder into {' or '.join(homes)}, or remove the {keys_word}" if homes else f"remove the {keys_word}"
        yield SKL017.at(
            skill.path,
            skill.line_of(named[0]),
            1,
            f"{which} {'does' if one else 'do'} nothing here: of the agents that load {place}, {said}; "
            f"{'it is' if one else 'they are'} {owners}'s {keys_word}, and {owners} does not load {place}: {advice}",
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
