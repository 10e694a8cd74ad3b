"""GDN021: a guidance file that names skills its reading agent cannot load."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterator

from memcheck import agents, lazy_regex
from memcheck.paths import basename
from memcheck.problem import TREE, WARNING, Rule
from memcheck.workspace.memo import SKILLS, kept_with
from memcheck.workspace.skills import agent_roots_seeing, name_of_skill, plugins_on

if TYPE_CHECKING:
    from memcheck.agents import readers
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

GDN021 = Rule(
    "GDN021",
    "skill-out-of-sight",
    WARNING,
    False,
    "Guidance names skills its agent cannot see",
    """\
## What it does
Reports a guidance file that names skills (by their folder, or as `` `name` `` or
`/name` on a line about skills, or in a table's column whose header speaks of skills,
`| Task | Skill |`) which live only in skills folders the agent reading that file
does not load: Claude Code loads `.claude/skills`, Codex `.agents/skills`. The path
of a skill's own file (`.claude/skills/release/SKILL.md`) names a file the agent is
told to open, which its file tools read whatever skills it loads: not reported.
Only agents whose skills folders are confirmed are judged, and not an agent whose
plugins the project's settings turn on (Claude Code's `enabledPlugins` in
`.claude/settings.json`): a plugin brings skills the tree does not hold, and may
bring the one named.

## Why is this bad?
The agent is told to use a skill it cannot load: it guesses, or does the task
without the skill's instructions.

## Example
A `CLAUDE.md` telling Claude Code to use the `release` skill, which lives only in
`.agents/skills/release/SKILL.md`. In `CLAUDE.md`:
```markdown
Use the `release` skill to ship.
```
and in `.agents/skills/release/SKILL.md`:
```markdown
---
name: release
description: Ships a release. Use when asked to release.
---

Tag, build, publish.
```

## Use instead
Make the skill visible to that agent too: a symlink `.claude/skills/release ->
../../.agents/skills/release`, or a copy.
```console
$ ln -s ../../.agents/skills/release .claude/skills/release
```
""",
    scope=TREE,
)


# A skill named on a line: by its folder in an agent skills folder, or (in a clause
# that speaks of skills) as `name` or /name.
_SKILL_PATH = lazy_regex.compile(r"(?<![\w.])(\.[a-z]+/skills)/([A-Za-z0-9_][A-Za-z0-9._-]*)")
_SKILL_FILE = "/SKILL.md"
_SKILL_TALK = lazy_regex.compile(r"\bskills?\b", re.IGNORECASE)
_CLAUSE_END = lazy_regex.compile(r"(?<=[.;!?])\s+")
_SKILL_WORD = lazy_regex.compile(r"`/?([a-z0-9][a-z0-9_-]*[a-z0-9])`|(?<![\w/.])/([a-z0-9][a-z0-9_-]*[a-z0-9])\b")


def check(ws: Workspace, model: readers.Reading) -> Iterator[Problem]:
    judged = [
        a
        for a in model.configured
        if agents.agent(a).skill_roots_complete and (p := agents.agent(a).skills_provenance) is not None and p.confirmed
    ]
    if not judged or not ws.skills:
        return
    roots_of = ws.once(_skill_roots)
    for path in sorted(model.kind):
        readers_of = [a for a in judged if model.direct[path][a][0] == agents.READS]
        if not readers_of or path in model.outside:
            continue
        doc = ws.document(model.real.get(path, path))
        if doc.error is not None or not ws.derived(doc, _speaks_of_skills):
            continue
        named = _named_skills(doc.body, doc.body_line, roots_of)
        for agent_id in readers_of:
            sees = set(agents.agent(agent_id).skill_roots)
            unseen = [(line, name, roots) for line, name, roots in named if "" not in roots and not roots & sees]
            if not unseen or agent_id in ws.once(plugins_on):
                # With plugins on in the project's settings, the agent may have the skill
                # from one of them: what a plugin brings is not in the tree.
                continue
            names = list(dict.fromkeys(name for _, name, _ in unseen))
            where = ", ".join(sorted({r for _, _, roots in unseen for r in roots}))
            unseen_names = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
            title = agents.title(agent_id)
            yield GDN021.at(
                path, unseen[0][0], 1,
                f"{basename(path)} names skills {title} cannot see: {unseen_names} (only in {where}; {title} loads skills from {', '.join(agents.agent(agent_id).skill_roots)}); "
                f"link or copy them into {agents.agent(agent_id).skill_roots[0]}",
            )  # fmt: skip


@kept_with(SKILLS)  # from the skills alone: the language server keeps it while they stay
def _skill_roots(ws: Workspace) -> dict[str, set[str]]:
    """Skill name -> the agent skills folders holding it ("" elsewhere)."""
    roots_of: dict[str, set[str]] = {}
    for path in ws.skills:
        roots_of.setdefault(name_of_skill(ws, path).casefold(), set()).update(agent_roots_seeing(ws, path) or {""})
    return roots_of


def _speaks_of_skills(ws: Workspace, doc: Document) -> bool:
    return "skill" in doc.text.casefold()


_TABLE_RULE = lazy_regex.compile(r"\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*")


def _cells(line: str) -> list[str]:
    """A table row's cells (a pipe escaped with a backslash is text)."""
    row = line.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    return [c.strip() for c in re.split(r"(?<!\\)\|", row)]


