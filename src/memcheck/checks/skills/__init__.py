"""SKL: skills (SPEC §3; the Agent Skills specification and seed 000).

A skill is ``SKILL.md`` in a skill folder below a skills root, or a Markdown file
with skill frontmatter directly inside one: the roots are the folders agents load
skills from (``.claude/skills``, ``.agents/skills``, ``.github/skills`` and
``.gemini/skills`` at any depth, a plugin's ``skills/``, ``skills/`` at the
repository root) and ``skills.roots`` (see ``workspace/skills.py``). Agents list
every skill's ``name`` and
``description`` in the prompt and load the body when the description (or one of
seed 000's ``triggers``) matches the task.
"""
from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Callable, Iterator, Mapping

from memcheck import agentkinds, agents, links
from memcheck.paths import basename, join, parent
from memcheck.problem import ERROR, TREE, WARNING, Problem, Rule, contained
from memcheck.text.document import Document
from memcheck.text.frontmatter import frontmatter_problem, near_key
from memcheck.workspace.agentfiles import find_agent_files
from memcheck.workspace.discover import Workspace
from memcheck.workspace.links_out import leads_to
from memcheck.workspace.skills import SKILL_NAME, agent_root_of, scope_of, seen_together, skills_root

if TYPE_CHECKING:
    from memcheck.workspace.targets import Targets

_EXAMPLE_OK = """```markdown
---
name: run-tests
description: Run the project's test suite and report failures. Use when asked to test a change.
triggers:
  - "run tests"
  - "/test"
---
```"""

SKL001 = Rule("SKL001", "unreadable-skill", ERROR, False, "Skill file cannot be read as UTF-8 text", """\
## What it does
Reports a skill file that cannot be read, is binary, is not UTF-8 or is over 1 MiB,
or that exhausts memcheck's stack or memory while it is checked.

## Why is this bad?
Agents cannot read its name or description, so the skill never appears.

## Example
A `SKILL.md` saved as UTF-16.

## Use instead
Re-save it as UTF-8.
""")

SKL002 = Rule("SKL002", "missing-frontmatter", ERROR, False, "SKILL.md has no frontmatter", f"""\
## What it does
Reports a `SKILL.md` that does not start with YAML frontmatter.

## Why is this bad?
Agents list skills by the `name` and `description` in their frontmatter; without
it the skill is skipped or shown with no hint of when to use it.

## Example
```markdown
# Run tests
Execute the suite.
```

## Use instead
{_EXAMPLE_OK}
""")

SKL003 = Rule("SKL003", "invalid-frontmatter", ERROR, False, "Skill frontmatter cannot be parsed", """\
## What it does
Reports skill frontmatter that is never closed, is not valid YAML, is not a mapping,
or repeats a key; or that is past memcheck's bounds (more than 64 levels of nesting,
more than 20,000 values or 2,097,152 characters with aliases expanded, a recursive
alias).

## Why is this bad?
Agents parse it with a YAML parser: an unquoted `: ` in a description (the usual
cause) leaves the skill without its name and description. Claude Code (2.1.186+)
still loads the body, with no name or description to choose it by, so in a skill it
loads (`.claude/skills`, a plugin's `skills/`) YAML that does not parse is a warning;
elsewhere, and for frontmatter never closed or a key given twice, it is an error.

## Example
```yaml
description: Deploy: push the image and roll out
```

## Use instead
```yaml
description: "Deploy: push the image and roll out"
```
""")

SKL004 = Rule("SKL004", "invalid-name", ERROR, False, "Skill name breaks the Agent Skills name rules", """\
## What it does
Reports a skill `name` that is missing, not a string, longer than 64 characters, or
not lowercase letters, digits and single hyphens (no leading, trailing or doubled
hyphen).

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
""")

