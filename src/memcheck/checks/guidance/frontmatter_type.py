"""GDN005: a guidance frontmatter value of the wrong type or value.

Judged by the kind's schema in the agent data (``agents.schema_of``) for a guidance
file, and by ``guidance_kinds.file_issues`` for an instructions file only the agent
data knows (the issues it names in ``WHAT``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import agents
from memcheck.problem import ERROR, Rule
from memcheck.text.frontmatter import value_kind
from memcheck.text.patterns import split_list

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.text.frontmatter_reading import Frontmatter

GDN005 = Rule(
    "GDN005",
    "frontmatter-type",
    ERROR,
    False,
    "Guidance frontmatter value has the wrong type or value",
    """\
## What it does
Checks each kind's frontmatter schema. `AGENTS.md`, its variants and `CLAUDE.md`:
`description` a string, `alwaysApply` a boolean, `globs` a list of strings (`!`
excludes). Cursor rules (`.cursor/rules/*.mdc`): `description` a string,
`alwaysApply` a boolean, `globs` a list or one comma-separated string. Claude Code
rules (`.claude/rules/*.md`): `paths` a list or one comma-separated string. Copilot
instructions (`*.instructions.md`): `applyTo` a comma-separated string (or a list),
`excludeAgent` `code-review` or `coding-agent`.

## Why is this bad?
`alwaysApply: "yes"` is a string, not `true`: a strict reader rejects it and a loose
one treats every non-empty string, even `"false"`, as true. A `globs` string is read
character by character by readers that expect a list.

## Example
```yaml
alwaysApply: "yes"
globs: src/**/*.ts
```

## Use instead
```yaml
alwaysApply: true
globs:
  - "src/**/*.ts"
```
""",
)

# The issues of guidance_kinds.file_issues that are this rule's.
WHAT = {"type": GDN005, "value": GDN005, "quoted": GDN005, "tool": GDN005}


def check(doc: Document, fm: Frontmatter, schema: agents.Frontmatter) -> Iterator[Problem]:
    """The values of ``description``, ``alwaysApply`` and ``excludeAgent`` (the globs key: ``glob_patterns``)."""
    path, data = doc.path, fm.data

    def line_of(key: str) -> int:
        return fm.key_lines.get(key, 1)

    if (
        "description" in schema.keys
        and "description" in data
        and not isinstance(data["description"], str)
        and data["description"] is not None
    ):
        yield GDN005.at(
            path, line_of("description"), 1, f"description is a {value_kind(data['description'])}; write it as one line of text"
        )
    if "alwaysApply" in schema.keys and "alwaysApply" in data:
        value = data["alwaysApply"]
        lenient_ok = schema.lenient and fm.fallback and isinstance(value, str) and value.strip().lower() in ("true", "false")
        if not isinstance(value, bool) and not lenient_ok:
            hint = f"write alwaysApply: {str(value).strip().lower() in ('yes', 'true', 'on', '1')} (a YAML boolean, unquoted)".replace(
                "True", "true"
            ).replace("False", "false")
            yield GDN005.at(path, line_of("alwaysApply"), 1, f"alwaysApply is the {value_kind(value)} {value!r}, not a boolean; {hint}")
    if "excludeAgent" in schema.keys and "excludeAgent" in data:
        value = data["excludeAgent"]
        if not isinstance(value, str) or value.strip() not in agents.words(agents.COPILOT, "exclude_agent") + agents.words(
            agents.COPILOT, "exclude_agent_unconfirmed"
        ):
            yield GDN005.at(path, line_of("excludeAgent"), 1, f"excludeAgent is {value!r}; Copilot knows code-review and coding-agent")


def glob_patterns(doc: Document, fm: Frontmatter, schema: agents.Frontmatter, line: int) -> tuple[list[str] | None, list[Problem]]:
    """The patterns of the schema's globs key, and a GDN005 for each value that is not
    one; None when the key is absent or its value is no list of patterns at all."""
    assert schema.globs_key is not None
    key, path = schema.globs_key, doc.path
    value = fm.data.get(key)
    if value is None:
        return None, []
    patterns: list[str] = []
    wrong: list[Problem] = []
    if isinstance(value, str) and schema.globs_form != "list":
        patterns = split_list(value)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, str):
                patterns.append(item)
            else:
                wrong.append(GDN005.at(path, line, 1, f"{key} holds the {value_kind(item)} {item!r}; every pattern must be a string"))
    else:
        form = (
            'a list of patterns (globs: ["src/**/*.ts"])'
            if schema.globs_form == "list"
            else "a list of patterns or one comma-separated string"
        )
        return None, [GDN005.at(path, line, 1, f"{key} is a {value_kind(value)}; write it as {form}")]
    return patterns, wrong
