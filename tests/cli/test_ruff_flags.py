"""`memcheck schema`, and the flags ruff users reach for on check and fix: -q/--quiet,
--exit-zero, --color, and check --fix."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import jsonschema
import pytest
import yaml
from conftest import memory, run_cli, run_process, write

VALID_INDEX = "# Memory\n\n## User\n- [prefs](user_prefs.md) - Prefers short answers\n"

REAL_CONFIG = """\
# yaml-language-server: $schema=.memcheck.schema.json
select: [MEM, IDX]
ignore: [MEM012]
per-path-ignores:
  ".claude/agent-memory/**": [IDX005]
exclude: ["vendor/**"]
agents: [claude-code, codex]
fail-on: warning
baseline: null
memory:
  stores: [.claude/memory]
  types: [user, feedback, project, reference]
  required: [name, description, type]
  stale-after-days: 0
index:
  mode: sync
  style: grouped
  max-lines: 200
guidance:
  max-tokens: 8000
skills:
  roots: [tools/skills]
context:
  max-tokens: 20000
guard:
  disable: [build-outputs]
  allow: ["docs/examples/.env.example"]
"""


def _schema(repo: Path) -> dict[str, Any]:
    proc = run_cli(repo, "schema")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    schema: dict[str, Any] = json.loads(proc.stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def _keys(node: dict[str, Any], at: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    for key, sub in node.get("properties", {}).items():
        yield at + key, sub
        yield from _keys(sub, at + key + ".")
        items = sub.get("items")
        if isinstance(items, dict):
            yield from _keys(items, at + key + "[].")


def test_schema_prints_a_schema_that_validates_a_real_config_and_rejects_a_misspelt_key(repo: Path) -> None:
    schema = _schema(repo)
    write(repo, ".memcheck.yaml", REAL_CONFIG)
    assert run_cli(repo, "check").returncode in (0, 1)  # memcheck itself takes the config
    jsonschema.validate(yaml.safe_load(REAL_CONFIG), schema)
    with pytest.raises(jsonschema.ValidationError, match="fail_on"):
        jsonschema.validate(yaml.safe_load(REAL_CONFIG.replace("fail-on:", "fail_on:")), schema)
    with pytest.raises(jsonschema.ValidationError, match="max-line"):
        jsonschema.validate(yaml.safe_load(REAL_CONFIG.replace("max-lines: 200", "max-line: 200")), schema)


def test_schema_names_no_address_that_does_not_resolve_and_describes_every_key(repo: Path) -> None:
    schema = _schema(repo)
    assert "$id" not in schema  # it pointed at a repository that does not exist
    undescribed = [key for key, node in _keys(schema) if not node.get("description")]
    assert undescribed == []
    assert dict(_keys(schema))["fail-on"]["enum"] == ["error", "warning", "never"]


def test_schema_is_the_file_shipped_with_the_package(repo: Path) -> None:
    from memcheck import config

    assert json.loads(run_cli(repo, "schema").stdout) == config.schema()