SKL005 = Rule("SKL005", "name-folder-mismatch", ERROR, False, "Skill name differs from its folder name", """\
## What it does
Reports a `SKILL.md` whose `name` is not the name of the folder it is in.
A name that also breaks the name rules, in a folder whose name is a valid one, is
reported once, by SKL004, which names the folder's name as the fix.

## Why is this bad?
The Agent Skills specification requires them to match; agents that key skills by
folder and those that key them by name disagree about which skill is which.

## Example
`.claude/skills/x/SKILL.md` with `name: run-tests`.

## Use instead
Rename the folder to `run-tests`, or set `name: x`.
""")

SKL006 = Rule("SKL006", "invalid-description", ERROR, False, "Skill description is missing, empty or over 1024 characters", f"""\
## What it does
Reports a skill without a `description`, or one that is not a string, is empty, or
is longer than 1024 characters.

## Why is this bad?
The description is all an agent sees when choosing a skill: without one the skill is
never picked; past 1024 characters agents reject or truncate it.

## Example
```yaml
name: run-tests
```

## Use instead
{_EXAMPLE_OK}
""")

SKL007 = Rule("SKL007", "invalid-field", ERROR, False, "Optional skill field has the wrong type or length", """\
## What it does
Checks the optional Agent Skills fields: `license` and `compatibility` are strings
(`compatibility` at most 500 characters), `metadata` is a mapping, and
`allowed-tools` is a list of strings or one comma-separated string.

## Why is this bad?
Agents that validate skills reject the whole skill; the others ignore the field,
so a tool restriction you wrote is silently not applied.

## Example
```yaml
allowed-tools: {Bash: true}
```

## Use instead
```yaml
allowed-tools: [Bash, Read]
```
""")

SKL008 = Rule("SKL008", "invalid-triggers", ERROR, False, "Skill triggers is not a list of non-empty strings", """\
## What it does
Reports a skill's `triggers` (phrases that invoke it) when it is not a list, or holds an empty or non-string
item.

## Why is this bad?
Agents match triggers against what the user types; a string is matched letter by
letter and an empty trigger matches everything.

## Example
```yaml
triggers: run tests
```

## Use instead
```yaml
triggers:
  - "run tests"
```
""")

SKL009 = Rule("SKL009", "duplicate-name", ERROR, False, "Two skills an agent sees together share a name", """\
## What it does
Reports a skill whose `name` another skill visible from the same folder already uses
(for example `.agents/skills/deploy` and `.claude/skills/deploy`, or a root skill
and a package's skill of the same name).

## Why is this bad?
Agents keep the first skill found by discovery order and hide the other, so edits
to the hidden one have no effect.

## Example
`.agents/skills/deploy/SKILL.md` and `.claude/skills/deploy/SKILL.md`.

## Use instead
Keep one, or rename one of them.
""", scope=TREE)

SKL010 = Rule("SKL010", "unknown-key", WARNING, False, "Skill frontmatter key looks like a misspelt known key", """\
## What it does
Reports a frontmatter key that no agent reads but that looks like a misspelling of
one they do (the same once case, `-` and `_` are ignored, or nearly the same
letters): the Agent Skills keys (`name`, `description`, `license`, `compatibility`,
`metadata`, `allowed-tools`), Amp's `triggers`, Claude Code's (`when_to_use`,
`argument-hint`, `disable-model-invocation`, `user-invocable`, `disallowed-tools`,
`model`, `effort`, `context`, `agent`, `paths`, `display-name`, ...) and those of
`skills.allowed-keys`. Other keys (`owner`, `status`, another tool's `platforms`)
are not reported: agents ignore them, and teams keep their own metadata there.

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
""")

SKL011 = Rule("SKL011", "duplicate-trigger", WARNING, False, "Two skills an agent sees together share a trigger", """\
## What it does
Reports a trigger (compared without case and surrounding space) that the same skill
or another skill visible from the same folder already uses.

## Why is this bad?
The agent cannot tell which skill the user means and picks one by discovery order.

## Example
Two skills both triggered by `/test`.

## Use instead
Give each skill its own triggers.
""", scope=TREE)

