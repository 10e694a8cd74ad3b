"""SKL016: a folder in a skills folder agents discover that holds no SKILL.md.

A listing rule: the loose folders are found among the tree's files
(``find_agent_files``), and each is reported when the run covers it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.paths import basename, parent
from memcheck.problem import TREE, WARNING, Rule
from memcheck.workspace.agentfiles import find_agent_files
from memcheck.workspace.skills import SKILL_NAME, SKILLS

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

A folder without any skill file that a skill of the repository names a file of by
path, through a skills folder (`bash .agents/skills/shared/sync-check.sh`) or from
beside it (`../shared/pr-body-guide.md`), is not reported: it holds the scripts and
pages the skills share, which agents run and read as those skills tell them to, and
it is no skill.

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
        if path in given and (basename(path).lower() == SKILL_NAME.lower() or not _used_by_skills(ws, path)):
            yield SKL016.at(path, 1, 1, why)


def _used_by_skills(ws: Workspace, path: str) -> bool:
    """Whether a skill of the repository names a file of the skill folder ``path`` is
    in by path: through a skills folder (`.agents/skills/shared/x.sh`, or
    `.claude/skills/shared/x.sh` where that links to it) or from beside it
    (`../shared/x.md`). Asked only of a folder with no SKILL.md, which few trees have."""
    folder = parent(path)
    while folder and not ws.is_skills_root(parent(folder)):
        folder = parent(folder)
    name = basename(folder)
    if not name:
        return False
    named = (f"{SKILLS}/{name}/", f"../{name}/")
    return any(any(n in ws.document(skill).text for n in named) for skill in ws.skills if not skill.startswith(f"{folder}/"))
