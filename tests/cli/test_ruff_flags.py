"""`memcheck schema`, and the flags ruff users reach for on check and fix: -q/--quiet,
--exit-zero, --color, and check --fix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import jsonschema
import pytest
import yaml
from conftest import memory, run_cli, write

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


def test_schema_checks_the_shape_of_rule_codes_as_memcheck_takes_them(repo: Path) -> None:
    from memcheck.checks import all_rules

    schema = _schema(repo)
    every = [code[:n] for code in all_rules() for n in range(1, len(code) + 1)] + ["ALL"]
    jsonschema.validate({"select": every, "ignore": every, "per-path-ignores": {"docs/**": every}}, schema)
    for bad in ("mem010", "MEM-10", "MEM0100", "IDX 3"):
        for config in ({"select": [bad]}, {"ignore": [bad]}, {"per-path-ignores": {"docs/**": [bad]}}):
            with pytest.raises(jsonschema.ValidationError):
                jsonschema.validate(config, schema)
        write(repo, ".memcheck.yaml", f"select: [{json.dumps(bad)}]\n")
        assert run_cli(repo, "check").returncode == 2  # memcheck refuses what the schema refuses


def test_schema_names_the_files_it_covers_for_a_schema_catalogue(repo: Path) -> None:
    description = _schema(repo)["description"]
    assert 'fileMatch: [".memcheck.yaml"]' in description and "[tool.memcheck]" in description
    note = (Path(__file__).resolve().parents[2] / "docs" / "schema.md").read_text(encoding="utf-8")
    entry = json.loads(note.split("```json\n", 1)[1].split("```", 1)[0])
    assert entry["fileMatch"] == [".memcheck.yaml"] and entry["name"] == "memcheck"


def test_schema_is_the_file_shipped_with_the_package(repo: Path) -> None:
    from memcheck import config

    assert json.loads(run_cli(repo, "schema").stdout) == config.schema()


def _unlisted(repo: Path) -> None:
    """A store with one error fix can mend (IDX003: a memory the index does not list)."""
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    write(repo, ".claude/memory/MEMORY.md", VALID_INDEX)
    write(repo, ".claude/memory/feedback_x.md", memory("x", "An unlisted memory", "feedback"))


def _clean(repo: Path) -> None:
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    write(repo, ".claude/memory/MEMORY.md", VALID_INDEX)


@pytest.mark.parametrize("flag", ["-q", "--quiet"])
def test_quiet_prints_nothing_on_a_clean_run(repo: Path, flag: str) -> None:
    _clean(repo)
    assert run_cli(repo, "check").stdout == "No problems found in 1 store (1 memory).\n"
    proc = run_cli(repo, "check", flag)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_quiet_prints_the_findings_and_no_summary_line(repo: Path) -> None:
    _unlisted(repo)
    proc = run_cli(repo, "check", "-q")
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == [line for line in run_cli(repo, "check").stdout.splitlines() if not line.startswith("Found ")]
    assert "IDX003" in proc.stdout and "Found" not in proc.stdout


def test_quiet_statistics_counts_without_the_summary_line(repo: Path) -> None:
    _unlisted(repo)
    out = run_cli(repo, "check", "-q", "--statistics").stdout
    assert "IDX003" in out and "Found" not in out


def test_fix_quiet_says_nothing_when_it_mends_everything(repo: Path) -> None:
    _unlisted(repo)
    proc = run_cli(repo, "fix", "-q")
    assert (proc.returncode, proc.stdout) == (0, "")
    assert "feedback_x.md" in (repo / ".claude/memory/MEMORY.md").read_text()


def test_exit_zero_reports_failing_findings_and_exits_0(repo: Path) -> None:
    _unlisted(repo)
    proc = run_cli(repo, "check", "--exit-zero")
    assert proc.returncode == 0
    assert "IDX003" in proc.stdout and "Found 1 problem (1 error" in proc.stdout
    assert run_cli(repo, "fix", "--diff", "--exit-zero").returncode == 0
    assert (repo / ".claude/memory/MEMORY.md").read_text() == VALID_INDEX


def test_exit_zero_beats_exit_non_zero_on_fix(repo: Path) -> None:
    _unlisted(repo)
    assert run_cli(repo, "fix", "--exit-zero", "--exit-non-zero-on-fix").returncode == 0


@pytest.mark.parametrize(
    "args",
    [("check", "--exit-zero", "--select", "NOPE1"), ("fix", "--exit-zero", "missing/"), ("check", "--exit-zero", "--config", "bad.yaml")],
)
def test_exit_zero_still_exits_2_on_a_usage_or_config_error(repo: Path, args: tuple[str, ...]) -> None:
    write(repo, "bad.yaml", "fail_on: error\n")
    proc = run_cli(repo, *args)
    assert proc.returncode == 2 and proc.stderr.startswith("memcheck: error: "), proc.stderr


@pytest.mark.parametrize(
    ("args", "env", "coloured"),
    [
        ((), {}, False),  # not a terminal
        (("--color", "auto"), {}, False),
        (("--color", "always"), {}, True),
        (("--color", "always"), {"NO_COLOR": "1"}, True),  # the flag is asked for here and now
        (("--color", "never"), {"FORCE_COLOR": "1"}, False),
        ((), {"FORCE_COLOR": "1"}, True),
        ((), {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
        ((), {"FORCE_COLOR": "0"}, True),  # set and not empty, as ruff reads it
        ((), {"CLICOLOR_FORCE": "1"}, True),
        ((), {"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, False),
    ],
)
def test_color_flag_and_environment(repo: Path, args: tuple[str, ...], env: dict[str, str], coloured: bool) -> None:
    _unlisted(repo)
    write(
        repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user", extra="tpye: user\n")
    )  # MEM010: fix leaves it
    for command in ("check", "fix"):
        out = run_cli(repo, command, *args, env=env).stdout
        assert "MEM010" in out
        assert ("\033[" in out) == coloured, (command, out)


def test_color_always_never_goes_into_an_output_file(repo: Path) -> None:
    _unlisted(repo)
    assert run_cli(repo, "check", "--color", "always", "-o", "report.txt").returncode == 1
    assert "IDX003" in (repo / "report.txt").read_text() and "\033[" not in (repo / "report.txt").read_text()


def test_color_takes_only_auto_always_never(repo: Path) -> None:
    proc = run_cli(repo, "check", "--color", "sometimes")
    assert proc.returncode == 2 and "sometimes" in proc.stderr


def test_check_fix_fixes_then_reports_what_is_left(repo: Path) -> None:
    _unlisted(repo)
    write(
        repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user", extra="tpye: user\n")
    )  # MEM010: fix leaves it
    proc = run_cli(repo, "check", "--fix")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "feedback_x.md" in (repo / ".claude/memory/MEMORY.md").read_text()
    assert proc.stdout.startswith("Fixing .claude/memory/MEMORY.md: added 1 (feedback_x.md)\n")
    assert "MEM010" in proc.stdout and "IDX003" not in proc.stdout
    again = run_cli(repo, "check", "--fix")
    assert again.returncode == 0 and "Fixing" not in again.stdout


@pytest.mark.parametrize("other", [("--statistics",), ("--write-baseline", "b.json"), ("--user",)])
def test_check_fix_refuses_what_fix_does_not_do(repo: Path, other: tuple[str, ...]) -> None:
    _unlisted(repo)
    proc = run_cli(repo, "check", "--fix", *other)
    assert proc.returncode == 2 and proc.stderr.startswith("memcheck: error: --fix "), proc.stderr
    assert "feedback_x.md" not in (repo / ".claude/memory/MEMORY.md").read_text()


def test_the_readme_points_the_editor_at_the_file_memcheck_schema_writes(repo: Path) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    written = "memcheck schema > .memcheck.schema.json"
    assert written in readme
    block = readme.split("```yaml\n# yaml-language-server: $schema=.memcheck.schema.json\n", 1)[1].split("```", 1)[0]
    jsonschema.validate(yaml.safe_load(block), _schema(repo))
    assert 'path = "./.memcheck.schema.json"' in readme
