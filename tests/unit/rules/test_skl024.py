"""SKL024 vague-skill-name: a skill name that says nothing of what it does (off by default)."""

from __future__ import annotations

from conftest import example, findings, lint

ON = {"select": ["ALL", "SKL024"]}  # opt-in: on only where select names it


def _files(fields: str, folder: str) -> dict[str, str]:
    return {f".claude/skills/{folder}/SKILL.md": f"---\n{fields}---\n\nFill the form.\n"}


def test_the_docs_example_is_reported() -> None:
    (found,) = findings(_files(example("SKL024"), "helper"), config=ON)
    assert (found.path, found.line, found.code) == (".claude/skills/helper/SKILL.md", 2, "SKL024")


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint(_files(example("SKL024", "Use instead"), "filling-pdf-forms"), config=ON) == []


def test_off_by_default() -> None:
    assert lint(_files(example("SKL024"), "helper")) == []
