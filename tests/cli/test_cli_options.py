"""The options ruff and yamllint users reach for, as they meet them: exit codes and
--fail-on, --select/--ignore, --statistics, --output-file, fix --diff, and a path that
does not exist."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import invoke, memory, run_cli, write

VALID_INDEX = "# Memory\n\n## User\n- [prefs](user_prefs.md) - Prefers short answers\n"


def _warnings_only(repo: Path) -> None:
    """A store with no error and one warning (MEM010: a misspelt key)."""
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user", extra="tpye: user\n"))
    write(repo, ".claude/memory/MEMORY.md", VALID_INDEX)


def _error_and_warning(repo: Path) -> None:
    _warnings_only(repo)
    write(repo, ".claude/memory/feedback_x.md", memory("x", "An unlisted memory", "feedback"))  # IDX003, an error


def test_warnings_are_shown_but_pass_by_default(repo: Path) -> None:
    _warnings_only(repo)
    proc = run_cli(repo, "check")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "MEM010 frontmatter key 'tpye' looks like a misspelling of 'type'" in proc.stdout
    assert "Found 1 problem (0 errors, 1 warning) in 1 store (1 memory)." in proc.stdout


@pytest.mark.parametrize(
    ("setup", "fail_on", "expected"),
    (
        (_warnings_only, None, 0),
        (_warnings_only, "warning", 1),
        (_warnings_only, "error", 0),
        (_error_and_warning, None, 1),
        (_error_and_warning, "error", 1),
        (_error_and_warning, "never", 0),
    ),
)
def test_fail_on_option(repo: Path, setup, fail_on: str | None, expected: int) -> None:  # type: ignore[no-untyped-def]
    setup(repo)
    args = ["check"] + (["--fail-on", fail_on] if fail_on else [])
    assert run_cli(repo, *args).returncode == expected


def test_fail_on_in_the_config_and_the_option_on_top(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _warnings_only(repo)
    write(repo, ".memcheck.yaml", "fail-on: warning\n")
    assert run_cli(repo, "check").returncode == 1
    assert invoke(repo, "check", "--fail-on", "error", monkeypatch=monkeypatch).exit_code == 0
    write(repo, ".memcheck.yaml", "fail-on: sometimes\n")
    bad = run_cli(repo, "check")
    assert bad.returncode == 2 and "fail-on: 'sometimes' is not one of: error, warning, never" in bad.stderr


def test_fix_fails_only_on_what_it_cannot_fix_as_fail_on_says(repo: Path) -> None:
    _error_and_warning(repo)
    fixed = run_cli(repo, "fix")  # the unlisted memory is fixed; the warning is left
    assert fixed.returncode == 0, fixed.stdout
    assert "Fixing .claude/memory/MEMORY.md" in fixed.stdout and "MEM010" in fixed.stdout
    assert run_cli(repo, "fix", "--fail-on", "warning").returncode == 1
    write(repo, ".claude/memory/feedback_y.md", memory("y", "Another", "feedback"))
    assert run_cli(repo, "fix", "--exit-non-zero-on-fix").returncode == 1
    assert run_cli(repo, "fix", "--exit-non-zero-on-fix").returncode == 0  # nothing changed this time


def test_a_path_that_does_not_exist_is_a_usage_error(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _warnings_only(repo)
    for command in ("check", "fix"):
        proc = run_cli(repo, command, ".claud/memory")
        assert proc.returncode == 2, proc.stdout
        assert proc.stderr == "memcheck: error: .claud/memory: no such file or folder\n"
        assert proc.stdout == ""
    result = invoke(repo, "check", ".claude/memory", "nowhere.md", monkeypatch=monkeypatch)
    assert result.exit_code == 2 and "nowhere.md: no such file or folder" in result.stderr


def test_select_and_ignore_on_top_of_the_config(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _error_and_warning(repo)
    write(repo, ".memcheck.yaml", "ignore: [MEM010]\n")

    def codes(*args: str) -> list[str]:
        proc = run_cli(repo, "check", "--format", "json", *args)
        assert proc.returncode in (0, 1), proc.stderr
        return [p["code"] for p in json.loads(proc.stdout)["problems"]]

    assert codes() == ["IDX003"]
    # --select starts afresh, as ruff's does: the config's ignore no longer applies.
    assert codes("--select", "MEM010") == ["MEM010"]
    assert codes("--select", "mem,IDX") == ["IDX003", "MEM010"]
    assert codes("--select", "MEM", "--select", "IDX003", "--ignore", "MEM") == ["IDX003"]
    # --ignore adds to the config's.
    assert codes("--ignore", "IDX003") == []
    result = invoke(repo, "check", "--select", "IDX", monkeypatch=monkeypatch)
    assert result.exit_code == 1 and "IDX003" in result.output and "MEM010" not in result.output


@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_an_unknown_selector_is_a_usage_error(repo: Path, option: str) -> None:
    _warnings_only(repo)
    proc = run_cli(repo, "check", option, "MEM010,XYZ9")
    assert proc.returncode == 2
    assert proc.stderr == f"memcheck: error: {option}: no rule code starts with 'XYZ9'; `memcheck rules` lists them\n"


def test_statistics_count_per_code(repo: Path) -> None:
    _error_and_warning(repo)
    write(repo, ".claude/memory/feedback_z.md", memory("z", "Also unlisted", "feedback"))
    proc = run_cli(repo, "check", "--statistics")
    assert proc.returncode == 1
    assert proc.stdout == (
        "2  IDX003  [*] unlisted-memory\n"
        "1  MEM010      unknown-key\n"
        "Found 3 problems (2 errors, 1 warning) in 1 store (3 memories); 2 fixable with `memcheck fix`.\n"
    )
    as_json = json.loads(run_cli(repo, "check", "--statistics", "--format", "json").stdout)
    assert as_json == [
        {"code": "IDX003", "name": "unlisted-memory", "count": 2, "fixable": True},
        {"code": "MEM010", "name": "unknown-key", "count": 1, "fixable": False},
    ]
    sarif = run_cli(repo, "check", "--statistics", "--format", "sarif")
    assert sarif.returncode == 2 and "--statistics prints text or json" in sarif.stderr


def test_output_file_gets_the_report_and_the_exit_code_is_kept(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _error_and_warning(repo)
    proc = run_cli(repo, "check", "--format", "sarif", "--output-file", "reports/memcheck.sarif")
    assert proc.returncode == 1
    assert proc.stdout == ""
    doc = json.loads((repo / "reports/memcheck.sarif").read_text(encoding="utf-8"))
    assert {r["ruleId"] for r in doc["runs"][0]["results"]} == {"IDX003", "MEM010"}
    result = invoke(repo, "check", "-o", "out.txt", monkeypatch=monkeypatch)
    assert result.exit_code == 1 and result.output == ""
    assert (
        (repo / "out.txt")
        .read_text(encoding="utf-8")
        .endswith("Found 2 problems (1 error, 1 warning) in 1 store (2 memories); 1 fixable with `memcheck fix`.\n")
    )
    write(repo, "blocked", "a file where a folder should be\n")
    bad = run_cli(repo, "check", "-o", "blocked/out.txt")
    assert bad.returncode == 2 and bad.stderr.startswith("memcheck: error: --output-file blocked/out.txt: cannot write it")


def test_fix_diff_shows_what_fix_would_write_and_writes_nothing(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _error_and_warning(repo)
    write(repo, ".memory/a.md", memory("a", "A new store", "project"))  # no index yet
    before = (repo / ".claude/memory/MEMORY.md").read_bytes()
    proc = run_cli(repo, "fix", "--diff")
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == (
        ".claude/memory/MEMORY.md: 4 \u2192 7 lines of 200, 67 \u2192 122 bytes of 25,000\n"  # the index against its caps
        "--- a/.claude/memory/MEMORY.md\n"
        "+++ b/.claude/memory/MEMORY.md\n"
        "@@ -2,3 +2,6 @@\n"
        " \n"
        " ## User\n"
        " - [prefs](user_prefs.md) - Prefers short answers\n"
        "+\n"
        "+## Feedback\n"
        "+- [x](feedback_x.md) - An unlisted memory\n"
        ".memory/MEMORY.md: 0 \u2192 4 lines of 200, 0 \u2192 47 bytes of 25,000\n"
        "--- /dev/null\n"
        "+++ b/.memory/MEMORY.md\n"
        "@@ -0,0 +1,4 @@\n"
        "+# Memory\n"
        "+\n"
        "+## Project\n"
        "+- [a](a.md) - A new store\n"
    )
    assert proc.stderr == "memcheck: fix would rewrite 2 indexes\n"
    assert (repo / ".claude/memory/MEMORY.md").read_bytes() == before
    assert not (repo / ".memory/MEMORY.md").exists()
    # The diff applies, and gives what fix writes.
    git_apply = __import__("subprocess").run(["git", "apply"], cwd=repo, input=proc.stdout, text=True, capture_output=True)
    assert git_apply.returncode == 0, git_apply.stderr
    applied = (repo / ".claude/memory/MEMORY.md").read_bytes(), (repo / ".memory/MEMORY.md").read_bytes()
    assert run_cli(repo, "fix").returncode == 0
    assert applied == ((repo / ".claude/memory/MEMORY.md").read_bytes(), (repo / ".memory/MEMORY.md").read_bytes())
    clean = invoke(repo, "fix", "--diff", monkeypatch=monkeypatch)
    assert clean.exit_code == 0 and clean.output == ""


def test_fix_diff_shows_line_ending_changes_and_a_missing_final_newline(repo: Path) -> None:
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    write(repo, ".claude/memory/MEMORY.md", VALID_INDEX.rstrip("\n"))
    proc = run_cli(repo, "fix", "--diff")
    assert proc.returncode == 1
    assert proc.stdout.endswith(
        "-- [prefs](user_prefs.md) - Prefers short answers\n\\ No newline at end of file\n+- [prefs](user_prefs.md) - Prefers short answers\n"
    )


def test_the_docs_document_every_option_the_comments_the_baseline_and_the_exit_codes() -> None:
    import click
    from conftest import REPO_ROOT

    from memcheck.cli import cli

    docs = REPO_ROOT / "docs"
    commands = (docs / "commands.md").read_text(encoding="utf-8")
    for name, command in cli.commands.items():
        for param in command.params:
            if isinstance(param, click.Option):
                for opt in param.opts:
                    assert f"`{opt}" in commands or f"`{name} {opt}" in commands, f"{name} {opt}"
    suppression = (docs / "suppression-and-baselines.md").read_text(encoding="utf-8")
    for comment in (
        "memcheck-disable-next-line",
        "memcheck-disable-line",
        "memcheck-disable CODE",
        "memcheck-enable",
        "memcheck-disable-file",
    ):
        assert comment in suppression, comment
    assert "# memcheck-disable-next-line MEM010" in suppression  # the frontmatter form
    assert "--write-baseline .memcheck-baseline.json" in suppression and "baseline: .memcheck-baseline.json" in suppression
    exit_codes = commands.split("\n## Exit codes\n", 1)[1].split("\n## ", 1)[0]
    assert all(f"| {code} |" in exit_codes for code in (0, 1, 2))
    reference = (docs / "configuration.md").read_text(encoding="utf-8").split("\n## Every key\n", 1)[1]
    for key in ("fail-on", "baseline"):
        assert f"### `{key}`" in reference
