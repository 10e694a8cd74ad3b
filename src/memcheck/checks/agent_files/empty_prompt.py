"""AGT015: a subagent or custom agent with no prompt below its frontmatter."""

from __future__ import annotations

from typing import Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.checks.agent_files.kind_text import noun
from memcheck.problem import WARNING, Problem, Rule
from memcheck.text.document import Document

AGT015 = Rule(
    "AGT015",
    "empty-prompt",
    WARNING,
    False,
    "Subagent or custom agent has no prompt",
    """\
## What it does
Reports a subagent (Claude Code's `.claude/agents`, Cursor's `.cursor/agents`), a
Copilot custom agent or a prompt file with frontmatter and nothing below it.

## Why is this bad?
The body is the agent's instructions: its system prompt, or the prompt a prompt
file sends. Without one, the agent gets its name and description and nothing
about how to do the work.

## Example
```markdown
---
name: code-reviewer
description: Reviews a change for bugs.
---
```

## Use instead
```markdown
---
name: code-reviewer
description: Reviews a change for bugs.
---
You review the change you are given for bugs, missing tests and unclear names.
```
""",
)


def check(kind: agentkinds.Kind, doc: Document) -> Iterator[Problem]:
    if doc.frontmatter is not None and not doc.unterminated and not doc.body.strip():
        yield AGT015.at(
            doc.path,
            1,
            1,
            f"nothing below the frontmatter: this {kind.agent_title} {noun(kind)} has no prompt, so it gets no instructions beyond its description; write them below the closing '---'",
        )
