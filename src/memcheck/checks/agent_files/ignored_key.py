"""AGT011: a key the agent does not read, in a kind whose keys its agent lists whole."""

from __future__ import annotations

from typing import Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.checks.agent_files.kind_text import noun
from memcheck.problem import WARNING, Problem, Rule
from memcheck.text.frontmatter import near_key
from memcheck.text.frontmatter_reading import Frontmatter

AGT011 = Rule(
    "AGT011",
    "ignored-key",
    WARNING,
    False,
    "Agent file frontmatter key the agent does not read",
    """\
## What it does
Reports a frontmatter key of a Copilot custom agent (`.github/agents/*.agent.md`)
that is none of the keys GitHub's custom agents reference lists (`name`,
`description`, `target`, `tools`, `model`, `disable-model-invocation`,
`user-invocable`, `infer`, `mcp-servers`, `metadata`) nor one VS Code reads
(`argument-hint`, `agents`, `handoffs`, `hooks`); and of a Copilot prompt file
(`.github/prompts/*.prompt.md`) that is none of the header fields VS Code's prompt
files page lists (`description`, `name`, `argument-hint`, `agent`, `mode`, `model`,
`tools`). Only kinds whose agent documents its keys as a closed set are judged; a key that looks like a misspelling of a known
one is AGT007's.

## Why is this bad?
The references list every key the agent reads, and this is none of them: a setting
written there (`temperature`, `color`, `version`) is not known to have any effect,
and whoever reads the file believes it does.

## Example
```yaml
description: Reviews pull requests.
temperature: 0.2
```

## Use instead
```yaml
description: Reviews pull requests.
```
""",
)


def check(kind: agentkinds.Kind, path: str, fm: Frontmatter) -> Iterator[Problem]:
    if not kind.closed:
        return
    near = near_key(tuple(sorted(kind.keys)))
    for key in sorted(str(k) for k in fm.data if k not in kind.keys):
        if near(key) is not None:
            continue  # AGT007: a misspelling of a key the agent reads
        yield AGT011.at(
            path,
            fm.key_lines.get(key, 1),
            1,
            f"frontmatter key {key!r} is not among the keys {kind.agent_title}'s references list for a {noun(kind)}, so {kind.agent_title} is not known to read it; remove it, or say it in the body",
        )