SKL012 = Rule("SKL012", "broken-link", WARNING, False, "Relative link in a skill points at a missing file", """\
## What it does
Reports `[text](path)` links, images and reference definitions in a skill file
whose relative target does not exist, resolved from the skill's folder (outside
code spans, fenced blocks and HTML comments). Definitions are read as CommonMark
reads them: a `[text]: more` line inside a paragraph is text, and so is one with
more than a target and a title.

## Why is this bad?
A skill's body points the agent at its resources (`references/api.md`,
`scripts/run.sh`); a dead link sends it looking for a file that is gone.

## Example
```markdown
See [the API notes](references/api.md).
```
with no `references/api.md` beside the `SKILL.md`.

## Use instead
Point the link at the file's current path, or remove it.
""")

# Security severity 7.0 (high), as for a memory that links out: an agent loads whatever the link names (the index and
# skills at start-up), nobody reviews that file, and the message says when the place is
# one where secrets are kept (~/.ssh, ~/.aws, a .env): a credential put in the agent's
# context. High, as a literal password, rather than critical: the link holds no secret.
SKL013 = Rule("SKL013", "skill-symlink-outside", ERROR, False, "Skill file is a symlink out of the repository", """\
## What it does
Reports a skill's file that is a symlink to a place outside the repository: a
`SKILL.md`, a flat skill directly in a skills root, or any file of a skill folder
(its references and scripts). It says when that place is one where secrets are
kept (a path `memcheck guard` stops a symlink pointing at). memcheck never follows
the link, so nothing in the file is checked.

## Why is this bad?
An agent that loads the skill follows the link and reads whatever the path holds on
the machine it runs on: `references/runtime.md -> /proc/self/environ` puts the
machine's environment, tokens and keys included, into the agent's context, and a
linked script runs whatever is there. Other clones have another file there, or none.

## Example
`.claude/skills/deploy/SKILL.md -> /home/me/dotfiles/skills/deploy.md`

## Use instead
Keep the skill's files in the repository (copy them in), or link to files inside it.
""", security_severity="7.0")

SKL014 = Rule("SKL014", "unknown-tool", WARNING, False, "Skill names a tool the agent does not have", """\
## What it does
Reports a name in a skill's `allowed-tools` or `disallowed-tools` that is none of
Claude Code's tools (`Read`, `Grep`, `Bash`, ...), an MCP tool (`mcp__server__tool`)
or a tool with a rule in brackets (`Bash(git diff:*)`). Names are compared exactly,
case included; both comma- and space-separated lists are read.

## Why is this bad?
A misspelt tool is silently left out: the skill runs without the tool you meant to
allow, or with the one you meant to forbid.

## Example
```yaml
allowed-tools: Read, grep
```

## Use instead
```yaml
allowed-tools: Read, Grep
```
""")

SKL015 = Rule("SKL015", "rejected-on-upload", WARNING, False, "Skill name or description that Claude's skill upload refuses", """\
## What it does
Reports a skill Claude Code loads (in `.claude/skills` or a plugin's `skills/`) whose
`name` contains a reserved word (`claude`, `anthropic`), or whose `description`
holds an XML tag (`<example>`).

## Why is this bad?
Claude's API and claude.ai refuse to upload such a skill, so it cannot be shared
there; agents that read the skill from the repository take it as it is.

## Example
```yaml
name: claude-helper
description: Helps with <b>reviews</b>.
```

## Use instead
```yaml
name: review-helper
description: Helps with reviews.
```
""")

