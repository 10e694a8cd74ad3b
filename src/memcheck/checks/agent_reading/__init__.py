"""GDN: what one agent's own reading hides from it.

Each finding here follows from one agent's facts (``memcheck.agents``): a personal
``CLAUDE.local.md`` that makes Claude Code leave the team's ``AGENTS.md`` aside, a
file Codex never reads although the repository seems to count on it, and skills a
guidance file names for an agent that loads skills from elsewhere. Like the other
GDN rules, each names an agent only for a fact its sources confirm.
"""
from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, Iterator

from memcheck import agents, lazy_regex, readers
from memcheck.config import selected
from memcheck.expansion import import_targets
from memcheck.paths import basename, down_from_root, join, parent
from memcheck.problem import TREE, WARNING, Problem, Rule
from memcheck.workspace.discover import SKILLS_ONCE, Workspace
from memcheck.workspace.skills import agent_roots_seeing, name_of_skill

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.workspace.targets import Targets

GDN022 = Rule("GDN022", "local-file-hides-agents-md", WARNING, False, "CLAUDE.local.md makes Claude Code leave AGENTS.md aside", """\
## What it does
Reports a `CLAUDE.local.md` at or above a folder whose instructions are in
`AGENTS.md` alone (no `CLAUDE.md` or `.claude/CLAUDE.md` at or above it), when it
does not import that `AGENTS.md`.

## Why is this bad?
Claude Code 2.1.277 and later reads `AGENTS.md` only where no `CLAUDE.md`,
`.claude/CLAUDE.md` or `CLAUDE.local.md` sits at or above the folder (its default
*Project instructions* setting). A personal, uncommitted `CLAUDE.local.md` therefore
makes that user's Claude Code leave the team's `AGENTS.md` aside, with no sign.

## Example
`AGENTS.md` with the team's rules, and a `CLAUDE.local.md` beside it holding one
personal preference.

## Use instead
Start `CLAUDE.local.md` with `@AGENTS.md`, so Claude Code reads both.
""", scope=TREE)

GDN020 = Rule("GDN020", "codex-never-reads", WARNING, False, "Codex never reads this file where it is", """\
## What it does
Reports two files Codex never reads although they look meant for it: a fallback name
from `.codex/config.toml`'s `project_doc_fallback_filenames` (such as `CODEX.md`) in
a folder that also holds `AGENTS.md` or `AGENTS.override.md` (reported on that
file), and a project's `.codex/AGENTS.md`.

## Why is this bad?
Codex reads one file per folder: `AGENTS.override.md`, else `AGENTS.md`, and only
in a folder with neither, the first fallback name. Its global file is
`$CODEX_HOME/AGENTS.md` (`~/.codex` by default), never a project's `.codex/AGENTS.md`.
What such a file says never reaches Codex.

## Example
`AGENTS.md` and `CODEX.md` side by side, with `project_doc_fallback_filenames =
["CODEX.md"]` in `.codex/config.toml`.

## Use instead
Move what the file says into `AGENTS.md`, and delete it.
""", scope=TREE)

GDN021 = Rule("GDN021", "skill-out-of-sight", WARNING, False, "Guidance names skills its agent cannot see", """\
## What it does
Reports a guidance file that names skills (by their folder, or as `` `name` `` or
`/name` on a line about skills) which live only in skills folders the agent reading
that file does not load: Claude Code loads `.claude/skills`, Codex `.agents/skills`.
Only agents whose skills folders are confirmed are judged.

## Why is this bad?
The agent is told to use a skill it cannot load: it guesses, or does the task
without the skill's instructions.

## Example
A `CLAUDE.md` telling Claude Code to use the `release` skill, which lives only in
`.agents/skills/release/SKILL.md`.

## Use instead
Make the skill visible to that agent too: a symlink `.claude/skills/release ->
../../.agents/skills/release`, or a copy.
""", scope=TREE)

