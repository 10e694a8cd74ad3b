"""AGT: agents defined in files: Claude Code subagents (``.claude/agents/**/*.md``),
Copilot custom agents (``.github/agents/*.agent.md``) and Copilot prompt files
(``.github/prompts/*.prompt.md``). Each kind's frontmatter schema is agent data
(``resources/agents/*.toml``, read by ``agentkinds``); the checks here are the same
for every kind.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import agentkinds
from memcheck.paths import basename
from memcheck.problem import ERROR, WARNING, Problem, Rule, contained
from memcheck.text.document import Document
from memcheck.text.frontmatter import frontmatter_problem, near_key
from memcheck.workspace.agentfiles import find_agent_files
from memcheck.workspace.discover import Workspace

if TYPE_CHECKING:
    from memcheck.workspace.targets import Targets

_EXAMPLE_OK = """```markdown
---
name: code-reviewer
description: "Reviews a change for bugs: use after editing code."
tools: Read, Grep, Glob
model: sonnet
---
You review code. ...
```"""

AGT001 = Rule("AGT001", "unreadable-agent-file", ERROR, False, "Agent file cannot be read as UTF-8 text", """\
## What it does
Reports a subagent, custom agent or prompt file that cannot be read, is binary, is
not UTF-8 or is over 1 MiB.

## Why is this bad?
The agent cannot read its name, description or instructions, so it never loads.

## Example
`.claude/agents/reviewer.md` saved as UTF-16.

## Use instead
Re-save it as UTF-8.
""")

AGT002 = Rule("AGT002", "missing-frontmatter", ERROR, False, "Agent file has no frontmatter", f"""\
## What it does
Reports a subagent or custom agent that does not start with YAML frontmatter,
where its kind requires keys there (a Claude Code subagent needs `name` and
`description`; a Copilot custom agent needs `description`).

## Why is this bad?
The agent reads a subagent's name and when to use it from the frontmatter: without
it the subagent is not loaded.

## Example
```markdown
# Code reviewer
You review code.
```

## Use instead
{_EXAMPLE_OK}
""")

AGT003 = Rule("AGT003", "invalid-frontmatter", ERROR, False, "Agent file frontmatter cannot be parsed", f"""\
## What it does
Reports the frontmatter of a subagent, custom agent or prompt file that is never
closed, is not valid YAML, or repeats a key, and says which value to quote.

## Why is this bad?
Claude Code parses a subagent's frontmatter with a YAML parser; when that fails the
subagent does not load at all (an error). An unquoted `: ` inside `description` is
the usual cause. For Copilot's custom agents and prompt files, where what happens
is not documented, it is a warning.

## Example
```yaml
description: Reviews code: use after editing
```

## Use instead
{_EXAMPLE_OK}
""")

AGT004 = Rule("AGT004", "missing-key", ERROR, False, "Agent file lacks a key its kind requires", f"""\
## What it does
Reports a subagent without `name` or `description`, or a Copilot custom agent
without `description`.

## Why is this bad?
The agent identifies a subagent by its `name` and decides when to hand it work by
its `description`: without them the subagent is not loaded, or never chosen.

## Example
```yaml
name: code-reviewer
```

## Use instead
{_EXAMPLE_OK}
""")

AGT005 = Rule("AGT005", "invalid-value", ERROR, False, "Agent file frontmatter value has the wrong type or value", """\
## What it does
Checks each frontmatter value against what the agent accepts: a subagent's `name`
(lowercase letters, digits and hyphens), `model` (`sonnet`, `opus`, `haiku`,
`inherit` or a full model ID), `permissionMode`, `memory` (`user`, `project`,
`local`), `effort`, `isolation` (`worktree`), `maxTurns` (a positive whole
number), `background` (a boolean), `hooks` (a mapping); a Copilot custom agent's
`target` (`vscode`, `github-copilot`); and the type of every other known key.

## Why is this bad?
The agent ignores a value it does not know, or refuses the file: the subagent runs
with another model, other permissions or no memory, unnoticed.