SKL016 = Rule("SKL016", "no-skill-file", WARNING, False, "Skill folder without a SKILL.md agents load", """\
## What it does
Reports a folder directly inside a skills folder agents discover (`.claude/skills`,
`.agents/skills`, `.github/skills`, ...) that holds files but no `SKILL.md`, or whose
skill file is named in another case (`skill.md`).

## Why is this bad?
Agents load a skill from its `SKILL.md`, by that exact name: the folder's files are
never used, and on a case-sensitive file system (Linux, CI) `skill.md` is not found.

## Example
`.claude/skills/deploy/skill.md`

## Use instead
`.claude/skills/deploy/SKILL.md`
""", scope=TREE)

RULES = (SKL001, SKL002, SKL003, SKL004, SKL005, SKL006, SKL007, SKL008, SKL009, SKL010, SKL011, SKL012, SKL013, SKL014, SKL015, SKL016)

SCHEMA_KEYS = frozenset({"name", "description", "license", "compatibility", "metadata", "allowed-tools", "triggers"})
# A `trigger:` longer than this, or over several lines, is prose about when to use the
# skill rather than a phrase that invokes it.
_PHRASE = 80
# Claude Code's own skill keys and the values they take are agent data (the
# claude-skill kind of resources/agents/claude-code.toml): a key near one of them is
# a misspelling.
_CLAUDE_SKILL = "claude-skill"
MAX_NAME, MAX_DESCRIPTION, MAX_COMPATIBILITY = 64, 1024, 500


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    if targets.kind_files:
        given = set(targets.kind_files)
        for path, why in find_agent_files(ws).loose_skill_folders:
            if path in given:
                yield SKL016.at(path, 1, 1, why)
    wanted = sorted(set(targets.skills))
    if not wanted:
        return
    outside = set(ws.skill_links_out)
    for path in wanted:
        if path in outside:
            yield _outside_link(ws, path)
        else:
            yield from contained(SKL001, path, check_file(ws, ws.document(path)))
    yield from _check_duplicates(ws, set(wanted))


def _outside_link(ws: Workspace, path: str) -> Problem:
    target = ws.link_out(path) or "a file"
    return SKL013.at(
        path, 1, 1,
        f"{basename(path)} is a symlink to {leads_to(ws, path, target)}: an agent that loads this skill reads that file; "
        "memcheck does not follow it, so nothing in it is checked; keep the skill's files in the repository",
    )


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


def _check_duplicates(ws: Workspace, wanted: set[str]) -> Iterator[Problem]:
    # Judged per agent: two skills clash only when one agent loads both, so a skill
    # copied into .claude/skills, .agents/skills and .gemini/skills for each agent's
    # sake clashes with nothing (and an identical copy an agent sees twice is one skill).
    names: dict[tuple[str, str], _SkillsSeen] = {}
    triggers: dict[tuple[str, str], _SkillsSeen] = {}
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
                    yield SKL009.at(path, fm.key_lines.get("name", 1), 1, f"skill name {name.strip()!r} is also used by {other}; agents show only one of them, so rename or remove one")
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
                if clash is not None and path in wanted and not reported and (clash == path or not _copies(ws, path, clash)):
                    reported = True
                    where = "earlier in the same list" if clash == path else f"by {clash}"
                    yield SKL011.at(path, fm.key_lines.get("triggers", 1), 1, f"trigger {trigger.strip()!r} is already used {where}; give each skill its own triggers")
                if key not in own:
                    users.add(scope, path)
            own.add(key)


