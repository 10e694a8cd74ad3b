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


def _workspace_that_clones(rule_paths: str, makefile: str) -> dict[str, str]:
    """Issue 40's shape: the root .gitignore ignores /repos/, a repos.json manifest and
    a make target clone the sub-repositories into it, and a rule names their files."""
    return {
        ".gitignore": "/repos/\nnode_modules/\n",
        "repos.json": '{"repos": [{"name": "api", "url": "https://example.com/org/api.git"}]}\n',
        "Makefile": makefile,
        ".claude/rules/java.md": f"---\npaths: {rule_paths}\n---\n\nUse records for DTOs.\n",
        "CLAUDE.md": "# Workspace\n",
    }


CLONES = "repos:\n\tjq -r '.repos[] | .name + \" \" + .url' repos.json | while read n u; do git clone $$u repos/$$n; done\n"


def test_a_rule_for_files_a_setup_step_clones_into_an_ignored_folder_is_not_reported() -> None:
    assert lint(_workspace_that_clones("['**/*.java']", CLONES), select="GDN008") == []
    assert lint(_workspace_that_clones("['repos/api/**/*.java']", CLONES), select="GDN008") == []


def test_a_pattern_that_cannot_lead_into_the_cloned_folder_is_still_reported() -> None:
    assert lint(_workspace_that_clones("['src/**/*.java']", CLONES), select="GDN008") == [(".claude/rules/java.md", 2, "GDN008")]


def test_an_ignored_folder_no_setup_step_clones_into_keeps_the_finding() -> None:
    """node_modules/ is ignored too, but nothing clones into it; and without a clone
    step, /repos/ is only an ignored folder."""
    assert lint(_workspace_that_clones("['**/*.java']", "build:\n\tnpm ci\n"), select="GDN008") == [(".claude/rules/java.md", 2, "GDN008")]
    files = _workspace_that_clones("['node_modules/**/*.java']", CLONES)
    assert lint(files, select="GDN008") == [(".claude/rules/java.md", 2, "GDN008")]


def test_a_dead_pattern_beside_its_live_twin_in_another_syntax_is_not_reported() -> None:
    # **/*.tsx beside **/*.ts that matches: the same files in their JSX variant, named
    # for the day the tree has some; docs/**/*.md beside docs/**/*.mdx the same.
    files = {"src/for_x/a.ts": "x\n", "docs/a.mdx": "x\n"}
    assert lint({**files, **_agents_md('globs: ["src/**/*.ts", "src/**/*.tsx", "docs/**/*.mdx", "docs/**/*.md"]\n')}, select="GDN008") == []
    # Not twins: another folder, another extension, a letter changed, or the live one excluded.
    for dead in ("lib/**/*.tsx", "src/**/*.rb", "src/**/*.tx", "src/**/*.tsxxx"):
        assert lint({**files, **_agents_md(f'globs: ["src/**/*.ts", "{dead}"]\n')}, select="GDN008") == [("AGENTS.md", 2, "GDN008")], dead
    assert lint({**files, **_agents_md('globs: ["!src/**/*.ts", "src/**/*.tsx"]\n')}, select="GDN008") == [("AGENTS.md", 2, "GDN008")]


def test_a_rule_the_tree_installs_into_other_projects_names_their_files() -> None:
    # A plugin's hook copies templates/.github/instructions/specs.instructions.md into
    # the projects that use it: its patterns, and those of the same rule at the root,
    # name files of those projects.
    rule = "---\napplyTo: 'docs/features/**/spec.md'\n---\nWrite specs so.\n"
    template = ".github/plugins/kit/hooks/templates/.github/instructions/specs.instructions.md"
    files = {".github/instructions/specs.instructions.md": rule, template: rule, "README.md": "# Kit\n"}
    assert lint(files, select="GDN008") == []
    # Without the template, the rule at the root is this tree's, and reported.
    del files[template]
    assert lint(files, select="GDN008") == [(".github/instructions/specs.instructions.md", 2, "GDN008")]
    # Copies in two packages of a monorepo are each package's own.
    packages = {f"packages/{p}/.github/instructions/specs.instructions.md": rule for p in ("a", "b")}
    assert len(lint(packages, select="GDN008")) == 2