## Example
```yaml
model: gpt-4
memory: team
```

## Use instead
```yaml
model: sonnet
memory: project
```
""")

AGT006 = Rule("AGT006", "unknown-tool", WARNING, False, "Agent file names a tool the agent does not have", """\
## What it does
Reports a name in a subagent's `tools` or `disallowedTools` that is none of Claude
Code's tools (`Read`, `Grep`, `Bash`, `Edit`, ...), an MCP tool (`mcp__server__tool`)
or a tool with a rule in brackets (`Bash(git diff:*)`). Names are compared exactly,
case included.

## Why is this bad?
A misspelt tool is silently left out: the subagent runs without the tool you meant
to give it, or with the one you meant to take away.

## Example
```yaml
tools: read, Grepp
```

## Use instead
```yaml
tools: Read, Grep
```
""")

AGT007 = Rule("AGT007", "unknown-key", WARNING, False, "Agent file frontmatter key looks like a misspelt known key", """\
## What it does
Reports a frontmatter key of a subagent, custom agent or prompt file that is not
one the agent reads but looks like a misspelling of one (the same once case, `-` and
`_` are ignored, or nearly the same letters). Other keys are not reported.

## Why is this bad?
Keys are matched exactly: `allowed_tools` or `permission-mode` leaves the real
setting unset.

## Example
```yaml
permission-mode: plan
```

## Use instead
```yaml
permissionMode: plan
```
""")

RULES = (AGT001, AGT002, AGT003, AGT004, AGT005, AGT006, AGT007)

_BY_WHAT = {"missing": AGT004, "type": AGT005, "value": AGT005, "quoted": AGT005, "tool": AGT006}


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    if not targets.kind_files:
        return
    kinds = find_agent_files(ws).kinds
    for path in sorted(targets.kind_files):
        kind_id = kinds.get(path)
        if kind_id is None:
            continue
        kind = agentkinds.by_id(kind_id)
        if kind.role == "agent" and kind.confirmed:
            yield from contained(AGT001, path, check_file(kind, ws.document(path)))


def check_file(kind: agentkinds.Kind, doc: Document) -> Iterator[Problem]:
    path = doc.path
    if doc.error is not None:
        yield AGT001.at(path, doc.error_line, 1, f"{basename(path)} {doc.error}")
        return
    required = [spec.name for spec in kind.keys.values() if spec.required and spec.confirmed]
    if not doc.has_frontmatter:
        if required:
            yield AGT002.at(path, 1, 1, f"no YAML frontmatter, so {kind.agent_title} does not load this {_noun(kind)}; start the file with '---', {' and '.join(required)}, then '---'")
        return
    trouble = frontmatter_problem(doc)
    if trouble is not None:
        if kind.unparsable == "error":
            yield AGT003.at(path, trouble[0], 1, f"{kind.agent_title} does not load this {_noun(kind)}: {trouble[1]}")
        else:
            yield AGT003.at(path, trouble[0], 1, f"{kind.agent_title} may read none of this {_noun(kind)}'s settings: {trouble[1]}")._replace(severity=WARNING)
    fm = doc.frontmatter
    if fm is None or fm.yaml_error is not None:
        return
    for issue in agentkinds.validate(kind, fm.data):
        yield _BY_WHAT[issue.what].at(path, fm.key_lines.get(issue.key, 1), 1, issue.message)
    known = tuple(sorted(kind.keys))
    near = near_key(known)
    for key in sorted(str(k) for k in fm.data if k not in kind.keys):
        meant = near(key)
        if meant is not None:
            yield AGT007.at(path, fm.key_lines.get(key, 1), 1, f"frontmatter key {key!r} looks like a misspelling of {meant!r}: {kind.agent_title} matches keys exactly, so this setting is ignored; rename it to {meant}")


def _noun(kind: agentkinds.Kind) -> str:
    """What the file is, without its agent's name: "subagent" of "Claude Code subagent"."""
    return kind.title.removeprefix(kind.agent_title).strip() or kind.title