def check_file(ws: Workspace, doc: Document) -> Iterator[Problem]:
    path = doc.path
    if doc.error is not None:
        yield SKL001.at(path, doc.error_line, 1, f"{basename(path)} {doc.error}")
        return
    for line, col, message in links.dead_links(ws, doc):
        yield SKL012.at(path, line, col, message)
    if not doc.has_frontmatter:
        yield SKL002.at(path, 1, 1, "no YAML frontmatter: start the file with '---', name and description, then '---'")
        return
    trouble = frontmatter_problem(doc)
    claude = agentkinds.by_id(_CLAUDE_SKILL)
    if trouble is not None:
        fm = doc.frontmatter
        if claude.unparsable == "warning" and fm is not None and fm.yaml_error is not None and not fm.too_complex and _claude_code_skill(ws, path):
            # Claude Code still loads the body, with empty metadata: the skill is there, unnamed.
            said = f"the skill loads with no name or description in Claude Code 2.1.186+ and not at all in agents that need them: {trouble[1]}"
            yield SKL003.at(path, trouble[0], 1, said)._replace(severity=WARNING)
        elif fm is not None and fm.yaml_error is not None and not fm.too_complex:
            # What an agent outside Claude Code then does is not documented: say only
            # what every YAML reader sees.
            yield SKL003.at(path, trouble[0], 1, f"agents that parse the frontmatter see no name or description: {trouble[1]}")
        else:
            yield SKL003.at(path, trouble[0], 1, trouble[1])
    fm = doc.frontmatter
    if fm is None or fm.yaml_error is not None:
        return  # agents with a YAML parser see no fields at all: SKL003 says why
    data = fm.data

    def line_of(key: str) -> int:
        return fm.key_lines.get(key, 1)

    folder = basename(parent(path)) if basename(path) == SKILL_NAME else ""
    name = data.get("name")
    bad_name = _name_problem(name, folder if _valid_name(folder) else "")
    if bad_name is not None:
        # One cause, one finding: the name SKL004 asks for is the folder's, so the
        # name also differing from the folder (SKL005) is the same fix told twice.
        yield SKL004.at(path, line_of("name"), 1, bad_name)
    if isinstance(name, str) and name.strip() and not _same_name(name, folder) and folder and not (bad_name and _valid_name(folder)):
        yield SKL005.at(path, line_of("name"), 1, f"name {name.strip()!r} differs from the skill's folder {folder!r}; rename the folder or set name: {folder}")
    description = data.get("description")
    if description is None or (isinstance(description, str) and not description.strip()):
        yield SKL006.at(path, line_of("description"), 1, "no description: agents choose skills by it; say what the skill does and when to use it (1-1024 characters)")
    elif not isinstance(description, str):
        yield SKL006.at(path, line_of("description"), 1, f"description is a {type(description).__name__}, not text; write it as a string")
    elif len(description) > MAX_DESCRIPTION:
        yield SKL006.at(path, line_of("description"), 1, f"description is {len(description)} characters, over the {MAX_DESCRIPTION} agents accept; shorten it and move detail into the body")
    yield from _check_optional(path, data, line_of)
    yield from _check_triggers(path, data, line_of)
    if _claude_code_skill(ws, path):
        yield from _check_claude_values(path, claude, data, line_of)
    known = tuple(sorted(SCHEMA_KEYS.union(claude.keys, ws.config.skills.allowed_keys)))
    near = near_key(known)  # one set of matchers per run's keys, not per file
    for key in sorted(str(k) for k in data if k not in known):
        meant = near(key)
        if meant is None:
            continue
        value = data[key]
        if meant == "triggers" and isinstance(value, str) and ("\n" in value.strip() or len(value) > _PHRASE):
            fix = "this text says when to use the skill, which agents read from description: move it there"
        else:
            fix = f"rename it to {meant}" + (", as a list of the phrases that invoke the skill" if meant == "triggers" and not isinstance(value, list) else "")
        yield SKL010.at(path, line_of(key), 1, f"frontmatter key {key!r} looks like a misspelling of {meant!r}: agents match keys exactly, so this setting is ignored; {fix}")


def _claude_code_skill(ws: Workspace, path: str) -> bool:
    """A skill Claude Code loads: in a .claude/skills folder or a Claude Code plugin's
    skills/ (not in .agents/skills, which Claude Code does not read)."""
    root = skills_root(path)
    if agents.CLAUDE_CODE in agents.skill_agents(join(basename(parent(root)), basename(root))):
        return True
    return any(ws.is_file(join(parent(root), manifest)) for manifest in agents.plugin_manifests())


