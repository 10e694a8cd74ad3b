"""GDN027, GDN028: a Cursor rule whose globs are ignored, or that applies only when named."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.problem import WARNING, Rule
from memcheck.text.frontmatter import near_key

if TYPE_CHECKING:
    from memcheck import agents
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.text.frontmatter_reading import Frontmatter

GDN027 = Rule(
    "GDN027",
    "always-apply-with-globs",
    WARNING,
    False,
    "Cursor rule has globs and alwaysApply: true",
    """\
## What it does
Reports a Cursor rule (`.cursor/rules/*.mdc`) with `alwaysApply: true` and
non-empty `globs`.

## Why is this bad?
`alwaysApply: true` puts the rule into every chat, whatever files are in it: the
globs are ignored. Either the rule was meant for those files only, and costs
context everywhere else, or the globs are dead text.

## Example
```yaml
globs: src/api/**/*.ts
alwaysApply: true
```

## Use instead
```yaml
globs: src/api/**/*.ts
alwaysApply: false
```
""",
)

GDN028 = Rule(
    "GDN028",
    "rule-applies-only-when-named",
    WARNING,
    False,
    "Cursor rule applies only when a chat names it",
    """\
## What it does
Reports a Cursor rule (`.cursor/rules/*.mdc`) with no `description` (or an empty
one: `description:` or `description: ""`), no `globs` and no `alwaysApply: true`.

## Why is this bad?
Cursor picks a rule by one of these: always, by the files in the chat (globs), or by
its description (the agent decides). With none, the rule is a manual one: it applies
only when someone types `@rule-name` in a chat. A rule written to guide the agent
by itself never does; an empty template (`description:`, `globs:`,
`alwaysApply: false`) is the usual cause. An empty description is no description:
the agent has nothing to pick the rule by (Cursor's rules page, *Apply
Intelligently*: the agent decides from the description).

## Example
```yaml
description:
globs:
alwaysApply: false
```

## Use instead
Say when it applies:
```yaml
description: Conventions for the payment API; use when editing src/payments.
alwaysApply: false
```
""",
)


def check(doc: Document, fm: Frontmatter, schema: agents.Frontmatter) -> Iterator[Problem]:
    always = schema.always_key
    if always is None or schema.globs_key is None:
        return
    data = fm.data
    globs = _given(data.get(schema.globs_key))
    if data.get(always) is True:
        if globs:
            yield GDN027.at(
                doc.path,
                fm.key_lines.get(always, 1),
                1,
                f"{always}: true applies this rule to every chat, so its {schema.globs_key} are ignored; set {always}: false to apply it to those files only, or remove {schema.globs_key}",
            )
        return
    # A key misspelt (`alwaysapply`, `glob`) is GDN006's finding and this rule's cause: said once.
    misspelt = any(k not in schema.keys and near_key(schema.keys)(str(k)) is not None for k in data)
    if not globs and not misspelt and "description" in schema.keys and not _given(data.get("description")):
        # An empty description is no description to the agent, which picks a rule by
        # reading it (cursor.com/docs/rules, "Apply Intelligently"): said as written.
        said = "an empty description" if "description" in data else "no description"
        yield GDN028.at(
            doc.path,
            1,
            1,
            f"{said}, no {schema.globs_key} and no {always}: true: Cursor applies this rule only when a chat names it (@rule-name); write a description (the agent picks the rule by it) or {schema.globs_key} if it should apply by itself",
        )


def _given(value: object) -> bool:
    """A value that says something: not absent, empty or blank."""
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, list):
        return any(_given(v) for v in value)
    return value is not None and value is not False
