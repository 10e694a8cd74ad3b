"""AGT007: an agent file frontmatter key that looks like a misspelt known key."""

from __future__ import annotations

from typing import Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.problem import WARNING, Problem, Rule
from memcheck.text.frontmatter import near_key
from memcheck.text.frontmatter_reading import Frontmatter

AGT007 = Rule(
    "AGT007",
    "unknown-key",
    WARNING,
    False,
    "Agent file frontmatter key looks like a misspelt known key",
    """\
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
""",
)


def check(kind: agentkinds.Kind, path: str, fm: Frontmatter) -> Iterator[Problem]:
    """The keys of a parsed frontmatter that the kind does not know and that look like one it does."""
    known = tuple(sorted(kind.keys))
    near = near_key(known)
    for key in sorted(str(k) for k in fm.data if k not in kind.keys):
        meant = near(key)
        if meant is not None:
            yield AGT007.at(
                path,
                fm.key_lines.get(key, 1),
                1,
                f"frontmatter key {key!r} looks like a misspelling of {meant!r}: {kind.agent_title} matches keys exactly, so this setting is ignored; rename it to {meant}",
            )
