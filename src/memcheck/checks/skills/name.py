"""SKL004 and SKL005: a skill's name, by the Agent Skills rules and against its folder.

One module because the two share one cause: a name that breaks the rules in a folder
whose own name is a valid one is told to take the folder's name (SKL004), so its
differing from the folder (SKL005) would be the same fix told twice. SKL005 is held
back then, and reported only where SKL004 does not already name the fix.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Iterator

from memcheck import lazy_regex
from memcheck.checks.skills.facts import named_after_folder
from memcheck.paths import join, parent
from memcheck.problem import ERROR, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import SkillFile
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

SKL004 = Rule(
    "SKL004",
    "invalid-name",
    ERROR,
    False,
    "Skill name breaks the Agent Skills name rules",
    """\
## What it does
Reports a skill `name` that is missing, not a string, longer than 64 characters, or
not lowercase letters, digits and single hyphens (no leading, trailing or doubled
hyphen). A skill without the `name` key, in a folder whose name is a valid one, is
not reported where every agent that loads it names it after its folder (Claude Code
does, and the agent data memcheck ships has no other agent load `.claude/skills`): it
already has that name. So is
one in the `skills/` of a copy of a person's `~/.claude`, as dotfiles repositories
keep one: a folder holding `CLAUDE.md` and Claude Code's `settings.json` (one that
holds a setting of Claude Code's own, such as `permissions` or `hooks`) beside
`skills/`, each in the repository, which Claude Code loads once it is linked into
place. The same skill in
`.agents/skills` (the agent data does not say that Codex, Gemini CLI or Amp name a
skill after its folder) or outside any agent's skills folder (a collection others
install) is reported.

## Why is this bad?
Agents refuse such skills or turn the name into a command that users cannot type.

## Example
```yaml
name: My_Skill
```

## Use instead
```yaml
name: my-skill
```
""",
)

SKL005 = Rule(
    "SKL005",
    "name-folder-mismatch",
    ERROR,
    False,
    "Skill name differs from its folder name",
    """\
## What it does
Reports a `SKILL.md` whose `name` is not the name of the folder it is in.
A name that also breaks the name rules, in a folder whose name is a valid one, is
reported once, by SKL004, which names the folder's name as the fix. A `SKILL.md`
whose first line after the frontmatter says a tool generates it from a template the
repository holds (`<!-- AUTO-GENERATED from SKILL.md.tmpl — do not edit directly -->`;
the template beside it, or in a folder named as the skill is, and naming the skill as
it does) is not reported: its name and folder are the generator's, and an edit is undone at
its next run.

## Why is this bad?
The Agent Skills specification requires them to match; agents that key skills by
folder and those that key them by name disagree about which skill is which.

## Example
`.claude/skills/x/SKILL.md` with `name: run-tests`.
```markdown
---
name: run-tests
description: Runs the tests. Use when asked to test a change.
---

Run `pytest -q` and report what fails.
```

