"""A memcheck config below the repository root is not read, and MCK003 says so, on
real files: which files count, where the finding points, and that the root's
settings (and only they) apply."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import check_json, git, memory, run_cli, write

INDEX = "# Memory\n\n## User\n- [prefs](user_prefs.md) - Prefers short answers\n"


def _store(repo: Path, folder: str, extra: str = "") -> None:
    write(repo, f"{folder}/user_prefs.md", memory("prefs", "Prefers short answers", "user", extra=extra))
    write(repo, f"{folder}/MEMORY.md", INDEX)


def _mck003(repo: Path, *args: str) -> list[tuple[str, int, str]]:
    return [(p["path"], p["line"], p["message"]) for p in check_json(repo, *args) if p["code"] == "MCK003"]


def test_a_nested_yaml_config_is_reported_and_changes_nothing(repo: Path) -> None:
    _store(repo, "firmware/.claude/memory", extra="tpye: user\n")  # MEM010, which the nested config turns off
    write(repo, "firmware/.memcheck.yaml", "ignore: [MEM010]\n")
    proc = run_cli(repo, "check")
    assert proc.returncode == 0, proc.stdout + proc.stderr  # a warning: it does not fail the run
    assert proc.stdout.splitlines()[:2] == [
        "firmware/.claude/memory/user_prefs.md:5:1: MEM010 frontmatter key 'tpye' looks like a misspelling of 'type': "
        "agents match keys exactly, so this setting is ignored; rename it to type",
        "firmware/.memcheck.yaml:1:1: MCK003 firmware/.memcheck.yaml is not read: memcheck takes its settings from the repository root alone; "
        'move them into the root\'s config, scoped with per-path-ignores ("firmware/**"), and remove them here',
    ]


def test_a_nested_pyproject_counts_only_with_a_memcheck_table(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Project\n\nRun the tests.\n")
    write(repo, "pyproject.toml", '[project]\nname = "root"\n\n[tool.memcheck]\nfail-on = "error"\n')  # the root's: read
    write(
        repo,
        "services/api/pyproject.toml",
        '[project]\nname = "api"\n\n[tool.ruff]\nline-length = 100\n\n[tool.memcheck.index]\nmax-lines = 100\n',
    )
    write(repo, "services/web/pyproject.toml", '[project]\nname = "web"\n# memcheck is run from the root\n')
    write(repo, "services/broken/pyproject.toml", "[tool.memcheck\nnot toml\n")  # not memcheck's to judge
    found = _mck003(repo)
    assert [(path, line) for path, line, _ in found] == [("services/api/pyproject.toml", 7)]
    assert found[0][2].startswith("[tool.memcheck] in services/api/pyproject.toml is not read: ")


def test_the_root_config_and_a_config_given_with_config_are_not_reported(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Project\n\nRun the tests.\n")
    write(repo, ".memcheck.yaml", "fail-on: never\n")
    write(repo, "firmware/.memcheck.yaml", "fail-on: error\n")
    assert [path for path, _, _ in _mck003(repo)] == ["firmware/.memcheck.yaml"]
    proc = run_cli(repo, "check", "--config", "firmware/.memcheck.yaml")
    assert (proc.returncode, proc.stdout) == (0, "No problems found in 1 guidance file.\n")  # it is the config read: no MCK003


def test_exclude_and_per_path_ignores_reach_a_nested_config(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Project\n\nRun the tests.\n")
    write(repo, "vendor/lib/.memcheck.yaml", "select: [ALL]\n")
    write(repo, "firmware/.memcheck.yaml", "select: [ALL]\n")
    write(repo, ".memcheck.yaml", 'exclude: ["vendor/**"]\nper-path-ignores:\n  "firmware/**": [MCK003]\n')
    assert _mck003(repo) == []
    write(repo, ".memcheck.yaml", 'exclude: ["vendor/**"]\n')
    assert [path for path, _, _ in _mck003(repo)] == ["firmware/.memcheck.yaml"]
    assert _mck003(repo, "--ignore", "MCK") == []


def test_paths_given_bring_in_only_their_own_nested_configs(repo: Path) -> None:
    _store(repo, ".claude/memory")
    write(repo, "firmware/.memcheck.yaml", "fail-on: warning\n")
    write(repo, "tools/.memcheck.yaml", "fail-on: warning\n")
    assert [path for path, _, _ in _mck003(repo, "firmware")] == ["firmware/.memcheck.yaml"]
    assert [path for path, _, _ in _mck003(repo, "tools/.memcheck.yaml")] == ["tools/.memcheck.yaml"]
    assert _mck003(repo, ".claude/memory") == []


@pytest.mark.parametrize("command", ["check", "fix"])
def test_a_commit_is_told_of_the_nested_config_it_adds_not_of_older_ones(repo: Path, command: str) -> None:
    _store(repo, ".claude/memory")
    write(repo, "old/.memcheck.yaml", "fail-on: warning\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    write(repo, "firmware/.memcheck.yaml", "ignore: [MEM]\n")
    git(repo, "add", "-A")
    proc = run_cli(repo, command, "--changed")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [line.split(":")[0] for line in proc.stdout.splitlines() if " MCK003 " in line] == ["firmware/.memcheck.yaml"]
    assert [path for path, _, _ in _mck003(repo, "--new-since", "HEAD")] == ["firmware/.memcheck.yaml"]
    assert [path for path, _, _ in _mck003(repo)] == ["firmware/.memcheck.yaml", "old/.memcheck.yaml"]
