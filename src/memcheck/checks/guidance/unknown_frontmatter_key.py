"""GDN006: a guidance frontmatter key that looks like a misspelt known key."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.problem import WARNING, Rule
from memcheck.text.frontmatter import near_key

if TYPE_CHECKING:
    from memcheck import agents
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.text.frontmatter_reading import Frontmatter
    from memcheck.workspace.discover import Workspace

GDN006 = Rule(
    "GDN006",
    "unknown-frontmatter-key",
    WARNING,
    False,
    "Guidance frontmatter key looks like a misspelt known key",
    """\
## What it does
Reports a frontmatter key that is not in its kind's schema but looks like a key
that is: equal to one when case, `-` and `_` are ignored (`alwaysapply`,
`apply_to`), or close to one by `difflib.SequenceMatcher` (ratio 0.8 or more after
that normalisation: `glob`, `path`, `descripton`). Other keys (`updated`, `owner`,
`generation`, ...) are the team's own and are not reported, nor are keys in
`guidance.allowed-keys`. The schemas: `AGENTS.md` and its variants `description`,
`alwaysApply`, `globs`; Claude Code rules `paths`; Copilot instructions `applyTo`,
`excludeAgent`; Cursor rules `description`, `globs`, `alwaysApply`.

## Why is this bad?
Keys are matched exactly: the misspelt setting is ignored and the real one keeps
its default (`alwaysapply: true` leaves the file applying only by its globs).

## Example
```yaml
glob: ["src/**"]
```

## Use instead
```yaml
globs: ["src/**"]
```
""",
)


def check(ws: Workspace, doc: Document, fm: Frontmatter, schema: agents.Frontmatter) -> Iterator[Problem]:
    allowed = set(schema.keys) | set(ws.config.guidance.allowed_keys)
    for key in sorted(str(k) for k in fm.data if k not in allowed):
        near = near_key(schema.keys)(key)  # one set of matchers per schema, not per file
        if near is not None:
            yield GDN006.at(
                doc.path,
                fm.key_lines.get(key, 1),
                1,
                f"frontmatter key {key!r} looks like a misspelling of {near!r}: keys are matched exactly, so this setting is ignored; rename it to {near} (or add {key} to guidance.allowed-keys)",
            )
