"""GDN006 unknown-frontmatter-key: a guidance frontmatter key that looks like a misspelt known key."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint


def _agents_md(frontmatter: str) -> dict[str, str]:
    return {"AGENTS.md": f"---\n{frontmatter}---\n\nRules.\n", "src/app.py": "x\n"}


def test_the_docs_example_is_reported() -> None:
    files = _agents_md(example("GDN006"))
    assert lint(files, select="GDN006") == [("AGENTS.md", 2, "GDN006")]
    (found,) = findings(files, select="GDN006")
    assert found.message.startswith("frontmatter key 'glob' looks like a misspelling of 'globs'")


def test_the_docs_use_instead_passes() -> None:
    assert lint(_agents_md(example("GDN006", "Use instead")), select="GDN006") == []


def test_a_key_equal_but_for_case() -> None:
    assert lint(_agents_md("alwaysapply: true\n"), select="GDN006") == [("AGENTS.md", 2, "GDN006")]


@pytest.mark.parametrize("frontmatter", ["updated: 2026-01-02\nowner: platform-team\ngeneration: 3\n"])
def test_the_teams_own_keys_are_not_reported(frontmatter: str) -> None:
    assert lint(_agents_md(frontmatter), select="GDN006") == []


def test_allowed_keys_are_not_reported() -> None:
    assert lint(_agents_md("glob: [src/**]\n"), select="GDN006", config={"guidance": {"allowed-keys": ["glob"]}}) == []


def test_the_teams_own_keys_beside_a_misspelt_one() -> None:
    (found,) = findings(
        {"AGENTS.md": "---\nupdated: 2026-08-01\nowner: infra\ngeneration: 4\nalwaysapply: true\n---\nRules.\n"}, select="GDN006"
    )
    assert found.line == 5 and found.message.startswith("frontmatter key 'alwaysapply' looks like a misspelling of 'alwaysApply'")
