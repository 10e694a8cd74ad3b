"""SKL007: an optional skill field with the wrong type, length or value.

Two sources: the Agent Skills fields every agent reads (``check``), and, in a skill
Claude Code loads, the values of its own keys as its data says they are written
(``check_claude``, from the claude kind's findings the family's pass gathered once).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.problem import ERROR, WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import SkillFile
    from memcheck.problem import Problem

SKL007 = Rule(
    "SKL007",
    "invalid-field",
    ERROR,
    False,
    "Optional skill field has the wrong type or length",
    """\
## What it does
Checks the optional Agent Skills fields: `license` and `compatibility` are strings
(`compatibility` at most 500 characters), `metadata` is a mapping, and
`allowed-tools` is a list of strings or one comma-separated string.

## Why is this bad?
Agents that validate skills reject the whole skill; the others ignore the field,
so a tool restriction you wrote is silently not applied.

## Example
```yaml
allowed-tools: {Bash: true}
```

## Use instead
```yaml
allowed-tools: [Bash, Read]
```
""",
)

MAX_COMPATIBILITY = 500


def check(skill: SkillFile) -> Iterator[Problem]:
    """The Agent Skills specification's optional fields."""
    data, path, line_of = skill.data, skill.path, skill.line_of
    for key in ("license", "compatibility"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            yield SKL007.at(path, line_of(key), 1, f"{key} is a {type(value).__name__}; write it as a string")
    compat = data.get("compatibility")
    if isinstance(compat, str) and len(compat) > MAX_COMPATIBILITY:
        yield SKL007.at(
            path,
            line_of("compatibility"),
            1,
            f"compatibility is {len(compat)} characters, over the {MAX_COMPATIBILITY} allowed; shorten it",
        )
    if "metadata" in data and data["metadata"] is not None and not isinstance(data["metadata"], dict):
        yield SKL007.at(
            path, line_of("metadata"), 1, f"metadata is a {type(data['metadata']).__name__}; write it as a mapping of keys to values"
        )
    tools = data.get("allowed-tools")
    if tools is not None and not isinstance(tools, str):
        if not isinstance(tools, list) or not all(isinstance(t, str) and t.strip() for t in tools):
            yield SKL007.at(
                path,
                line_of("allowed-tools"),
                1,
                "allowed-tools must be a list of tool names or one comma-separated string (allowed-tools: [Bash, Read])",
            )


def check_claude(skill: SkillFile) -> Iterator[Problem]:
    """The values of Claude Code's own keys, in a skill it loads: a boolean written
    as a quoted string is a warning; a key missing is no finding of a skill's, and
    an unknown tool is SKL014's."""
    for issue in skill.issues:
        if issue.what == "quoted":
            yield SKL007.at(skill.path, skill.line_of(issue.key), 1, issue.message)._replace(severity=WARNING)
        elif issue.what not in ("missing", "tool"):
            yield SKL007.at(skill.path, skill.line_of(issue.key), 1, issue.message)
