"""GDN007 invalid-glob: a globs pattern that is not a valid glob (the globs cluster with GDN008)."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint


def _agents_md(frontmatter: str) -> dict[str, str]:
    return {"AGENTS.md": f"---\n{frontmatter}---\n\nRules.\n", "src/app.ts": "x\n"}


def test_the_docs_example_is_reported() -> None:
    files = _agents_md(example("GDN007"))
    assert lint(files) == [("AGENTS.md", 2, "GDN007")]  # an invalid pattern is not also one that matches nothing
    (found,) = findings(files)
    assert found.message == "glob 'src/[a-z*.ts' has unbalanced '[' and ']'"


def test_the_docs_use_instead_passes() -> None:
    assert lint(_agents_md(example("GDN007", "Use instead"))) == []


@pytest.mark.parametrize(
    "frontmatter",
    ['globs: ["src/[a-z.py"]\n', 'globs: ["src/{a,b.py"]\n', 'globs: ["!"]\n'],
    ids=["unbalanced-bracket", "unbalanced-brace", "lone-bang"],
)
def test_invalid_patterns(frontmatter: str) -> None:
    assert lint(_agents_md(frontmatter), select="GDN007") == [("AGENTS.md", 2, "GDN007")]


def test_a_kiro_steering_pattern() -> None:
    files = {".kiro/steering/ts.md": '---\ninclusion: fileMatch\nfileMatchPattern: "src/[a-z*.ts"\n---\n\nRules.\n', "src/app.ts": "x\n"}
    assert lint(files, select="GDN007") == [(".kiro/steering/ts.md", 3, "GDN007")]
