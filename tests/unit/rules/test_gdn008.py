"""GDN008 glob-matches-nothing: a globs pattern that matches no file here (the globs cluster with GDN007)."""

from __future__ import annotations

import pytest
from conftest import cpu_limit, example, findings, lint


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
        "tools/check.py": "print()\n",  # the workspace's own code: a project, not a kit of agent files
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
    files = {".github/instructions/specs.instructions.md": rule, template: rule, "README.md": "# Kit\n", "src/kit.py": "print()\n"}
    assert lint(files, select="GDN008") == []
    # Without the template, the rule at the root is this tree's, and reported.
    del files[template]
    assert lint(files, select="GDN008") == [(".github/instructions/specs.instructions.md", 2, "GDN008")]
    # Copies in two packages of a monorepo are each package's own.
    packages = {f"packages/{p}/.github/instructions/specs.instructions.md": rule for p in ("a", "b")}
    packages |= {"packages/a/index.ts": "x\n", "packages/b/index.ts": "x\n"}
    assert len(lint(packages, select="GDN008")) == 2


def test_a_tree_of_agent_files_alone_is_a_kit_whose_rules_name_other_projects_files() -> None:
    # Issue 40's shape: a repository of agent files and nothing else (rules, skills,
    # docs, a logo and its preview page, settings); its rules' paths name the source
    # folders of the projects it is copied into. No paths rule can apply here by design.
    kit = {
        ".claude/rules/rust.md": "---\npaths:\n  - 'src/**/*.rs'\n---\n\nUse thiserror.\n",
        ".claude/rules/pages.md": "---\npaths:\n  - 'public/**/*.html'\n---\n\nOne h1.\n",
        ".claude/settings.json": "{}\n",
        ".claude/skills/x/SKILL.md": "---\nname: x\ndescription: Does x. Use when asked.\n---\n\nBody.\n",
        ".claude/skills/x/scripts/run.py": "print()\n",  # a skill's script is the skill's, not the tree's code
        "CLAUDE.md": "# Kit\n",
        "docs/guide.md": "# Guide\n",
        "brand/logo.svg": "<svg/>\n",
        "brand/preview.html": "<p>logo</p>\n",
    }
    assert lint(kit, select="GDN008") == []
    # The same rules in a tree with code of its own: dead patterns there are reported.
    found = lint({**kit, "lib/app.py": "print()\n"}, select="GDN008")
    assert found == [(".claude/rules/pages.md", 2, "GDN008"), (".claude/rules/rust.md", 2, "GDN008")]
    # A Kiro steering file's pattern the same.
    steering = {
        ".kiro/steering/ts.md": '---\ninclusion: fileMatch\nfileMatchPattern: "scr/**/*.ts"\n---\n\nRules.\n',
        "README.md": "# Kit\n",
    }
    assert lint(steering, select="GDN008") == []
    assert lint({**steering, "scripts/build.sh": "make\n"}, select="GDN008") == [(".kiro/steering/ts.md", 3, "GDN008")]


def test_a_missing_folder_beside_a_live_pattern_for_a_kind_of_file_anywhere_is_not_reported() -> None:
    # Issue 40's shape: `tests/**` beside `**/*.py` and `**/*.sh`, which match: the file
    # applies to every Python file, the tests' among them once tests/ exists.
    files = {"src/app.py": "print()\n", "run.sh": "x\n"}
    rule = "---\npaths:\n  - 'tests/**'\n  - '**/*.py'\n  - '**/*.sh'\n---\n\nRed, green, refactor.\n"
    assert lint({**files, ".claude/rules/testing.md": rule}, select="GDN008") == []
    copilot = "---\napplyTo: 'tests/**, *.py'\n---\n\nRed, green, refactor.\n"
    assert lint({**files, ".github/instructions/testing.instructions.md": copilot}, select="GDN008") == []
    # Still reported: the folder pattern alone, beside a pattern for another folder, or
    # beside a kind of file no file here is; a pattern for files (a typo in a folder's
    # name) beside the kind of file anywhere.
    for paths, dead in (
        ("['tests/**']", 1),
        ("['tests/**', 'src/**/*.py']", 1),
        ("['scr/**/*.ts', '**/*.py']", 1),
        ("['tests/**', '**/*.rb']", 2),
    ):
        found = lint({**files, ".claude/rules/testing.md": f"---\npaths: {paths}\n---\n\nx\n"}, select="GDN008")
        assert found == [(".claude/rules/testing.md", 2, "GDN008")] * dead, paths


