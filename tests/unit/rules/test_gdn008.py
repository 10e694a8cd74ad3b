"""GDN008 glob-matches-nothing: a globs pattern that matches no file here (the globs cluster with GDN007)."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint


def _agents_md(frontmatter: str, folder: str = "") -> dict[str, str]:
    return {f"{folder}AGENTS.md": f"---\n{frontmatter}---\n\nRules.\n", "src/app.py": "print()\n", "src/app.ts": "x\n"}


def test_the_docs_example_is_reported() -> None:
    files = _agents_md(example("GDN008"))
    assert lint(files) == [("AGENTS.md", 2, "GDN008")]
    (found,) = findings(files)
    assert (
        found.message
        == "globs pattern 'scr/**/*.ts': no file here matches it (ignored files included), so this file never applies by it; fix the pattern or remove it"
    )


def test_the_docs_use_instead_passes() -> None:
    assert lint(_agents_md(example("GDN008", "Use instead"))) == []


@pytest.mark.parametrize(
    "frontmatter",
    [
        "description: Python rules\nalwaysApply: false\nglobs:\n  - 'src/**/*.py'\n  - '!src/**/test_*.py'\n",
        "globs: ['*.py']\n",
        "globs: ['app.py']\n",  # relative to the guidance file's folder
        "globs: ['src/*.{py,pyi}']\n",
        "globs: []\n",
        "globs: ['src/**', '!vendor/**']\n",  # an exclusion matching nothing excludes nothing: harmless
        "globs: ['src/']\n",  # a folder: the files below it
    ],
)
def test_patterns_that_match_are_clean(frontmatter: str) -> None:
    assert lint(_agents_md(frontmatter, "src/")) == []


def test_a_pattern_matching_nothing() -> None:
    assert lint(_agents_md('globs: ["vendor/**"]\n'), select="GDN008") == [("AGENTS.md", 2, "GDN008")]


def test_a_kiro_steering_pattern_matching_nothing() -> None:
    files = {".kiro/steering/ts.md": '---\ninclusion: fileMatch\nfileMatchPattern: "scr/**/*.ts"\n---\n\nRules.\n', "src/app.ts": "x\n"}
    assert lint(files, select="GDN008") == [(".kiro/steering/ts.md", 3, "GDN008")]
