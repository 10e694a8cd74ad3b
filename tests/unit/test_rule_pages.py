"""docs/rules/ holds one page per rule and an index, generated from the rules' own
docs by docs/generate.py: a rule whose doc changed, a new rule without a page or a
page of a rule gone fails here, with the command that regenerates them."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from conftest import REPO_ROOT

from memcheck.hooks.rules import rule_pages, rule_text
from memcheck.rules import RULE_PAGES, all_rules

_spec = importlib.util.spec_from_file_location("docs_generate", REPO_ROOT / "docs" / "generate.py")
assert _spec and _spec.loader
generate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(generate)


def test_every_rule_page_is_committed_and_up_to_date() -> None:
    folder = REPO_ROOT / RULE_PAGES
    pages = {name: text.encode("utf-8") for name, text in rule_pages().items()}
    found = {p.name: p.read_bytes() for p in folder.glob("*")}
    wrong = sorted(name for name in pages.keys() | found.keys() if pages.get(name) != found.get(name))
    assert wrong == [], f"rule pages missing, out of date or of no rule: {', '.join(wrong)}; regenerate them: {generate.REGENERATE}"


def test_a_rule_page_is_what_memcheck_rule_prints_and_links_to_the_index() -> None:
    page = rule_pages()["IDX003.md"]
    assert page.startswith(rule_text(all_rules()["IDX003"]))
    assert page.startswith("# IDX003 unlisted-memory (error)\n\nMemory file is not listed in MEMORY.md. `memcheck fix` fixes it.\n\n## What it does\n")
    assert "## Why is this bad?" in page
    assert page.endswith("\n[All rules](README.md)\n")


def test_the_index_lists_every_rule_with_its_page() -> None:
    index = rule_pages()["README.md"]
    rows = re.findall(r"^\| \[(\w+)\]\((\w+)\.md\) \| ([\w-]+) \| (error|warning) \| (yes|no) \| (.+) \|$", index, re.M)
    assert [r[0] for r in rows] == list(all_rules())
    for code, target, name, severity, fixable, summary in rows:
        rule = all_rules()[code]
        assert (target, name, severity, fixable == "yes", summary) == (code, rule.name, rule.severity, rule.fixable, rule.summary)


def test_the_generator_writes_the_pages_removes_a_gone_rules_page_and_checks(tmp_path: Path) -> None:
    out = tmp_path / "rules"
    assert generate.main(["--check", "--out", str(out)]) == 1
    assert generate.main(["--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(rule_pages())
    assert generate.main(["--check", "--out", str(out)]) == 0
    (out / "MEM001.md").write_text("old\n", encoding="utf-8")
    (out / "XYZ001.md").write_text("a rule gone\n", encoding="utf-8")
    assert generate.stale(out) == ["MEM001.md", "XYZ001.md"]
    assert generate.main(["--out", str(out)]) == 0
    assert generate.stale(out) == [] and not (out / "XYZ001.md").exists()