def test_a_wrong_case_ending_beside_a_live_pattern_is_reported() -> None:
    # An outside attack's recipe against a narrowing that was not merged: `src/**/*.JS`
    # beside a live `src/**/*.ts` names no file, while `src/b.js` never gets the rule.
    files = {
        ".github/instructions/u1.instructions.md": '---\napplyTo: "src/**/*.ts,src/**/*.JS"\n---\n# R\n\nUse it.\n',
        "src/a.ts": "x\n",
        "src/b.js": "x\n",
    }
    assert [f[2] for f in lint(files, select="GDN008")] == ["GDN008"]


def test_an_ending_the_tree_has_no_file_of_beside_a_live_pattern_is_not_reported() -> None:
    # Judged unwanted on a public repository: a React rule's `**/*.jsx, **/*.tsx,
    # **/*.js, **/*.ts, **/*.css, **/*.scss` in an app written in TypeScript alone. The
    # rule applies by its `.ts` and `.tsx` patterns; it names the stack's every ending.
    files = {"src/app.tsx": "x\n", "src/util.ts": "x\n", "src/app.css": "x\n"}
    rule = '---\napplyTo: "**/*.jsx, **/*.tsx, **/*.js, **/*.ts, **/*.css, **/*.scss"\n---\n# React\n\nHooks first.\n'
    assert lint({**files, ".github/instructions/react.instructions.md": rule}, select="GDN008") == []
    # Nor beside a tool's `.mjs` settings: a stack's `**/*.js` did not mean them.
    files["eslint.config.mjs"] = "x\n"
    assert lint({**files, ".github/instructions/react.instructions.md": rule}, select="GDN008") == []
    # Reported still: every pattern dead (the file never applies), an ending no language
    # has (a typo), an ending the tree holds in another case, one in a folder named; and
    # (an outside attack's recipes) an ending one letter from files no pattern names, or
    # another spelling of their kind: the rule misses the files its author meant.
    files |= {"config/app.yaml": "x\n", "src/a.hpp": "x\n", "docs/a.md": "x\n", "site/a.html": "x\n"}
    for applies_to, dead in (
        ("**/*.js, **/*.jsx", 2),
        ("**/*.ts, **/*.jz", 1),
        ("**/*.ts, **/*.TSX", 1),
        ("**/*.ts, src/**/*.js", 1),
        ("**/*.ts, **/*.cs", 1),  # .css files, which no pattern names
        ("**/*.ts, **/*.yml", 1),
        ("**/*.ts, **/*.h", 1),
        ("**/*.ts, **/*.markdown", 1),
        ("**/*.ts, **/*.xhtml", 1),
        ("**/*.css, **/*.jsx", 1),  # the stack's files are .tsx, which no pattern names
    ):
        rule = f'---\napplyTo: "{applies_to}"\n---\n# R\n\nx\n'
        found = lint({**files, ".github/instructions/r.instructions.md": rule}, select="GDN008")
        assert found == [(".github/instructions/r.instructions.md", 2, "GDN008")] * dead, applies_to


