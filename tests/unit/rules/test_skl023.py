"""SKL023 backslash-path: a skill names a file with backslashes (off by default)."""

from __future__ import annotations

from conftest import example, findings, lint

ON = {"select": ["ALL", "SKL023"]}  # opt-in: on only where select names it
SKILL = ".claude/skills/fill-form/SKILL.md"
HEAD = "---\nname: fill-form\ndescription: Fills forms. Use when asked to fill a form.\n---\n\n"


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({SKILL: HEAD + example("SKL023")}, config=ON)
    assert (found.path, found.line, found.code) == (SKILL, 6, "SKL023")
    assert "'scripts/check_form.py'" in found.message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({SKILL: HEAD + example("SKL023", "Use instead")}, config=ON) == []


def test_off_by_default() -> None:
    assert lint({SKILL: HEAD + example("SKL023")}) == []


def test_links_are_read_and_fenced_code_and_absolute_windows_paths_are_not() -> None:
    body = "See [the guide](references\\guide.md).\n\n```powershell\ncd scripts\\tools\\run.ps1\n```\n\nOn Windows: `C:\\Users\\me`.\n"
    assert lint({SKILL: HEAD + body}, select="SKL023", config=ON) == [(SKILL, 6, "SKL023")]