def _check_claude_values(path: str, claude: agentkinds.Kind, data: Mapping[str, object], line_of: Callable[[str], int]) -> Iterator[Problem]:
    """The values of Claude Code's own keys, as its data says they are written; and
    what Claude's skill upload refuses (reserved words, XML tags)."""
    for issue in agentkinds.validate(claude, data):
        if issue.what == "tool":
            yield SKL014.at(path, line_of(issue.key), 1, issue.message)
        elif issue.what == "quoted":
            yield SKL007.at(path, line_of(issue.key), 1, issue.message)._replace(severity=WARNING)
        elif issue.what != "missing":
            yield SKL007.at(path, line_of(issue.key), 1, issue.message)
    name, description = data.get("name"), data.get("description")
    word = agentkinds.reserved_word(claude, name) if isinstance(name, str) else None
    if word is not None:
        yield SKL015.at(path, line_of("name"), 1, f"name {name!r} contains the reserved word {word!r}: Claude's API and claude.ai refuse to upload the skill; rename it")
    tag = agentkinds.xml_tag(description) if isinstance(description, str) else None
    if tag is not None:
        yield SKL015.at(path, line_of("description"), 1, f"description holds the XML tag {tag!r}: Claude's API and claude.ai refuse to upload the skill; write it as plain text")


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
        return f"name is a {type(name).__name__} ({name!r}); write it as lowercase letters, digits and hyphens" + (f" ({use})" if use else "")
    if len(name) > MAX_NAME:
        return f"name is {len(name)} characters, over the {MAX_NAME} allowed; " + (f"set {use}" if use else "shorten it")
    if _valid_name(name):
        return None
    if use:
        return f"name {name!r} must be lowercase letters, digits and single hyphens, not starting or ending with one; set {use}"
    suggestion = re.sub(r"-{2,}", "-", re.sub(r"[^a-z0-9]+", "-", name.lower())).strip("-")
    return f"name {name!r} must be lowercase letters, digits and single hyphens, not starting or ending with one; use {suggestion or 'a-name'!r}"


def _check_optional(path: str, data: Mapping[str, object], line_of: Callable[[str], int]) -> Iterator[Problem]:
    for key in ("license", "compatibility"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            yield SKL007.at(path, line_of(key), 1, f"{key} is a {type(value).__name__}; write it as a string")
    compat = data.get("compatibility")
    if isinstance(compat, str) and len(compat) > MAX_COMPATIBILITY:
        yield SKL007.at(path, line_of("compatibility"), 1, f"compatibility is {len(compat)} characters, over the {MAX_COMPATIBILITY} allowed; shorten it")
    if "metadata" in data and data["metadata"] is not None and not isinstance(data["metadata"], dict):
        yield SKL007.at(path, line_of("metadata"), 1, f"metadata is a {type(data['metadata']).__name__}; write it as a mapping of keys to values")
    tools = data.get("allowed-tools")
    if tools is not None and not isinstance(tools, str):
        if not isinstance(tools, list) or not all(isinstance(t, str) and t.strip() for t in tools):
            yield SKL007.at(path, line_of("allowed-tools"), 1, "allowed-tools must be a list of tool names or one comma-separated string (allowed-tools: [Bash, Read])")


def _check_triggers(path: str, data: Mapping[str, object], line_of: Callable[[str], int]) -> Iterator[Problem]:
    if "triggers" not in data:
        return
    triggers = data["triggers"]
    if not isinstance(triggers, list):
        yield SKL008.at(path, line_of("triggers"), 1, f"triggers is a {type(triggers).__name__}, not a list; write one trigger per '- ' line")
        return
    for item in triggers:
        if not isinstance(item, str):
            yield SKL008.at(path, line_of("triggers"), 1, f"trigger {item!r} is a {type(item).__name__}; quote it as a string")
        elif not item.strip():
            yield SKL008.at(path, line_of("triggers"), 1, "an empty trigger matches everything; remove it")
