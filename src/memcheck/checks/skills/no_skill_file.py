"""SKL016: a folder in a skills folder agents discover that holds no SKILL.md.

A listing rule: the loose folders are found among the tree's files
(``find_agent_files``), and each is reported when the run covers it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.problem import TREE, WARNING, Rule
from memcheck.workspace.agentfiles import find_agent_files

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.targets import Targets

SKL016 = Rule(
    "SKL016",
    "no-skill-file",
    WARNING,
    False,
    "Skill folder without a SKILL.md agents load",
    """\
## What it does
Reports a folder directly inside a skills folder agents discover (`.claude/skills`,
`.agents/skills`, `.github/skills`, ...) that holds files but no `SKILL.md`, or whose
skill file is named in another case (`skill.md`).

## Why is this bad?
Agents load a skill from its `SKILL.md`: the folder's files are never used. Codex and
Gemini CLI take `SKILL.md` by that exact name (their skill loaders, named in the agent
data), so on a case-sensitive file system (Linux, CI) `skill.md` is not found; an
agent whose loader the data does not hold is named as not known to load it. The Agent
Skills reference validator accepts `skill.md`: a skill it passes can still load
nowhere.

## Example
`.claude/skills/deploy/skill.md`
```text
.claude/skills/deploy/skill.md
```

## Use instead
`.claude/skills/deploy/SKILL.md`
```text
.claude/skills/deploy/SKILL.md
```
""",
    scope=TREE,
)


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    if not targets.kind_files:
        return
    given = set(targets.kind_files)
    for path, why in find_agent_files(ws).loose_skill_folders:
        if path in given:
            yield SKL016.at(path, 1, 1, why)
