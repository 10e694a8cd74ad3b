"""docs/rules/ holds one page per rule and an index, generated from the rules' own
docs by docs/generate.py, and docs/configuration.md the configuration reference,
generated from the config's JSON Schema: a rule whose doc changed, a new rule without
a page, a page of a rule gone or a schema the reference no longer matches fails here,
with the command that regenerates them."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

from conftest import REPO_ROOT

from memcheck.checks import all_rules
from memcheck.config import defaults, schema
from memcheck.hooks.rules import rule_pages, rule_text
from memcheck.rules import RULE_PAGES

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
    assert page.startswith(
        "# IDX003 unlisted-memory (error)\n\nMemory file is not listed in MEMORY.md. `memcheck fix` fixes it.\n\n## What it does\n"
    )
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
    out, docs = tmp_path / "rules", tmp_path / "docs"
    docs.mkdir()
    (docs / generate.CONFIG_INTRO).write_text("# Configuration\n\nHand-written.\n", encoding="utf-8")
    folders = ["--out", str(out), "--docs", str(docs)]
    assert generate.main(["--check", *folders]) == 1
    assert generate.main(folders) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(rule_pages())
    assert (docs / generate.CONFIG_PAGE).read_text(encoding="utf-8").startswith("<!-- Generated")
    assert generate.main(["--check", *folders]) == 0
    (docs / generate.CONFIG_INTRO).write_text("# Configuration\n\nEdited.\n", encoding="utf-8")
    assert generate.main(["--check", *folders]) == 1  # the intro changed: the page is stale
    assert generate.main(folders) == 0 and "Edited." in (docs / generate.CONFIG_PAGE).read_text(encoding="utf-8")
    (out / "MEM001.md").write_text("old\n", encoding="utf-8")
    (out / "XYZ001.md").write_text("a rule gone\n", encoding="utf-8")
    assert generate.stale(out) == ["MEM001.md", "XYZ001.md"]
    assert generate.main(folders) == 0
    assert generate.stale(out) == [] and not (out / "XYZ001.md").exists()


def test_the_configuration_reference_is_committed_and_up_to_date() -> None:
    docs = REPO_ROOT / "docs"
    assert not generate.config_stale(docs), f"docs/configuration.md is out of date; regenerate it: {generate.REGENERATE}"


def _key_paths(node: dict[str, Any], prefix: str = "") -> list[str]:
    paths = []
    for name, child in node.get("properties", {}).items():
        paths += [prefix + name, *_key_paths(child, f"{prefix}{name}."), *_key_paths(child.get("items", {}), f"{prefix}{name}[].")]
    return paths


def test_the_configuration_reference_documents_every_key_with_its_default() -> None:
    page = generate.config_reference("# Configuration\n")
    headings = re.findall(r"^#{3,4} `([^`]+)`$", page, re.M)
    assert headings == _key_paths(schema())
    # A leaf's type and default, and the values an enum allows, as a user writes them.
    fail_on = page.split("### `fail-on`\n", 1)[1].split("\n#", 1)[0]
    assert "- Type: one of `error`, `warning`, `never`" in fail_on and "- Default: `error`" in fail_on
    max_lines = page.split("#### `index.max-lines`\n", 1)[1].split("\n#", 1)[0]
    assert "- Type: integer, at least 1" in max_lines and f"- Default: `{defaults()['index']['max-lines']}`" in max_lines
    disable = page.split("#### `guard.disable`\n", 1)[1].split("\n#", 1)[0]
    assert "`lockfiles`" in disable and "- Default: `[]`" in disable
