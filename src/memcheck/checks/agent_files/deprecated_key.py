"""AGT013: a key its agent has retired."""

from __future__ import annotations

from typing import Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.problem import WARNING, Problem, Rule
from memcheck.text.frontmatter_reading import Frontmatter

AGT013 = Rule(
    "AGT013",
    "deprecated-key",
    WARNING,
    False,
    "Agent file uses a retired frontmatter key",
    """\
## What it does
Reports a frontmatter key its agent's reference marks as retired: `infer` in a
Copilot custom agent, replaced by `disable-model-invocation` and `user-invocable`.

## Why is this bad?
A retired key is kept for a while and then dropped: the setting stops working
without a word. Where both are set, the new key wins already (`infer: true` beside
`disable-model-invocation: true` does nothing).

## Example
```yaml
description: Reviews pull requests.
infer: false
```

## Use instead
```yaml
description: Reviews pull requests.
disable-model-invocation: true
```
""",
)


def check(kind: agentkinds.Kind, path: str, fm: Frontmatter) -> Iterator[Problem]:
    for spec in kind.keys.values():
        if spec.deprecated and spec.name in fm.data:
            yield AGT013.at(
                path,
                fm.key_lines.get(spec.name, 1),
                1,
                f"{spec.name} is retired in {kind.agent_title}'s reference; write {spec.deprecated} instead",
            )
