"""The guidance family's one pass over each file (checks/guidance/__init__): the facts
several rules read are worked out once per file, and where the first rule asks for them."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import lint

from memcheck.agents import guidance_kinds


def test_the_kind_issues_of_a_file_are_worked_out_once_for_every_rule_that_reads_them(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    real = guidance_kinds.file_issues

    def counting(ws: Any, kind: Any, doc: Any, check_matches: bool) -> Any:
        asked.append(doc.path)
        return real(ws, kind, doc, check_matches)

    monkeypatch.setattr(guidance_kinds, "file_issues", counting)
    # A Kiro steering file with an issue of each rule that reads them: GDN019 (missing
    # fileMatchPattern), GDN005 (inclusion's value), GDN007 (an invalid pattern)...
    files = {
        ".kiro/steering/a.md": "---\ninclusion: fileMatch\n---\n\nRules.\n",
        ".kiro/steering/b.md": "---\ninclusion: sometimes\n---\n\nRules.\n",
        ".kiro/steering/c.md": '---\ninclusion: fileMatch\nfileMatchPattern: "src/[a-z*.ts"\n---\n\nRules.\n',
        "AGENTS.md": "",  # ...and a guidance file's own: GDN019 (no text)
    }
    assert [(path, code) for path, _, code in lint(files)] == [
        (".kiro/steering/a.md", "GDN019"),
        (".kiro/steering/b.md", "GDN005"),
        (".kiro/steering/c.md", "GDN007"),
        ("AGENTS.md", "GDN019"),
    ]
    assert sorted(asked) == sorted(files)


def test_a_file_that_exhausts_the_stack_keeps_the_findings_made_before() -> None:
    # The @-import chain is walked (recursively) after the frontmatter is judged: a chain
    # too deep for the stack is one GDN003 on the file, and its GDN005 stays.
    chain = {f"d/{i}.md": f"@{i + 1}.md\n" for i in range(1, 2000)} | {"d/2000.md": "end\n"}
    files = {"AGENTS.md": '---\nalwaysApply: "yes"\n---\n\n@d/1.md\n', **chain}
    found = [(line, code) for path, line, code in lint(files, config={"guidance": {"max-import-depth": 5000}}) if path == "AGENTS.md"]
    assert found == [(1, "GDN003"), (2, "GDN005")]


@pytest.mark.parametrize(
    ("path", "text", "codes"),
    [
        pytest.param(".claude/CLAUDE.md", "# Claude\n\n@gone.md\n", {"GDN009"}, id="dot-claude-imports"),
        pytest.param("CLAUDE.local.md", "# Mine\n\n[gone](gone.md)\n", {"GDN013"}, id="claude-local-links"),
        pytest.param(".claude/rules/py.md", "---\npaths:\n  - 'src/**/*.py'\n---\nx\n", set(), id="rule-paths-ok"),
        pytest.param(".claude/rules/py.md", "---\npaths: 'src/**/*.py, lib/**'\n---\nx\n", {"GDN008"}, id="rule-paths-comma-one-dead"),
        pytest.param(".claude/rules/py.md", "---\npaths: 3\n---\nx\n", {"GDN005"}, id="rule-paths-number"),
        pytest.param(".claude/rules/py.md", "---\npath: ['src/**']\n---\nx\n", {"GDN006"}, id="rule-path-misspelt"),
        pytest.param(".claude/rules/py.md", "---\npaths: ['src/{a,b']\n---\nx\n", {"GDN007"}, id="rule-paths-unbalanced"),
        pytest.param(".claude/rules/py.md", "---\npaths: ['" + "{a,b}" * 10 + "']\n---\nx\n", {"GDN007"}, id="rule-paths-brace-budget"),
        pytest.param(".github/copilot-instructions.md", "Be brief.\n", set(), id="copilot-repo"),
        pytest.param(".github/copilot-instructions.md", "@workspace rules.\n" + "x" * 4100 + "\n", set(), id="copilot-review-limit-opt-in"),
        pytest.param(".github/instructions/py.instructions.md", "---\napplyTo: '**/*.py,src/**'\n---\nx\n", set(), id="applyTo-comma"),
        pytest.param(".github/instructions/py.instructions.md", "---\napplyTo: '**/*.rs'\n---\nx\n", {"GDN008"}, id="applyTo-dead"),
        pytest.param(
            ".github/instructions/py.instructions.md",
            "---\napplyto: '**/*.py'\nexcludeAgent: reviewer\n---\nx\n",
            {"GDN005", "GDN006"},
            id="applyto-and-excludeAgent",
        ),
        pytest.param(
            ".github/instructions/py.instructions.md",
            "---\napplyTo: '**'\nexcludeAgent: code-review\n---\n" + "x" * 5000 + "\n",
            set(),
            id="review-excluded",
        ),
        pytest.param(
            ".cursor/rules/ts.mdc", "---\ndescription: TS\nglobs: *.py\nalwaysApply: false\n---\nx\n", set(), id="mdc-cursor-written-yaml"
        ),
        pytest.param(".cursor/rules/ts.mdc", "---\nglobs: ['*.rs']\nalwaysApply: 'yes'\n---\nx\n", {"GDN005", "GDN008"}, id="mdc-bad"),
        pytest.param(".cursor/rules/ts.mdc", "---\nalwaysapply: true\nglob: '*.py'\n---\nx\n", {"GDN006"}, id="mdc-misspelt"),
        pytest.param("GEMINI.md", "---\nowner: me\n---\n@src/app.py\n", set(), id="gemini-no-frontmatter-schema"),
        pytest.param("AGENTS.override.md", "---\nalwaysapply: yes\n---\n", set(), id="override-no-frontmatter-schema"),
    ],
)
def test_each_kind_of_guidance_file_is_judged_by_its_own_schema(path: str, text: str, codes: set[str]) -> None:
    assert {code for found, _, code in lint({"src/app.py": "pass\n", path: text}) if found == path} == codes
