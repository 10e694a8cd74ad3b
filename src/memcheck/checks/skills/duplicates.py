"""SKL009 and SKL011: two skills an agent sees together share a name, or a trigger.

One module because they are one pass over every skill of the tree, in discovery
order, and one question asked of it: which earlier skill does an agent see together
with this one (``_SkillsSeen``)? The first skill to take a name or a trigger keeps
it; a later one is reported, once, however many agents see the clash.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import agents
from memcheck.problem import ERROR, TREE, WARNING, Rule
from memcheck.workspace.skills import agent_root_of, scope_of, seen_together, skills_root

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

SKL009 = Rule(
    "SKL009",
    "duplicate-name",
    ERROR,
    False,
    "Two skills an agent sees together share a name",
    """\
## What it does
Reports a skill whose `name` another skill visible from the same folder already uses
(for example `.agents/skills/deploy` and `.gemini/skills/deploy`, or a root skill
and a package's skill of the same name).

## Why is this bad?
Agents keep the first skill found by discovery order and hide the other, so edits
to the hidden one have no effect.

## Example
`.agents/skills/deploy/SKILL.md` and `.gemini/skills/deploy/SKILL.md`, which Gemini
CLI loads together. In `.agents/skills/deploy/SKILL.md`:
```markdown
---
name: deploy
description: Deploys the app. Use when shipping.
---

Build the image, push it, then roll out.
```
and in `.gemini/skills/deploy/SKILL.md`:
```markdown
---
name: deploy
description: Ships it. Use when shipping.
---

Tag the release and push the tag.
```

## Use instead
Keep one, or rename one of them. The second, renamed, at `.gemini/skills/ship/SKILL.md`:
```markdown
---
name: ship
description: Ships it. Use when shipping.
---

Tag the release and push the tag.
```
""",
    scope=TREE,
)

SKL011 = Rule(
    "SKL011",
    "duplicate-trigger",
    WARNING,
    False,
    "Two skills an agent sees together share a trigger",
    """\
## What it does
Reports a trigger (compared without case and surrounding space) that the same skill
or another skill visible from the same folder already uses. Not the triggers a skill
shares with the one SKL009 already tells it shares its name with: that is one
duplicate, told once.

## Why is this bad?
Both skills tell the agent's model they answer to the same phrase (no agent memcheck
knows reads `triggers` itself: the model reads them as text), so it cannot tell which
one the user means.

## Example
Two skills both triggered by `/test`. In `.claude/skills/run-tests/SKILL.md`:
```markdown
---
name: run-tests
description: Runs the whole suite. Use when asked to test a change.
triggers: [/test]
---

Run `pytest -q`.
```
and in `.claude/skills/unit/SKILL.md`:
```markdown
---
name: unit
description: Runs the unit tests. Use when asked for a quick check.
triggers: [/test]
---

Run `pytest -q tests/unit`.
```

