"""SKL022 long-skill-body: a skill body over the length the authoring guidance advises (off by default)."""

from __future__ import annotations

import re

from conftest import example, findings, lint

ON = {"skills": {"authoring-advice": True}}
HEAD = "---\nname: deploy\ndescription: Deploys the app. Use when shipping.\n---\n"


def _files(block: str) -> dict[str, str]:
    path, lines = re.match(r"(\S+): (\d+) lines", block).groups()  # type: ignore[union-attr]
    return {path: HEAD + "".join(f"Step {n}.\n" for n in range(int(lines)))}


def test_the_docs_example_is_reported() -> None:
    (found,) = findings(_files(example("SKL022")), config=ON)
    assert (found.path, found.line, found.code, found.severity) == (".claude/skills/deploy/SKILL.md", 505, "SKL022", "warning")
    assert "620 lines, over the 500" in found.message and "platform.claude.com" in found.message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint(_files(example("SKL022", "Use instead")), config=ON) == []


def test_off_by_default() -> None:
    assert lint(_files(example("SKL022"))) == []


def test_exactly_the_limit_passes() -> None:
    assert lint({".claude/skills/deploy/SKILL.md": HEAD + "x\n" * 500}, config=ON) == []
    assert lint({".claude/skills/deploy/SKILL.md": HEAD + "x\n" * 501}, config=ON) == [(".claude/skills/deploy/SKILL.md", 505, "SKL022")]