def _skill_columns(lines: list[str]) -> dict[int, list[int]]:
    """Line index -> the columns of a table row whose header speaks of skills (a
    table mapping tasks to skills: `| Task | Skill |`). The rows only: the header and
    its rule line are not."""
    columns: dict[int, list[int]] = {}
    i = 0
    while i + 1 < len(lines):
        if "|" in lines[i] and _TABLE_RULE.fullmatch(lines[i + 1]) and _SKILL_TALK.search(lines[i]):
            wanted = [c for c, cell in enumerate(_cells(lines[i])) if _SKILL_TALK.search(cell)]
            i += 2
            while i < len(lines) and "|" in lines[i] and lines[i].strip():
                columns[i] = wanted
                i += 1
        else:
            i += 1
    return columns


def _named_skills(body: str, first_line: int, roots_of: dict[str, set[str]]) -> list[tuple[int, str, set[str]]]:
    found = []
    lines = body.split("\n")
    # A table's rows name skills in a column its header says holds them, though the
    # rows themselves never say "skill".
    in_table = _skill_columns(lines) if "|" in body else {}
    for i, line in enumerate(lines):
        if i in in_table:
            cells = _cells(line)
            for c in in_table[i]:
                cell = cells[c] if c < len(cells) else ""
                words = [(m.group(1) or m.group(2)).casefold() for m in _SKILL_WORD.finditer(cell)]
                plain = cell.strip("*_ ").casefold()
                for word in words or ([plain] if plain else []):
                    if word in roots_of:
                        found.append((first_line + i, word, roots_of[word]))
        for m in _SKILL_PATH.finditer(line):
            name = m.group(2).casefold()
            # The path of its SKILL.md is a file the agent is told to open with its file
            # tools, which read it whatever skills the agent loads (a routing table of
            # `.claude/skills/<name>/SKILL.md`, judged on an unseen repository).
            if name in roots_of and not line.startswith(_SKILL_FILE, m.end()):
                found.append((first_line + i, m.group(2), roots_of[name]))
        # A name counts only in a clause that speaks of skills: "run `test` first;
        # skills live in .agents" names a command, and "a skilled reviewer" no skill.
        for clause in _CLAUSE_END.split(line):
            if not _SKILL_TALK.search(clause):
                continue
            for m in _SKILL_WORD.finditer(clause):
                word = (m.group(1) or m.group(2)).casefold()
                if word in roots_of:
                    found.append((first_line + i, word, roots_of[word]))
    return found
