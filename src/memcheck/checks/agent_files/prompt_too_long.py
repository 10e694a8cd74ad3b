"""AGT014: an agent's prompt (the file's body) over its agent's limit."""

from __future__ import annotations

from typing import Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.problem import WARNING, Problem, Rule
from memcheck.text.document import Document

AGT014 = Rule(
    "AGT014",
    "prompt-too-long",
    WARNING,
    False,
    "Custom agent prompt over the agent's limit",
    """\
## What it does
Reports a Copilot custom agent whose prompt, the Markdown below its frontmatter,
is over 30,000 characters: the most GitHub's custom agents reference allows.

## Why is this bad?
What GitHub does with a longer prompt is not documented: it may cut it or refuse
the agent, and either way the instructions past the limit are not what runs.

## Example
A `.github/agents/reviewer.agent.md` whose body is 31,000 characters.
```markdown
---
description: Reviews pull requests.
---
(31,000 characters of instructions)
```

## Use instead
Keep the prompt short; move reference material into files the agent reads when it
needs them.
```markdown
---
description: Reviews pull requests.
---
Review the change against docs/review-checklist.md.
```
""",
)


def check(kind: agentkinds.Kind, doc: Document) -> Iterator[Problem]:
    limit = kind.max_body_chars
    if limit is not None and len(doc.body) > limit:
        yield AGT014.at(
            doc.path,
            doc.body_line,
            1,
            f"the prompt below the frontmatter is {len(doc.body):,} characters, over the {limit:,} {kind.agent_title} allows a custom agent; move reference material into files the agent reads when it needs them",
        )
