"""What a rule declares beside its doc: what its verdict depends on (its scope) and,
for a rule about security, the score code scanning ranks it by; and the listing of
`memcheck rules --format json`, which shows the six fields a user reads and no more."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

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
    assert (Path(rules.__file__).parent / "resources" / rules.CATALOGUE).read_bytes() == rules.catalogue_text(rule_families()).encode(), "python docs/generate.py"
