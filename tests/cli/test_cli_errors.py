"""What the command line says when something is wrong, and the small behaviours ruff
and no-color.org users expect: one `memcheck: error: ...` line and exit 2, never a
traceback or an internal error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import git, invoke, memory, run_cli, store_with_unlisted, write


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_output_file_on_a_full_disk_is_one_error_line(repo: Path) -> None:
    store_with_unlisted(repo)
    proc = run_cli(repo, "check", "-o", "/dev/full")
    assert proc.returncode == 2
    assert proc.stderr == "memcheck: error: --output-file /dev/full: cannot write it: No space left on device\n"


@pytest.mark.skipif(not os.path.exists("/proc/version"), reason="needs /proc (Linux)")
def test_fix_diff_into_a_file_that_takes_no_writes_is_one_error_line(repo: Path) -> None:
    store_with_unlisted(repo)
    proc = run_cli(repo, "fix", "--diff", "-o", "/proc/version")
    assert proc.returncode == 2
    assert proc.stderr.startswith("memcheck: error: --output-file /proc/version: cannot write it")
    assert "internal error" not in proc.stderr


def test_an_empty_no_color_counts_as_unset(repo: Path) -> None:
    store_with_unlisted(repo)
    assert "\x1b[" in run_cli(repo, "check", env={"FORCE_COLOR": "1", "NO_COLOR": ""}).stdout
    assert "\x1b[" not in run_cli(repo, "check", env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout


def test_an_output_file_never_gets_colour(repo: Path) -> None:
    store_with_unlisted(repo)
    proc = run_cli(repo, "check", "-o", "report.txt", env={"FORCE_COLOR": "1"})
    assert proc.returncode == 1
    text = (repo / "report.txt").read_text(encoding="utf-8")
    assert "IDX003" in text and "\x1b[" not in text


def test_output_file_dash_is_standard_output(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store_with_unlisted(repo)
    proc = run_cli(repo, "check", "-o", "-")
    assert proc.returncode == 1 and "IDX003" in proc.stdout
    assert not (repo / "-").exists()
    result = invoke(repo, "check", "-o", "-", monkeypatch=monkeypatch)
    assert result.exit_code == 1 and "IDX003" in result.output and not (repo / "-").exists()


@pytest.mark.parametrize("value", ("", ",", " , "))
def test_an_empty_select_is_a_usage_error(repo: Path, value: str) -> None:
    store_with_unlisted(repo)
    proc = run_cli(repo, "check", "--select", value)
    assert proc.returncode == 2
    assert proc.stderr == "memcheck: error: --select needs rule codes or prefixes (`memcheck rules` lists them)\n"


def test_the_more_specific_of_select_and_ignore_wins(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store_with_unlisted(repo)  # project_b.md has MEM010 (misspelt key 'tpye')
    proc = run_cli(repo, "check", "--select", "MEM010", "--ignore", "MEM01")
    assert "MEM010" in proc.stdout, proc.stdout + proc.stderr
    assert "MEM010" not in run_cli(repo, "check", "--select", "MEM01", "--ignore", "MEM010").stdout
    result = invoke(repo, "check", "--select", "MEM010", "--ignore", "MEM", monkeypatch=monkeypatch)
    assert "MEM010" in result.output


def test_the_report_never_overwrites_the_baseline(repo: Path) -> None:
    store_with_unlisted(repo)
    assert run_cli(repo, "check", "--write-baseline", "bl.json").returncode == 0
    before = (repo / "bl.json").read_bytes()
    proc = run_cli(repo, "check", "--baseline", "bl.json", "-o", "bl.json")
    assert (
        proc.returncode == 2 and proc.stderr == "memcheck: error: --output-file bl.json is the baseline; write the report to another file\n"
    )
    write(repo, ".memcheck.yaml", "baseline: bl.json\n")
    assert run_cli(repo, "check", "-o", "./bl.json").returncode == 2
    assert run_cli(repo, "check", "--write-baseline", "x.json", "-o", "x.json").returncode == 2
    assert (repo / "bl.json").read_bytes() == before


@pytest.mark.parametrize(
    ("setup", "args", "message"),
    (
        pytest.param("dup", (), "memcheck: error: .memcheck.yaml:2: key 'fail-on' is given twice; keep one\n", id="duplicate-key"),
        pytest.param(
            "folder",
            (),
            "memcheck: error: .memcheck.yaml is not a file; memcheck reads its settings from a file of that name\n",
            id="config-folder",
        ),
        pytest.param(
            "",
            ("--config", "/dev/null"),
            "memcheck: error: config file /dev/null is a device, not a regular file; not read: replace it with a file\n",
            id="config-dev-null",
        ),
        pytest.param("", ("--config", "nope.yaml"), "memcheck: error: config file nope.yaml does not exist\n", id="config-missing"),
    ),
)
def test_config_errors(repo: Path, setup: str, args: tuple[str, ...], message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store_with_unlisted(repo)
    if setup == "dup":
        write(repo, ".memcheck.yaml", "fail-on: error\nfail-on: warning\n")
    elif setup == "folder":
        (repo / ".memcheck.yaml").mkdir()
    proc = run_cli(repo, "check", *args)
    assert proc.returncode == 2 and proc.stderr == message
    result = invoke(repo, "check", *args, monkeypatch=monkeypatch)
    assert result.exit_code == 2


@pytest.mark.parametrize("args", (("check",), ("check", "--changed"), ("check", "."), ("fix",)))
def test_a_bare_repository_has_no_work_tree(tmp_path: Path, args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    proc = run_cli(bare, *args)
    assert proc.returncode == 2
    assert proc.stderr.endswith("remote.git is a bare git repository: it has no work tree to check; run memcheck in a clone\n"), proc.stderr
    assert invoke(bare, *args, monkeypatch=monkeypatch).exit_code == 2


def test_a_store_that_does_not_exist_is_named_so(repo: Path) -> None:
    proc = run_cli(repo, "index", "/nope")
    assert proc.returncode == 2 and proc.stderr.startswith("memcheck: error: /nope does not exist (stores here: ")


@pytest.mark.parametrize(
    ("frontmatter", "line", "hint"),
    (
        pytest.param('note: "tab \x01 here"\n', 5, False, id="control-character-in-a-quoted-value"),
        pytest.param("ke\x01y: v\n", 5, False, id="control-character-in-a-key"),
        pytest.param("note: a: b\n", 5, True, id="unquoted-colon"),
    ),
)
def test_mem004_advice_and_line(repo: Path, frontmatter: str, line: int, hint: bool) -> None:
    write(repo, ".claude/memory/project_a.md", memory("a", "About a", "project", extra=frontmatter))
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n## Project\n- [a](project_a.md) - About a\n")
    proc = run_cli(repo, "check", "--select", "MEM004", "--format", "json")
    import json

    (found,) = json.loads(proc.stdout)["problems"]
    assert found["line"] == line
    assert ("quote the value of 'note'" in found["message"]) == hint


def test_an_oversized_guidance_file_is_said_to_be_so(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Agents\n" + "x" * (1024 * 1024 + 10) + "\n")
    proc = run_cli(repo, "check", "--format", "json")
    import json

    (found,) = [p for p in json.loads(proc.stdout)["problems"] if p["code"] == "GDN003"]
    assert "is larger than 1024 KiB; not read" in found["message"]
    rules = run_cli(repo, "rules")
    line = next(x for x in rules.stdout.splitlines() if "GDN003" in x)
    assert "UTF-8 text" not in line and "over 1 MiB" in line


def test_guard_patterns_comment_cites_no_design_document() -> None:
    from importlib import resources

    text = resources.files("memcheck").joinpath("resources/guard-patterns.json").read_text(encoding="utf-8")
    assert "SPEC" not in text and "seed" not in text.lower()


@pytest.mark.slow  # 3,000 patterns compiled to re2's limit: a second of CPU each
@pytest.mark.parametrize(("key", "args"), [("exclude", ("check",)), ("guard:\n  patterns", ("guard", "--paths-from", "-"))])
def test_patterns_re2_cannot_match_as_one_set_are_a_config_error(repo: Path, key: str, args: tuple[str, ...]) -> None:
    # Each line is a valid pattern; together they spend re2's memory budget for a set
    # (found by an outside attack: "internal error: ValueError", exit 2, no key named).
    indent = "    " if ":" in key else "  "
    write(repo, ".memcheck.yaml", f"{key}:\n" + "".join(f'{indent}- "**/*a*a*a*{i}*b/**"\n' for i in range(3000)))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "config")
    proc = run_cli(repo, *args, input="x/aaa1b/c\n")
    assert proc.returncode == 2
    assert "patterns are too many, or too complex, to match together" in proc.stderr
    assert "internal error" not in proc.stderr
