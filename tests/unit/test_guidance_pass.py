"""The guidance family's one pass over each file (checks/guidance/__init__): the facts
several rules read are worked out once per file, and where the first rule asks for them."""
from __future__ import annotations

from typing import Any

import pytest
from conftest import lint

from memcheck import guidance_kinds


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
    assert [(path, code) for path, _, code in lint(files)] == [(".kiro/steering/a.md", "GDN019"), (".kiro/steering/b.md", "GDN005"), (".kiro/steering/c.md", "GDN007"), ("AGENTS.md", "GDN019")]
    assert sorted(asked) == sorted(files)


def test_a_file_that_exhausts_the_stack_keeps_the_findings_made_before() -> None:
    # The @-import chain is walked (recursively) after the frontmatter is judged: a chain
    # too deep for the stack is one GDN003 on the file, and its GDN005 stays.
    chain = {f"d/{i}.md": f"@{i + 1}.md\n" for i in range(1, 2000)} | {"d/2000.md": "end\n"}
    files = {"AGENTS.md": '---\nalwaysApply: "yes"\n---\n\n@d/1.md\n', **chain}
    found = [(line, code) for path, line, code in lint(files, config={"guidance": {"max-import-depth": 5000}}) if path == "AGENTS.md"]
    assert found == [(1, "GDN003"), (2, "GDN005")]
