"""The command line as users meet it: version, exit codes, output, rules, config errors.

Most tests call memcheck in this process (``run_cli``); those marked ``e2e`` run the
real process, where it is what is tested: lazy imports, the exit at once, locales, a
closed pipe, the console script, and each command once as a user runs it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import REPO_ROOT, invoke, memory, run_cli, write

from memcheck.checks import all_rules
from memcheck.hooks.rules import rule_table


def test_text_output_lines_summary_and_exit_code(repo: Path) -> None:
    write(repo, ".memory/a.md", "no frontmatter\n")
    write(repo, ".memory/MEMORY.md", "- [a](a.md)\n")  # the render: no description, no separator
    proc = run_cli(repo, "check")
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == [
        ".memory/a.md:1:1: MEM002 no YAML frontmatter: start the file with '---', name, description and type, then '---'",
        "Found 1 problem (1 error, 0 warnings) in 1 store (1 memory).",
    ]


def test_colour_only_on_a_terminal_and_never_with_no_color(repo: Path) -> None:
    write(repo, ".memory/a.md", "no frontmatter\n")
    assert "\033[" not in run_cli(repo, "check").stdout  # a pipe is not a terminal
    assert "\033[" in run_cli(repo, "check", env={"FORCE_COLOR": "1"}).stdout
    assert "\033[" not in run_cli(repo, "check", env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout


def test_fix_prints_what_it_rewrote_and_exit_non_zero_on_fix(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, ".memory/a.md", memory("A", "first", "user"))
    result = invoke(repo, "fix", monkeypatch=monkeypatch)
    assert result.exit_code == 0
    assert result.output == "Fixing .memory/MEMORY.md: added 1 (a.md)\nNo problems found in 1 store (1 memory).\n"
    write(repo, ".memory/b.md", memory("B", "second", "user"))
    proc = run_cli(repo, "fix", "--exit-non-zero-on-fix")
    assert proc.returncode == 1
    assert proc.stdout.startswith("Fixing .memory/MEMORY.md: added 1 (b.md)\n")
    assert run_cli(repo, "fix", "--exit-non-zero-on-fix").returncode == 0


def test_index_command_prints_without_writing_and_explains(repo: Path) -> None:
    write(repo, ".memory/a.md", memory("A", "first", "user"))
    proc = run_cli(repo, "index", ".memory")
    assert proc.returncode == 0
    assert proc.stdout == "# Memory\n\n## User\n- [A](a.md) - first\n"
    assert not (repo / ".memory/MEMORY.md").exists()
    explain = run_cli(repo, "index", ".memory", "--explain")
    assert "mode generate" in explain.stdout and "style grouped" in explain.stdout
    missing = run_cli(repo, "index", "nowhere")
    assert missing.returncode == 2
    assert missing.stderr.startswith("memcheck: error: nowhere does not exist (stores here: ")


@pytest.mark.parametrize(
    ("config", "message"),
    [
        pytest.param("index:\n  max_lines: 10\n", "unknown key 'index.max_lines'", id="unknown-key"),
        pytest.param("index:\n  style: fancy\n", "index.style: 'fancy' is not one of", id="bad-enum"),
        pytest.param("index:\n  max-lines: -1\n", "index.max-lines: -1 is below the minimum 1", id="bad-number"),
        pytest.param("ignore: [XYZ]\n", "no rule code starts with 'XYZ'", id="unknown-rule"),
        pytest.param("memory: [a\n", "invalid YAML", id="broken-yaml"),
        pytest.param("- just\n- a list\n", "expected object", id="not-a-mapping"),
    ],
)
def test_bad_config_exits_2_naming_the_problem(repo: Path, config: str, message: str) -> None:
    write(repo, ".memcheck.yaml", config)
    proc = run_cli(repo, "check")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("memcheck: error: .memcheck.yaml")
    assert message in proc.stderr
    assert len(proc.stderr.splitlines()) == 1


def test_pyproject_tool_section_is_read(repo: Path) -> None:
    write(repo, ".memory/Bad.md", memory("B", "b", "user"))
    write(repo, "pyproject.toml", "[tool.memcheck]\nignore = ['MEM012', 'IDX']\n")
    assert run_cli(repo, "check").returncode == 0
    write(repo, "pyproject.toml", "[tool.memcheck]\nignor = ['MEM012']\n")
    proc = run_cli(repo, "check")
    assert proc.returncode == 2 and "unknown key 'ignor'" in proc.stderr


def test_usage_error_exits_2(repo: Path) -> None:
    proc = run_cli(repo, "check", "--format", "nope")
    assert proc.returncode == 2


def test_rules_and_rule(repo: Path) -> None:
    listing = run_cli(repo, "rules")
    assert listing.returncode == 0
    assert len(listing.stdout.splitlines()) == len(all_rules())
    as_json = json.loads(run_cli(repo, "rules", "--format", "json").stdout)
    assert {r["code"] for r in as_json} == set(all_rules())
    for code, rule in all_rules().items():
        for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
            assert heading in rule.doc, (code, heading)
    shown = run_cli(repo, "rule", "idx003")
    assert shown.returncode == 0
    assert shown.stdout.startswith("# IDX003 unlisted-memory (error)")
    assert "memcheck fix` fixes it" in shown.stdout
    unknown = run_cli(repo, "rule", "NOPE1")
    assert unknown.returncode == 2 and "no rule 'NOPE1'" in unknown.stderr


def test_the_rules_page_lists_what_memcheck_rules_prints(repo: Path) -> None:
    # The rule index users read (docs/rules/README.md, which the README links) holds
    # the table `memcheck rules --format markdown` prints, each code linked to its page.
    page = (REPO_ROOT / "docs" / "rules" / "README.md").read_text("utf-8")
    assert "(docs/rules/README.md)" in (REPO_ROOT / "README.md").read_text("utf-8")
    printed = run_cli(repo, "rules", "--format", "markdown").stdout
    assert printed == rule_table()
    unlinked = re.sub(r"^\| \[(\w+)\]\(\1\.md\) \|", r"| \1 |", page[page.index("| Code |") :], flags=re.M)
    assert unlinked == printed, "regenerate the rule pages: python docs/generate.py"


def test_readme_gives_the_two_set_up_commands_and_ci_runs_the_test_one() -> None:
    readme = (REPO_ROOT / "README.md").read_text("utf-8")
    assert "pip install . && .venv/bin/memcheck check" in readme
    marker = readme.index("<!-- ci: test-command -->")
    test_command = [ln for ln in readme[marker:].splitlines()[1:] if ln and not ln.startswith("```")][0]
    # CI's: every supported Python and dependency range (each run installs the test extra).
    assert test_command == "python3 .ci/matrix.py"
    assert "ci: test-command" in (REPO_ROOT / ".ci/run").read_text()
    # The everyday one: one virtualenv with the test extra, and the suite.
    assert "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest\n" in readme


def test_a_folder_outside_any_repository_is_checked_from_anywhere(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    write(notes, ".memory/a.md", memory("A", "a", "infra"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = run_cli(elsewhere, "check", str(notes))
    assert proc.returncode == 1 and proc.stderr == ""
    assert (
        ".memory/a.md:4:1: MEM007 type 'infra' is not one of: user, feedback, project, reference; use one of them, or list 'infra' in memory.types if your team keeps its own types\n"
        in proc.stdout
    )


def test_a_path_outside_the_repository_is_an_error_not_silence(repo: Path, tmp_path: Path) -> None:
    write(repo, ".memory/a.md", memory("A", "a", "user"))
    stray = write(tmp_path, "stray.md", "x\n")
    proc = run_cli(repo, "check", ".memory/a.md", str(stray))
    assert proc.returncode == 2
    assert proc.stderr == f"memcheck: error: {stray} is outside the repository at {repo.resolve()}; check one repository at a time\n"