RULES = (GDN020, GDN021, GDN022)


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    wanted = set(targets.guidance)
    if not wanted or ws.user:
        return
    for problem in ws.once(_findings_once):
        if problem.path in wanted:
            yield problem


def _findings_once(ws: Workspace) -> list[Problem]:
    on = selected(tuple(r.code for r in RULES), ws.config)
    model = readers.reading(ws)
    found: list[Problem] = []
    if GDN022.code in on and agents.CLAUDE_CODE in model.configured:
        found += ws.once(_local_hides_once)
    if GDN020.code in on and agents.CODEX in model.configured:
        found += _codex_never_reads(ws, model)
    if GDN021.code in on:
        found += _skills_out_of_sight(ws, model)
    return found


def _local_hides_once(ws: Workspace) -> list[Problem]:
    return list(_local_hides_agents_md(ws, readers.reading(ws)))


readers.MODEL_ONCE.add(_local_hides_once)  # the reading and the local files' @-imports alone


def _local_hides_agents_md(ws: Workspace, model: readers.Reading) -> Iterator[Problem]:
    by_folder: dict[str, dict[str, str]] = {}
    for path, kind in model.kind.items():
        by_folder.setdefault(model.owner[path], {})[kind] = path
    def own(folder: str) -> tuple[bool, tuple[str, ...]]:
        kinds = by_folder.get(folder, {})
        local = kinds.get(agents.K_CLAUDE_LOCAL)
        return agents.K_CLAUDE in kinds or agents.K_CLAUDE_DOT in kinds, (local,) if local is not None else ()

    # Per folder: a team CLAUDE.md at or above it, and the CLAUDE.local.md files there.
    above = down_from_root(model.owner.values(), own, lambda up, here: (up[0] or here[0], up[1] + here[1]))
    hidden: dict[str, list[str]] = {}  # CLAUDE.local.md -> the AGENTS.md it hides
    for path, kind in sorted(model.kind.items()):
        if kind != agents.K_AGENTS:
            continue
        team_claude_md, locals_above = above[model.owner[path]]
        if team_claude_md:
            continue  # the team's CLAUDE.md already decides what Claude Code reads there
        real = model.real.get(path, path)
        for local in locals_above:
            if real not in import_targets(ws, model.real.get(local, local)):
                hidden.setdefault(local, []).append(path)
    for local, agents_files in hidden.items():
        shown = ", ".join(agents_files[:3]) + (f" and {len(agents_files) - 3} more" if len(agents_files) > 3 else "")
        first = agents_files[0]
        yield GDN022.at(
            local, 1, 1,
            f"{basename(local)} hides {shown} from your Claude Code: Claude Code 2.1.277+ reads AGENTS.md only where no CLAUDE.md, .claude/CLAUDE.md "
            f"or CLAUDE.local.md sits at or above the folder; start {basename(local)} with @{_relative(parent(local), first)} to read both",
        )  # fmt: skip


def _relative(folder: str, path: str) -> str:
    if not folder:
        return path
    ups = folder.count("/") + 1
    return "../" * ups + path if not path.startswith(folder + "/") else path[len(folder) + 1 :]


def _fallback_names(ws: Workspace) -> tuple[str, ...]:
    """The project_doc_fallback_filenames of the repository's .codex/config.toml."""
    keys = [s.key for s in agents.agent(agents.CODEX).settings if s.fallbacks]
    for setting in agents.agent(agents.CODEX).settings:
        if not setting.fallbacks or setting.file not in ws.file_set:
            continue
        # Imported only for a repository that has the file: tomllib compiles its
        # regular expressions as it is imported (0.8 MiB of a run's memory).
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover - Python 3.10
            import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

        doc = ws.document(setting.file)
        try:
            data = tomllib.loads(doc.text) if doc.error is None else {}
        # An unreadable config is Codex's own error, not a reading to judge; tomllib
        # recurses once per nesting level, so `x = [[[...` thousands deep is one too.
        except (tomllib.TOMLDecodeError, RecursionError):
            return ()
        value: object = next((data[k] for k in keys if k in data), [])
        return tuple(v for v in value if isinstance(v, str) and v) if isinstance(value, list) else ()
    return ()