def test_a_rules_folder_below_the_root_in_a_folder_of_agents_settings_alone_is_a_template() -> None:
    # Judged unwanted on a public repository: a kit of Claude Code settings keeps the
    # `.claude/` it installs into projects under `project/` (its rules' paths name a
    # medical-device project's folders: `docs/srs/**`, `risk-file/**`), beside the
    # script that installs it: `project/` holds nothing but agents' settings.
    kit = {
        "project/.claude/rules/compliance.md": "---\npaths:\n  - 'docs/srs/**'\n  - 'risk-file/**'\n---\n\nTrace every requirement.\n",
        "project/.claude/settings.json": "{}\n",
        "project/.claude/skills/x/SKILL.md": "---\nname: x\ndescription: Does x. Use when asked.\n---\n\nB.\n",
        "project/.claude/skills/x/run.py": "print()\n",
        "project/CLAUDE.md": "# Project\n",
        "project/CLAUDE.local.md.template": "# Mine\n",
        "project/.mcp.json.example": "{}\n",
        "project/.claudeignore": "dist/\n",
        "bootstrap.sh": 'cp -r project/.claude "$1"\n',
        "README.md": "# Kit\n",
    }
    assert lint(kit, select="GDN008") == []
    # A folder with anything else is a project (an outside attack's recipes): code, a
    # docs site's pages in a folder of their own, infrastructure files at its top.
    for more in (
        {"project/src/main.py": "print()\n"},
        {"project/content/guide.mdx": "x\n"},
        {"project/main.tf": "x\n"},
        {"project/notes.md": "x\n", "project/usage.md": "x\n"},  # a folder of notes
        {"project/config.example.py": "x\n"},
    ):
        found = lint({**kit, **more}, select="GDN008")
        assert found == [("project/.claude/rules/compliance.md", 2, "GDN008")] * 2, more


def test_thousands_of_patterns_are_judged_in_time_linear_in_their_number() -> None:
    # An outside attack's shape: one applyTo of live and dead patterns, thousands of
    # each. Each dead pattern was compared with every live one (10,000 patterns: 17 s;
    # 5,000 of each here about 20 s); it is now looked up (under a second).
    n = 5_000
    files = {f"src/f{i}.ts": "x\n" for i in range(n)}
    listed = ",".join(f"src/f{i}.ts,d{i}/**/*.js" for i in range(n))
    files[".github/instructions/a.instructions.md"] = f'---\napplyTo: "{listed}"\n---\n# R\n\nUse it.\n'
    with cpu_limit(10, "5,000 live and 5,000 dead patterns"):
        found = lint(files, select="GDN008")
    assert len(found) == n  # each dead pattern, once


def test_thousands_of_endings_beside_thousands_of_patterns_are_judged_in_linear_time() -> None:
    # An outside attack's shape: each dead ending was compared with every ending of the
    # tree (8,000 of each: 55 s); the tree's endings are now looked up by key.
    n = 4_000
    files = {f"src/f{i}.x{i}": "x\n" for i in range(n)} | {"src/app.ts": "x\n"}
    absent = ("rb", "go", "java", "kt", "swift", "php", "lua", "dart")
    listed = ",".join(["**/*.ts", *(f"**/*.{absent[i % len(absent)]}" for i in range(n))])
    files[".github/instructions/a.instructions.md"] = f'---\napplyTo: "{listed}"\n---\n# R\n\nUse it.\n'
    with cpu_limit(10, "4,000 endings beside 4,000 dead patterns"):
        found = lint(files, select="GDN008")
    assert found == []  # languages the tree has none of, and no ending near theirs


def test_a_cursor_rule_applied_always_is_not_told_its_globs_match_nothing() -> None:
    # `alwaysApply: true` puts the rule in every chat and its globs are ignored
    # (GDN027 reports that): a pattern of them matching nothing changes nothing (two
    # such patterns judged unwanted on an unseen repository).
    rule = ".cursor/rules/backend.mdc"
    tree = {"server/app.py": "print()\n"}
    always = {rule: "---\ndescription: Backend rules\nglobs: server/**/*.py,tests/**/*.py\nalwaysApply: true\n---\n\nRules.\n", **tree}
    assert [f for f in lint(always) if f[2] == "GDN008"] == []
    assert [f[2] for f in lint(always) if f[2] == "GDN027"] == ["GDN027"]
    by_globs = {rule: "---\ndescription: Backend rules\nglobs: server/**/*.py,tests/**/*.py\nalwaysApply: false\n---\n\nRules.\n", **tree}
    assert [f[2] for f in lint(by_globs) if f[2] == "GDN008"] == ["GDN008"]
