"""What a rule declares beside its doc: what its verdict depends on (its scope) and,
for a rule about security, the score code scanning ranks it by; and the listing of
`memcheck rules --format json`, which shows the six fields a user reads and no more."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from click.testing import CliRunner
from conftest import fenced_blocks, source_tree

from memcheck import rules
from memcheck.checks import all_rules, rule_families
from memcheck.cli import cli
from memcheck.problem import CHANGE, FILE, SCOPES, STORE, SUPPRESSION, TREE


def test_every_rule_declares_a_known_scope() -> None:
    unknown = {code: rule.scope for code, rule in all_rules().items() if rule.scope not in SCOPES}
    assert unknown == {}


def test_the_guards_rules_judge_a_change_and_the_suppression_rules_come_last() -> None:
    rules = all_rules()
    assert {code for code, rule in rules.items() if rule.scope == CHANGE} == {f"GRD00{n}" for n in range(1, 6)}
    assert {code for code, rule in rules.items() if rule.scope == SUPPRESSION} == {"MCK001", "MCK002"}


def test_a_rule_on_one_memory_is_a_file_rule_and_one_across_the_store_is_not() -> None:
    rules = all_rules()
    assert rules["MEM006"].scope == FILE and rules["MEM019"].scope == FILE
    # Two memories with one name: editing either changes the finding on the other.
    assert rules["MEM011"].scope == STORE and rules["IDX003"].scope == STORE
    assert rules["GDN001"].scope == TREE and rules["SKL009"].scope == TREE


def test_the_json_listing_shows_the_six_fields_a_user_reads() -> None:
    result = CliRunner().invoke(cli, ["rules", "--format", "json"])
    assert result.exit_code == 0, result.output
    listed = json.loads(result.output)
    assert len(listed) == len(all_rules())
    assert {tuple(rule) for rule in listed} == {("code", "name", "severity", "fixable", "summary", "doc")}


def test_the_catalogue_data_lists_every_rule_of_the_families_once() -> None:
    # Settings and suppression comments are checked against the data, without
    # importing a rule: a rule added, removed or moved to another family shows here.
    assert rules.families() == dict(sorted(rule_families()))
    assert len(rule_families()) == len(rules.families())  # no code in two families
    assert (Path(rules.__file__).parent / "resources" / rules.CATALOGUE).read_bytes() == rules.catalogue_text(rule_families()).encode(), (
        "python docs/generate.py"
    )


CHECKS = Path(rules.__file__).parent / "checks"
RULE_TESTS = Path(__file__).parent / "rules"


def _defined_in() -> dict[str, Path]:
    """Where each rule is defined (``CODE = Rule("CODE", ...)``), by code."""
    found: dict[str, Path] = {}
    for path in sorted(CHECKS.rglob("*.py")):
        for node in ast.walk(source_tree(path)):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and getattr(node.value.func, "id", "") == "Rule":
                found[node.value.args[0].value] = path  # type: ignore[attr-defined]
    return found


def _own_modules() -> dict[str, Path]:
    """The rules that have a module of their own (or share one with the two or three
    rules of a named cluster) in a family package: a family's ``__init__`` or a
    ``rules.py`` holding all its rules is a family not yet split."""
    defined = _defined_in()
    return {code: path for code, path in defined.items() if path.parent != CHECKS and path.stem not in ("__init__", "rules")}


def test_every_rule_is_defined_once_in_the_checks() -> None:
    assert sorted(_defined_in()) == sorted(all_rules())


def test_a_rule_module_is_named_after_its_rule_or_its_cluster() -> None:
    by_module: dict[Path, list[str]] = {}
    for code, path in _own_modules().items():
        by_module.setdefault(path, []).append(code)
    wrong = {
        str(path.relative_to(CHECKS)): codes
        for path, codes in by_module.items()
        if not (len(codes) == 1 and path.stem == all_rules()[codes[0]].name.replace("-", "_")) and not 2 <= len(codes) <= 3
    }
    assert wrong == {}


def test_every_rule_with_a_module_of_its_own_has_a_test_file() -> None:
    missing = [code for code in sorted(_own_modules()) if not (RULE_TESTS / f"test_{code.lower()}.py").is_file()]
    assert missing == [], "add tests/unit/rules/test_<code>.py for each"


# The rules whose pages tell their examples in prose rather than as a fenced file: a
# fenced block would hold what the rule reports itself. For the secrets, a key- or
# token-shaped string in the repository, which secret scanners flag (their tests make
# one at run time); for the hidden characters, the characters themselves, which a page
# shows as nothing (or, for a bidi control, as other text). The guard's rules judge a
# commit's paths, not a file's text: their examples are commands, run in tests/cli.
# Each test file still opens with its doc's two examples, built as the prose says. To
# give one a fenced block (one under *Example* that the rule reports, one under *Use
# instead* that it does not, run as the first two cases of its test file, as
# tests/unit/rules/test_mem006.py does), take it off this list.
NOT_SHOWN_YET = {
    "GRD001", "GRD002", "GRD003", "GRD004", "GRD005",  # the guard's rules
    "HID001", "HID002", "HID003", "HID004", "HID005",  # hidden characters and terminal controls
    "SEC001", "SEC002",  # secrets
}  # fmt: skip


def test_every_rules_doc_shows_a_reported_and_a_corrected_example() -> None:
    lacking = {
        code for code, rule in all_rules().items() if not (fenced_blocks(rule.doc, "Example") and fenced_blocks(rule.doc, "Use instead"))
    }
    assert sorted(lacking - NOT_SHOWN_YET) == [], "give the doc a fenced block under both *Example* and *Use instead*"
    assert sorted(NOT_SHOWN_YET - lacking) == [], "this rule's page shows both now: take it off NOT_SHOWN_YET"


def _first_two_tests(source: str) -> list[str]:
    return [node.name for node in ast.parse(source).body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")][:2]


def test_every_rules_test_file_runs_its_docs_examples_as_its_first_two_cases() -> None:
    wrong = {}
    for code in sorted(set(all_rules()) - NOT_SHOWN_YET):
        source = (RULE_TESTS / f"test_{code.lower()}.py").read_text(encoding="utf-8")
        said = source.replace('"', "'")
        runs = {
            "Example": f"example({code!r}" in said.replace(f"example({code!r}, 'Use instead'", ""),
            "Use instead": f"example({code!r}, 'Use instead'" in said,
        }
        first = _first_two_tests(source)
        in_order = len(first) == 2 and first[0].startswith("test_the_docs_example") and first[1].startswith("test_the_docs_use_instead")
        if not (all(runs.values()) and in_order):
            wrong[code] = (runs, first)
    assert wrong == {}, (
        "a rule's test file opens with test_the_docs_example_* (example(CODE)) and test_the_docs_use_instead_* (example(CODE, 'Use instead'))"
    )


def test_the_opt_in_list_is_the_rules_that_say_so_and_their_pages_say_how_to_turn_them_on() -> None:
    # The settings read the list without importing a rule; each opt-in Rule says so itself.
    opt_in = {code for code, rule in all_rules().items() if rule.opt_in}
    assert rules.OPT_IN == opt_in
    for code in opt_in:
        # `select: [CODE]` alone would run that rule only: the page says how to add it to the rest.
        assert f"Off by default: `select: [ALL, {code}]` turns it on with every other" in " ".join(all_rules()[code].doc.split())
