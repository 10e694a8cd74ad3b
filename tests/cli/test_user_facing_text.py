"""What users read speaks of agents and files, never of the documents memcheck was
designed from; and the package says who it is from, under which licence, and where
it lives."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import REPO_ROOT, run_cli

from memcheck.checks import all_rules
from memcheck.output.sarif import INFORMATION_URI, document
from memcheck.problem import Problem

# Design documents users have never seen: "seed 000", "SPEC §4", a "workplace".
DESIGN_WORDS = re.compile(r"\bseeds?\b|\bSPEC\b|§|\bworkplace\b", re.IGNORECASE)


def _design_words(text: str) -> list[str]:
    return [text[max(m.start() - 30, 0) : m.end() + 30] for m in DESIGN_WORDS.finditer(text) if m.group(0) != "spec"]


@pytest.mark.parametrize("page", ["README.md", *sorted(str(p.relative_to(REPO_ROOT)) for p in (REPO_ROOT / "docs").rglob("*.md"))])
def test_readme_and_docs_cite_no_design_document(page: str) -> None:
    assert _design_words((REPO_ROOT / page).read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("code", sorted(all_rules()))
def test_rule_docs_cite_no_design_document(code: str) -> None:
    rule = all_rules()[code]
    assert _design_words(rule.summary + "\n" + rule.doc) == []


def test_memcheck_rule_and_sarif_help_cite_no_design_document(tmp_path: Path) -> None:
    for code in sorted(all_rules()):
        proc = run_cli(tmp_path, "rule", code)
        assert proc.returncode == 0
        assert _design_words(proc.stdout) == [], code
    every_rule = [Problem("AGENTS.md", 1, 1, code, "m", rule.severity) for code, rule in all_rules().items()]
    driver = document(every_rule)["runs"][0]["tool"]["driver"]
    assert len(driver["rules"]) == len(all_rules())
    assert _design_words(json.dumps(driver, ensure_ascii=False)) == []


@pytest.mark.parametrize("command", ["", "check", "fix", "guard", "index", "context", "rules", "rule"])
def test_help_cites_no_design_document(tmp_path: Path, command: str) -> None:
    proc = run_cli(tmp_path, *command.split(), "--help")
    assert proc.returncode == 0
    assert _design_words(proc.stdout) == []


def test_skip_reasons_cite_no_design_document() -> None:
    for path in sorted((REPO_ROOT / "tests").rglob("*.py")):
        for reason in re.findall(r"reason=(\"[^\"]*\"|'[^']*')", path.read_text(encoding="utf-8")):
            assert _design_words(reason) == [], f"{path.name}: {reason}"


def test_the_package_has_its_licence_authors_urls_and_classifiers() -> None:
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib  # type: ignore[no-redef]

    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    licence = (REPO_ROOT / "LICENSE").read_text(encoding="utf-8")
    # An SPDX expression and the file it comes from (PEP 639); setuptools refuses a
    # licence classifier beside them.
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert licence.startswith("MIT License\n") and "Permission is hereby granted, free of charge" in licence
    assert not [c for c in project["classifiers"] if c.startswith("License ::")]
    assert project["authors"]
    # The repository the README, the hooks snippet and the SARIF driver name.
    assert project["urls"]["Repository"] == INFORMATION_URI
    assert all(url.startswith(INFORMATION_URI) for url in project["urls"].values())
    minimum = tuple(int(x) for x in project["requires-python"].removeprefix(">=").split("."))
    versions = [c.rsplit(" :: ", 1)[1] for c in project["classifiers"] if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert versions and tuple(int(x) for x in versions[0].split(".")) == minimum
