"""AGT016: a subagent's ``skills`` naming a skill the repository does not have."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import lazy_regex
from memcheck.agents import kinds as agentkinds
from memcheck.problem import WARNING, Problem, Rule
from memcheck.text.frontmatter_reading import Frontmatter

if TYPE_CHECKING:
    from memcheck.workspace.discover import Workspace

AGT016 = Rule(
    "AGT016",
    "missing-skill",
    WARNING,
    False,
    "Subagent preloads a skill that is not in the repository",
    """\
## What it does
Reports an item of a Claude Code subagent's `skills` list that is not a skill's
name (lowercase letters, digits and hyphens), or that names no
`.claude/skills/<name>/SKILL.md` beside the subagent's `.claude/agents` folder.
A plugin's skill (`plugin:skill`) is not judged.

## Why is this bad?
Claude Code preloads each named skill into the subagent's context when it starts.
A name that matches no skill loads nothing: the subagent starts without the
knowledge it was meant to have, unless every user happens to have that skill in
their own `~/.claude/skills`.

## Example
In `.claude/agents/reviewer.md`, with no `.claude/skills/review-checklist/`:
```yaml
skills:
  - review-checklist
```

## Use instead
Name a skill the repository holds (`.claude/skills/code-review/SKILL.md`):
```yaml
skills:
  - code-review
```
""",
)

_SKILL_NAME = lazy_regex.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def check(ws: Workspace, kind: agentkinds.Kind, path: str, fm: Frontmatter) -> Iterator[Problem]:
    folder = _claude_folder(path)
    if folder is None:
        return
    for spec in kind.keys.values():
        value = fm.data.get(spec.name)
        if spec.items != "skills" or not isinstance(value, list):
            continue
        for item in value:
            if not isinstance(item, str) or not item.strip() or ":" in item:
                continue
            name = item.strip()
            line = fm.key_lines.get(spec.name, 1)
            if not _SKILL_NAME.fullmatch(name):
                yield AGT016.at(
                    path,
                    line,
                    1,
                    f"{spec.name} names {name!r}, which is not a skill's name (lowercase letters, digits and hyphens), so {kind.agent_title} preloads nothing for it; write the skill's name, its folder's name",
                )
            elif not ws.is_file(f"{folder}/skills/{name}/SKILL.md"):
                yield AGT016.at(
                    path,
                    line,
                    1,
                    f"{spec.name} names {name!r}, and there is no {folder}/skills/{name}/SKILL.md: unless every user has that skill in ~/.claude/skills, the subagent starts without it; add the skill or fix the name",
                )


def _claude_folder(path: str) -> str | None:
    """``a/.claude`` of ``a/.claude/agents/x/r.md``: where the subagent's skills are."""
    parts = path.split("/")
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] == ".claude" and parts[i + 1] == "agents":
            return "/".join(parts[: i + 1])
    return None
