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
A subagent whose frontmatter YAML cannot read is reported not to load in Claude Code
(an error) where the value at fault runs over several lines, as a `description`
that ends in `Examples:` and goes on into its examples does. An unquoted `: ` in a
one-line value is reported both ways (one project saw such subagents in Claude
Code's agent list, others saw a parse error): there it is a warning that says it
may not load; every other tool that reads the file as YAML gets none of its keys.
For Copilot's custom agents and prompt files, where what happens is not documented,
it is a warning.

## Example
```yaml
description: Reviews code. Examples:
  user: review my change
```

## Use instead
{EXAMPLE_OK}
""",
)


def check(kind: agentkinds.Kind, doc: Document) -> Iterator[Problem]:
    path = doc.path
    trouble = frontmatter_problem(doc)
    if trouble is not None:
        if kind.unparsable == "error" and _one_line_value(doc, trouble[0]):
            yield AGT003.at(path, trouble[0], 1, f"{kind.agent_title} may not load this {noun(kind)}: {trouble[1]}")._replace(
                severity=WARNING
            )
        elif kind.unparsable == "error":
            yield AGT003.at(path, trouble[0], 1, f"{kind.agent_title} does not load this {noun(kind)}: {trouble[1]}")
        else:
            yield AGT003.at(
                path, trouble[0], 1, f"{kind.agent_title} may read none of this {noun(kind)}'s settings: {trouble[1]}"
            )._replace(severity=WARNING)


def _one_line_value(doc: Document, line: int) -> bool:
    """Whether the YAML error is in a key's value that stays on the key's line. Such
    subagents were seen loaded in Claude Code's agent list (PostHog/posthog#91631)
    while others were reported as parse errors; a value that runs on over several
    lines was seen never to register (bsv-blockchain/teranode#1596)."""
    fm = doc.frontmatter
    if fm is None or fm.yaml_error is None or fm.too_complex or line not in fm.key_lines.values():
        return False
    following = min((at for at in fm.key_lines.values() if at > line), default=fm.end_line)
    return following == line + 1