## Use instead
Give each skill its own triggers. In `.claude/skills/unit/SKILL.md`:
```markdown
---
name: unit
description: Runs the unit tests. Use when asked for a quick check.
triggers: [/unit]
---

Run `pytest -q tests/unit`.
```
""",
    scope=TREE,
)


def check(ws: Workspace, wanted: set[str]) -> Iterator[Problem]:
    """SKL009 and SKL011 on the skills of ``wanted``, each compared with every
    earlier skill of the tree (``ws.skills``, in its order)."""
    # Judged per agent: two skills clash only when one agent loads both, so a skill
    # copied into .claude/skills, .agents/skills and .gemini/skills for each agent's
    # sake clashes with nothing (and an identical copy an agent sees twice is one skill).
    names: dict[tuple[str, str], _SkillsSeen] = {}
    triggers: dict[tuple[str, str], _SkillsSeen] = {}
    # The skill each skill was told its name clashes with (SKL009): the triggers it
    # shares with that one are the same duplicate, told once (a stale copy's three
    # shared triggers were judged noise beside the name's finding).
    named_like: dict[str, str] = {}
    # (Only where SKL009 is on: with it off, the trigger is the duplicate's one finding.
    # An outside attack.)
    told_names = ws.wants(SKL009.code)
    for path in ws.skills:
        fm = ws.document(path).frontmatter
        if fm is None:
            continue
        # Agents discover their roots from the working folder up; a plugin's skills, a
        # collection's and a grouped skill's clash only within their own folder.
        root = skills_root(path)
        together = seen_together(ws, root)
        scope = scope_of(ws, path) if together else "?" + root
        audience = _audience(ws, path, root, together)
        name = fm.data.get("name")
        if isinstance(name, str) and name.strip():
            key = name.strip().casefold()
            reported = False
            for member in audience:
                seen = names.setdefault((key, member), _SkillsSeen())
                other = seen.first_with(scope)
                if other is not None and path in wanted and not reported and not _copies(ws, path, other):
                    reported = True
                    if told_names:
                        named_like[path] = other
                    yield SKL009.at(
                        path,
                        fm.key_lines.get("name", 1),
                        1,
                        f"skill name {name.strip()!r} is also used by {other}; agents show only one of them, so rename or remove one",
                    )
                seen.add(scope, path)
        listed = fm.data.get("triggers")
        if not isinstance(listed, list):
            continue
        own: set[str] = set()
        for trigger in listed:
            if not isinstance(trigger, str) or not trigger.strip():
                continue
            key = trigger.strip().casefold()
            reported = False
            for member in audience:
                users = triggers.setdefault((key, member), _SkillsSeen())
                clash = path if key in own else users.first_with(scope)
                if (
                    clash is not None
                    and path in wanted
                    and not reported
                    and clash != named_like.get(path)
                    and (clash == path or not _copies(ws, path, clash))
                ):
                    reported = True
                    where = "earlier in the same list" if clash == path else f"by {clash}"
                    yield SKL011.at(
                        path,
                        fm.key_lines.get("triggers", 1),
                        1,
                        f"trigger {trigger.strip()!r} is already used {where}; give each skill its own triggers",
                    )
                if key not in own:
                    users.add(scope, path)
            own.add(key)


class _SkillsSeen:
    """Earlier skills by the folder whose agents see them, to answer "which is the
    first one an agent sees together with a skill in ``scope``" in time proportional to
    the folder's depth: agents in a folder see the skills of that folder, of the folders
    above it and of those below it, so the answer is among the first one at each folder
    above (or at) ``scope`` and the first one anywhere below it. A list of every earlier
    skill, tried in turn, was a product: 5,000 skills of one name in unrelated plugin
    folders made 12.5 million comparisons.

    A scope starting with "?" is a folder no agent is configured to discover: its
    skills clash only with skills in the same folder."""

    def __init__(self) -> None:
        self._at: dict[str, tuple[int, str]] = {}  # scope -> the first skill seen there
        self._under: dict[str, tuple[int, str]] = {}  # folder -> the first skill at or below it
        self._count = 0

    def add(self, scope: str, path: str) -> None:
        self._count += 1
        seen = (self._count, path)
        self._at.setdefault(scope, seen)
        if not scope.startswith("?"):
            for folder in _folders_down_to(scope):
                self._under.setdefault(folder, seen)

    def first_with(self, scope: str) -> str | None:
        if scope.startswith("?"):
            found = self._at.get(scope)
            return found[1] if found else None
        candidates = [self._at[f] for f in _folders_down_to(scope) if f in self._at]
        if scope in self._under:
            candidates.append(self._under[scope])
        return min(candidates)[1] if candidates else None


def _folders_down_to(scope: str) -> list[str]:
    """The repository root ("") and every folder down to ``scope``: "", "a", "a/b", ..."""
    parts = scope.split("/") if scope else []
    return [""] + ["/".join(parts[: i + 1]) for i in range(len(parts))]


def _audience(ws: Workspace, path: str, root: str, together: bool) -> tuple[str, ...]:
    """The agents that see this skill with others: those loading its agent skills
    folder (Claude Code sees `.claude/skills` alone), every agent for a configured
    root, and "" for a folder seen on its own (a plugin's, a collection's)."""
    if not together:
        return ("",)
    folder = agent_root_of(path)
    return agents.skill_agents(folder) if folder else agents.ALL


def _copies(ws: Workspace, path: str, other: str) -> bool:
    """One skill copied into two agents' skills folders (`.agents/skills` and
    `.gemini/skills`, both Gemini CLI's) for each agent's sake: the same text. Two
    copies in one kind of folder (at the root and in a subfolder) stay a duplicate."""
    if agent_root_of(path) == agent_root_of(other):
        return False
    a, b = ws.document(path), ws.document(other)
    return a.error is None and b.error is None and a.text == b.text
