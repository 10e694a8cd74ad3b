"""SKL003: skill frontmatter that cannot be parsed.

An error, except in a skill Claude Code loads, where YAML that does not parse is a
warning (Claude Code still loads the body); the claude-skill kind's data says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.checks.skills.facts import claude_code_skill
from memcheck.problem import ERROR, WARNING, Rule
from memcheck.text.frontmatter import frontmatter_problem

if TYPE_CHECKING:
    from memcheck.agents.kinds import Kind
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

SKL003 = Rule(
    "SKL003",
    "invalid-frontmatter",
    ERROR,
    False,
    "Skill frontmatter cannot be parsed",
    """\
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
""",
)


def check(ws: Workspace, doc: Document, claude: Kind) -> Iterator[Problem]:
    """SKL003 for frontmatter never closed, not YAML, not a mapping, with a key given
    twice or past memcheck's bounds; ``claude`` is Claude Code's skill kind."""
    trouble = frontmatter_problem(doc)
    if trouble is None:
        return
    path = doc.path
    fm = doc.frontmatter
    if (
        claude.unparsable == "warning"
        and fm is not None
        and fm.yaml_error is not None
        and not fm.too_complex
        and claude_code_skill(ws, path)
    ):
        # Claude Code still loads the body, with empty metadata: the skill is there, unnamed.
        said = f"the skill loads with no name or description in Claude Code 2.1.186+ and not at all in agents that need them: {trouble[1]}"
        yield SKL003.at(path, trouble[0], 1, said)._replace(severity=WARNING)
    elif fm is not None and fm.yaml_error is not None and not fm.too_complex:
        # What an agent outside Claude Code then does is not documented: say only
        # what every YAML reader sees.
        yield SKL003.at(path, trouble[0], 1, f"agents that parse the frontmatter see no name or description: {trouble[1]}")
    else:
        yield SKL003.at(path, trouble[0], 1, trouble[1])
