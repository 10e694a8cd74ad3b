"""GDN026: a rule's frontmatter key its agent does not read, where the agent lists its keys whole."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Iterator

from memcheck.problem import WARNING, Rule
from memcheck.text.frontmatter import near_key

if TYPE_CHECKING:
    from memcheck import agents
    from memcheck.agents import kinds as agentkinds
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.text.frontmatter_reading import Frontmatter
    from memcheck.workspace.discover import Workspace

GDN026 = Rule(
    "GDN026",
    "ignored-frontmatter-key",
    WARNING,
    False,
    "Rule frontmatter key its agent does not read",
    """\
## What it does
Reports a frontmatter key of a rule file whose agent documents its keys as a closed
set, when the key is none of them: Cursor rules (`.cursor/rules/*.mdc`:
`description`, `globs`, `alwaysApply`), Claude Code rules (`.claude/rules/*.md`:
`paths`) and Copilot instructions (`.github/instructions/*.instructions.md`:
`applyTo`, `excludeAgent`, and VS Code's `name` and `description`) and Cline rules
(`.clinerules`: `paths`). A key that looks
like a misspelling of one of them is GDN006's; keys in `guidance.allowed-keys` are
the team's own and are not reported.

A file written for several agents (one file linked into `.claude/rules` and
`.github/instructions`, or generated for both) carries each agent's keys. So
another agent's scoping key (`applyTo`, `globs`, `paths`, `fileMatchPattern`) is
reported only where it would scope the file and this agent's own key does not: not
beside this agent's own key, and not when its patterns take in every file (`**`,
`**/*`), which means what no scope means here. The keys that other agent reads
beside its scoping key (Copilot's `description` and `name` beside `applyTo`) are
its own there too.

A `description` beside the key that scopes the file for its agent (`paths` in a
Claude Code rule) is a summary of the file for its readers, as in every other kind
of agent file, and is not reported: the scope is set, so the summary cannot be meant
to choose when the file applies. Without that key, or with one that names no pattern
(`paths: []`, an empty `paths:`), it is reported: in a Cursor rule a
description is what decides whether the rule is applied, and an author may expect
the same of it here.

A key that three or more of the tree's rule files of the same kind carry is the
team's convention, which a tool of theirs reads (an installer's `version:`, a
router's `profile:`), and is not reported; in one or two files it may be a slip,
and is. Another agent's scoping key is judged file by file, however many carry it.

## Why is this bad?
The agent is not known to read it. `globs:` in a Claude Code rule is not what its
documentation scopes a rule by (it reads `paths`; reports disagree on whether
`globs` scopes anything: anthropics/claude-code#17204, #45587); `priority:` in a
Cursor rule orders nothing its documentation describes.

## Example
In `.claude/rules/api.md`:
```yaml
globs: ["src/api/**"]
```

## Use instead
```yaml
paths: ["src/api/**"]
```
""",
)


def check(ws: Workspace, doc: Document, fm: Frontmatter, schema: agents.Frontmatter, kind: str) -> Iterator[Problem]:
    if schema.closed:
        conventions = ws.once(_conventions).get(kind, frozenset())
        yield from _check(ws, doc, fm, schema.keys, schema.globs_key, kind, conventions)


def check_kind_file(ws: Workspace, doc: Document, kind: agentkinds.Kind) -> Iterator[Problem]:
    """The same for an instructions file only the agent data knows (a Cline rule)."""
    fm = doc.frontmatter
    if kind.closed and fm is not None and fm.yaml_error is None:
        globs_key = next((spec.name for spec in kind.keys.values() if spec.globs), None)
        yield from _check(ws, doc, fm, tuple(kind.keys), globs_key, kind.title, frozenset())


def _check(
    ws: Workspace, doc: Document, fm: Frontmatter, keys: tuple[str, ...], globs_key: str | None, kind: str, conventions: frozenset[str]
) -> Iterator[Problem]:
    allowed = set(keys) | set(ws.config.guidance.allowed_keys) | conventions
    # A file that carries another agent's scoping key is written for that agent too
    # (one file linked into both agents' folders, or generated for both): the other
    # keys that agent reads are its own there, and this agent passes them over.
    theirs: set[str] = set()
    for other in sorted(_GLOBS_KEYS.intersection(map(str, fm.data)).difference(keys)):
        theirs.update(_keys_by_globs_key().get(other, ()))
    near = near_key(keys)
    for key in sorted(str(k) for k in fm.data if k not in allowed):
        if near(key) is not None:
            continue  # GDN006: a misspelling of a key the agent reads
        if globs_key is not None and key in _GLOBS_KEYS:
            if globs_key in fm.data or _everywhere(fm.data[key]):
                # This agent's own key scopes the file, or the other key's patterns take
                # in every file, as no key at all does here: it means nothing other to
                # this agent than what the file's author wrote it for.
                continue
            advice = f"write the patterns under {globs_key}, the key that scopes this file"
        elif key in theirs:
            continue
        elif key == SUMMARY_KEY and globs_key is not None and _sets_a_scope(fm.data.get(globs_key)):
            continue  # a summary for the file's readers: its own key already scopes it
        else:
            advice = f"remove it (or add {key} to guidance.allowed-keys if a tool of yours reads it)"
        said = f"frontmatter key {key!r} is not among the keys documented for a {kind} file ({', '.join(keys)}), so its agent is not known to read it"
        yield GDN026.at(doc.path, fm.key_lines.get(key, 1), 1, f"{said}; {advice}")


# The key every kind of agent file uses to summarise itself (a skill, a subagent, a
# Cursor rule, a Copilot instructions file); beside the key that scopes a rule it can
# be nothing else.
SUMMARY_KEY = "description"


def _sets_a_scope(patterns: object) -> bool:
    """Whether the scoping key's value names a pattern (a non-empty string, or a list
    holding one): `paths: []`, `paths:` and `paths: ""` scope nothing, and beside them
    a description is what the author may expect to choose when the file applies."""
    if isinstance(patterns, str):
        return bool(patterns.strip())
    return isinstance(patterns, list) and any(isinstance(p, str) and p.strip() for p in patterns)


# How many of a tree's rule files of one kind carry the same key the agent does not
# read before it is the team's convention (their installer's `version:`, their
# router's `profile:`), which a tool of theirs reads, rather than a slip.
CONVENTION = 3


def _conventions(ws: Workspace) -> dict[str, frozenset[str]]:
    """Per kind of rule file whose agent documents its keys whole, the keys outside
    them that at least ``CONVENTION`` of the tree's files of that kind carry (a
    scoping key aside: another agent's scope is judged file by file)."""
    from collections import Counter

    from memcheck import agents as agent_facts
    from memcheck.agents import guidance_model

    counts: dict[str, Counter[str]] = {}
    for path in ws.guidance:
        kind = guidance_model.file_kind(ws, path)
        schema = agent_facts.schema_of(kind) if kind is not None else None
        if kind is None or schema is None or not schema.closed:
            continue
        fm = ws.document(path).frontmatter
        if fm is not None and fm.yaml_error is None:
            counts.setdefault(kind, Counter()).update(str(k) for k in fm.data if k not in schema.keys and k not in _GLOBS_KEYS)
    return {kind: frozenset(k for k, n in counted.items() if n >= CONVENTION) for kind, counted in counts.items()}


# Patterns that take in every file of the repository: a rule scoped by them applies
# everywhere, as a rule with no scope does.
_EVERYWHERE = frozenset({"**", "**/*"})


def _everywhere(value: object) -> bool:
    patterns = value.split(",") if isinstance(value, str) else value if isinstance(value, list) else ()
    return any(isinstance(p, str) and p.strip() in _EVERYWHERE for p in patterns)


@cache
def _keys_by_globs_key() -> dict[str, frozenset[str]]:
    """Each agent's rule keys, by the key that scopes its rules (applyTo: Copilot's
    name, description, excludeAgent), from the agent data."""
    from memcheck.agents import kinds as agentkinds
    from memcheck.agents.facts import file_kinds

    found: dict[str, set[str]] = {}
    for file_kind in file_kinds():
        fm = file_kind.frontmatter
        if fm is not None and fm.closed and fm.globs_key is not None:
            found.setdefault(fm.globs_key, set()).update(fm.keys)
    for kind in agentkinds.kinds():
        for spec in kind.keys.values():
            if spec.globs:
                found.setdefault(spec.name, set()).update(kind.keys)
    return {key: frozenset(keys) for key, keys in found.items()}


# The keys that scope a rule to files, each agent's own: one of them in another
# agent's rule was meant as that rule's.
_GLOBS_KEYS = frozenset({"globs", "paths", "applyTo", "fileMatchPattern"})