## Use instead
Rename the folder to `run-tests`, or set `name: x`.
```markdown
---
name: x
description: Runs the tests. Use when asked to test a change.
---

Run `pytest -q` and report what fails.
```
""",
)

MAX_NAME = 64


def check(ws: Workspace, skill: SkillFile) -> Iterator[Problem]:
    """SKL004 for a name that breaks the name rules, then SKL005 for a SKILL.md whose
    name is not its folder's, unless SKL004 already asks for the folder's name."""
    folder = skill.folder
    name = skill.data.get("name")
    bad_name = _name_problem(name, folder if _valid_name(folder) else "")
    if bad_name is not None and "name" not in skill.data and _valid_name(folder) and named_after_folder(ws, skill):
        # No name where every agent loading the skill takes its folder's (Claude Code in
        # .claude/skills): the skill has the name the rule would ask for.
        bad_name = None
    if bad_name is not None:
        # One cause, one finding: the name SKL004 asks for is the folder's, so the
        # name also differing from the folder (SKL005) is the same fix told twice.
        yield SKL004.at(skill.path, skill.line_of("name"), 1, bad_name)
    if (
        isinstance(name, str)
        and name.strip()
        and not _same_name(name, folder)
        and folder
        and not (bad_name and _valid_name(folder))
        and not generated(ws, skill)
    ):
        yield SKL005.at(
            skill.path,
            skill.line_of("name"),
            1,
            f"name {name.strip()!r} differs from the skill's folder {folder!r}; rename the folder or set name: {folder}",
        )


# A skill a tool writes from a template in this repository, as it says on the first
# line after its frontmatter (`<!-- AUTO-GENERATED from SKILL.md.tmpl — do not edit
# directly -->`; see ``generated`` for where the template must be): its name and its folder are the
# generator's to set, and an edit here is undone at the next run (a vendor's 26
# generated skills, each in a prefixed folder, were judged unwanted one by one). A
# comment that only mentions generation ("not auto-generated", "was generated once"),
# one further down, or a marker naming a template the tree does not hold (a copied
# skill, renamed: an outside attack) is no such skill.
_GENERATED = lazy_regex.compile(
    r"(?i)[ \t]*<!--[ \t]*(?:auto-?generated|generated)[ \t]+from[ \t]+`?([\w.-]+\.[\w.-]+)`?[^\n]*?\bdo not edit\b[^\n]*?-->[ \t]*$"
)


def generated(ws: Workspace, skill: SkillFile) -> bool:
    """Whether the skill says, first thing after its frontmatter, that a tool generates
    it from a template the repository holds: one of the name the marker gives, beside
    the skill or in a folder named as the skill is, whose own frontmatter names the
    skill as it does (a template anywhere else, empty or of another skill made any
    marked skill pass: an outside attack)."""
    name = skill.data.get("name")
    body = skill.doc.body.lstrip("\r\n")
    m = _GENERATED.match(body.split("\n", 1)[0].rstrip("\r"))
    if m is None or not isinstance(name, str) or not name.strip():
        return False
    template = m.group(1)
    places = [*ws.once(_files_by_folder_and_name).get((name.strip(), template), ()), join(parent(skill.path), template)]
    for place in places:
        if place not in ws.file_set:
            continue
        doc = ws.document(place)
        fm = doc.frontmatter if doc.error is None else None
        if fm is not None and fm.data.get("name") == name:
            return True
    return False


def _files_by_folder_and_name(ws: Workspace) -> dict[tuple[str, str], list[str]]:
    """Each file of the tree by its folder's name and its own (`review`, `SKILL.md.tmpl`)."""
    found: dict[tuple[str, str], list[str]] = {}
    for path in ws.files:
        folder, _, file_name = path.rpartition("/")
        found.setdefault((folder.rpartition("/")[2], file_name), []).append(path)
    return found


def _valid_name(name: str) -> bool:
    """The Agent Skills reference validator's name rule (agentskills/agentskills,
    skills-ref/src/skills_ref/validator.py, _validate_name): NFKC-normalised, at most
    64 characters, lowercase, letters (any script), digits and single hyphens, not at
    either end."""
    name = unicodedata.normalize("NFKC", name.strip())
    return (
        0 < len(name) <= MAX_NAME
        and name == name.lower()
        and not name.startswith("-")
        and not name.endswith("-")
        and "--" not in name
        and all(c.isalnum() or c == "-" for c in name)
    )


def _same_name(name: str, folder: str) -> bool:
    """Name and folder compared as the reference validator does: both NFKC-normalised."""
    return unicodedata.normalize("NFKC", name.strip()) == unicodedata.normalize("NFKC", folder)


def _name_problem(name: object, folder: str) -> str | None:
    """What is wrong with a skill's name, and the name to write: its folder's when
    the folder's name is a valid one (``folder``), since the two must match."""
    use = f"name: {folder}, its folder's name" if folder else ""
    if name is None or (isinstance(name, str) and not name.strip()):
        return "no name: give the skill a name of lowercase letters, digits and hyphens (" + (use or "e.g. run-tests") + ")"
    if not isinstance(name, str):
        return f"name is a {type(name).__name__} ({name!r}); write it as lowercase letters, digits and hyphens" + (
            f" ({use})" if use else ""
        )
    if len(name) > MAX_NAME:
        return f"name is {len(name)} characters, over the {MAX_NAME} allowed; " + (f"set {use}" if use else "shorten it")
    if _valid_name(name):
        return None
    if use:
        return f"name {name!r} must be lowercase letters, digits and single hyphens, not starting or ending with one; set {use}"
    suggestion = re.sub(r"-{2,}", "-", re.sub(r"[^a-z0-9]+", "-", name.lower())).strip("-")
    return f"name {name!r} must be lowercase letters, digits and single hyphens, not starting or ending with one; use {suggestion or 'a-name'!r}"