def _codex_never_reads(ws: Workspace, model: readers.Reading) -> Iterator[Problem]:
    fallbacks = _fallback_names(ws)
    for path, kind in sorted(model.kind.items()):
        if kind not in (agents.K_AGENTS, agents.K_OVERRIDE):
            continue
        folder = parent(path)
        if basename(folder) == ".codex" and kind == agents.K_AGENTS:
            yield GDN020.at(
                path, 1, 1,
                f"Codex never reads a project's {path}: its own AGENTS.md is $CODEX_HOME/AGENTS.md (~/.codex by default), and in a project it reads "
                "AGENTS.md from each folder of the way down; move what it says into the AGENTS.md of the folder it is about, and delete it",
            )  # fmt: skip
            continue
        for name in fallbacks:
            fallback = join(folder, name)
            if fallback in ws.file_set and fallback != path and name not in ("AGENTS.md", "AGENTS.override.md"):
                yield GDN020.at(
                    path, 1, 1,
                    f"Codex never reads {fallback}: .codex/config.toml names {name} in project_doc_fallback_filenames, but Codex reads a fallback only "
                    f"in a folder without AGENTS.md or AGENTS.override.md, and {basename(path)} is here; move what {name} says into {basename(path)}, and delete {name}",
                )  # fmt: skip


# A skill named on a line: by its folder in an agent skills folder, or (in a clause
# that speaks of skills) as `name` or /name.
_SKILL_PATH = lazy_regex.compile(r"(?<![\w.])(\.[a-z]+/skills)/([A-Za-z0-9_][A-Za-z0-9._-]*)")
_SKILL_TALK = lazy_regex.compile(r"\bskills?\b", re.IGNORECASE)
_CLAUSE_END = lazy_regex.compile(r"(?<=[.;!?])\s+")
_SKILL_WORD = lazy_regex.compile(r"`/?([a-z0-9][a-z0-9_-]*[a-z0-9])`|(?<![\w/.])/([a-z0-9][a-z0-9_-]*[a-z0-9])\b")


def _skills_out_of_sight(ws: Workspace, model: readers.Reading) -> Iterator[Problem]:
    judged = [a for a in model.configured if agents.agent(a).skill_roots_complete and (p := agents.agent(a).skills_provenance) is not None and p.confirmed]
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
            if not unseen:
                continue
            names = list(dict.fromkeys(name for _, name, _ in unseen))
            where = ", ".join(sorted({r for _, _, roots in unseen for r in roots}))
            shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
            title = agents.title(agent_id)
            yield GDN021.at(
                path, unseen[0][0], 1,
                f"{basename(path)} names skills {title} cannot see: {shown} (only in {where}; {title} loads skills from {', '.join(agents.agent(agent_id).skill_roots)}); "
                f"link or copy them into {agents.agent(agent_id).skill_roots[0]}",
            )  # fmt: skip


def _skill_roots(ws: Workspace) -> dict[str, set[str]]:
    """Skill name -> the agent skills folders holding it ("" elsewhere)."""
    roots_of: dict[str, set[str]] = {}
    for path in ws.skills:
        roots_of.setdefault(name_of_skill(ws, path).casefold(), set()).update(agent_roots_seeing(ws, path) or {""})
    return roots_of


SKILLS_ONCE.add(_skill_roots)  # from the skills alone: the language server keeps it while they stay


def _speaks_of_skills(ws: Workspace, doc: Document) -> bool:
    return "skill" in doc.text.casefold()


def _named_skills(body: str, first_line: int, roots_of: dict[str, set[str]]) -> list[tuple[int, str, set[str]]]:
    found = []
    for i, line in enumerate(body.split("\n")):
        for m in _SKILL_PATH.finditer(line):
            name = m.group(2).casefold()
            if name in roots_of:
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
