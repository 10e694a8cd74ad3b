"""SKL002: a skill file with no YAML frontmatter, so no name and no description.

A gate: the rules that read the frontmatter are not run on such a file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memcheck.checks.skills.facts import EXAMPLE_OK
from memcheck.problem import ERROR, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document

SKL002 = Rule(
    "SKL002",
    "missing-frontmatter",
    ERROR,
    False,
    "SKILL.md has no frontmatter",
    f"""\
## What it does
Reports a `SKILL.md` that does not start with YAML frontmatter.

## Why is this bad?
Agents list skills by the `name` and `description` in their frontmatter; without
it the skill is skipped or shown with no hint of when to use it.

## Example
```markdown
# Run tests
Execute the suite.
```

## Use instead
{EXAMPLE_OK}
""",
)


def check(doc: Document) -> Problem | None:
    """SKL002 when ``doc`` has no frontmatter, else None (the frontmatter's checks run)."""
    if doc.has_frontmatter:
        return None
    return SKL002.at(doc.path, 1, 1, "no YAML frontmatter: start the file with '---', name and description, then '---'")
