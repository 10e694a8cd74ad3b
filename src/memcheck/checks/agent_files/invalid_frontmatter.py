"""AGT003: agent file frontmatter that cannot be parsed (an error where the agent then
does not load the file, a warning where what it does is not documented)."""

from __future__ import annotations

from typing import Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.checks.agent_files.kind_text import EXAMPLE_OK, noun
from memcheck.problem import ERROR, WARNING, Problem, Rule
from memcheck.text.document import Document
from memcheck.text.frontmatter import frontmatter_problem

AGT003 = Rule(
    "AGT003",
    "invalid-frontmatter",
    ERROR,
    False,
    "Agent file frontmatter cannot be parsed",
    f"""\
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
{EXAMPLE_OK}
""",
)


def check(kind: agentkinds.Kind, doc: Document) -> Iterator[Problem]:
    path = doc.path
    trouble = frontmatter_problem(doc)
    if trouble is not None:
        if kind.unparsable == "error":
            yield AGT003.at(path, trouble[0], 1, f"{kind.agent_title} does not load this {noun(kind)}: {trouble[1]}")
        else:
            yield AGT003.at(
                path, trouble[0], 1, f"{kind.agent_title} may read none of this {noun(kind)}'s settings: {trouble[1]}"
            )._replace(severity=WARNING)
