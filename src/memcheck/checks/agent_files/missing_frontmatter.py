"""AGT002: an agent file without frontmatter, where its kind requires keys there."""

from __future__ import annotations

from typing import Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.checks.agent_files.kind_text import EXAMPLE_OK, noun
from memcheck.problem import ERROR, Problem, Rule
from memcheck.text.document import Document

AGT002 = Rule(
    "AGT002",
    "missing-frontmatter",
    ERROR,
    False,
    "Agent file has no frontmatter",
    f"""\
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
{EXAMPLE_OK}
""",
)


def check(kind: agentkinds.Kind, doc: Document) -> Iterator[Problem]:
    """The finding on a file with no frontmatter (``doc.has_frontmatter`` is false)."""
    required = [spec.name for spec in kind.keys.values() if spec.required and spec.confirmed]
    if required:
        yield AGT002.at(
            doc.path,
            1,
            1,
            f"no YAML frontmatter, so {kind.agent_title} does not load this {noun(kind)}; start the file with '---', {' and '.join(required)}, then '---'",
        )
