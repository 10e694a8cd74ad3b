"""cli: the tests that need a real memcheck process (signals, encodings, lazy imports, console scripts).

The in-process tests of the same behaviour are in tests/cli/test_cli.py.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import test_ci_formats as ci_formats
from conftest import git, memory, plain, run_cli, run_process, write

from memcheck.checks import all_rules


def _imports(root: Path, args: list[str], module: str) -> bool:
    """Whether running memcheck with args in root imports module."""
    probe = f"import sys\nfrom memcheck.cli import main\ntry:\n    main({args!r})\nfinally:\n    print('IMPORTED=' + str({module!r} in sys.modules))\n"
    proc = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True)
    assert "IMPORTED=" in proc.stdout, proc.stderr
    return "IMPORTED=True" in proc.stdout


def _store_and_env(root: Path) -> None:
    write(root, "README.md", "# project\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    write(root, ".memory/a.md", memory("A", "first", "user"))
    write(root, "CLAUDE.md", "# Project\n\nRun the tests.\n")
    write(root, ".env", "A=1\n")
    git(root, "add", "-f", ".env")


# Each command once as a user runs it, a real process: its exit code and output.
COMMANDS = [
    pytest.param(["check"], 1, ".memory/MEMORY.md:1:1: IDX001", id="check"),
    pytest.param(["fix"], 0, "Fixing .memory/MEMORY.md: added 1 (a.md)\n", id="fix"),
    pytest.param(["guard"], 1, ".env:1:1: GRD001 added: guarded by category env", id="guard"),
    pytest.param(["index", ".memory"], 0, "# Memory\n\n## User\n- [A](a.md) - first\n", id="index"),
    pytest.param(["context", ".", "--agent", "claude-code"], 0, "CLAUDE.md", id="context"),
    pytest.param(["rules"], 0, "IDX003", id="rules"),
]


@pytest.mark.e2e
def test_version_imports_neither_yaml_git_pathspec_nor_the_language_server(tmp_path: Path) -> None:
    probe = (
        "import sys\n"
        "from memcheck.cli import main\n"
        "try:\n"
        "    main(['--version'])\n"
        "finally:\n"
        "    heavy = sorted(m for m in ('yaml', 'git', 'pathspec', 'pygls', 'lsprotocol') if m in sys.modules)\n"
        "    print('HEAVY=' + ','.join(heavy))\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert proc.stdout.startswith("memcheck ")
    assert proc.stdout.rstrip().endswith("HEAVY=")


@pytest.mark.e2e
def test_check_on_a_plain_folder_never_imports_git(tmp_path: Path) -> None:
    write(tmp_path, ".memory/a.md", memory("A", "a", "user"))
    assert not _imports(tmp_path, ["check"], "git")


@pytest.mark.e2e
def test_a_hook_run_on_plain_memories_never_imports_yaml(repo: Path) -> None:
    # Words, quoted strings and dates are read without PyYAML (its import is a
    # large share of a hook run).
    write(repo, ".memory/a.md", memory("A", '"quoted, with a comma"', "user", extra="created: 2025-01-10\n"))
    write(repo, ".memory/MEMORY.md", "- [A](a.md) — quoted, with a comma\n")
    assert not _imports(repo, ["check", ".memory/a.md"], "yaml")
    # As the hook runs it: what the commit stages.
    git(repo, "add", "-A")
    assert not _imports(repo, ["check", "--changed"], "yaml")
    assert not _imports(repo, ["check", "--changed"], "git")


@pytest.mark.e2e
def test_a_commit_that_leaves_the_settings_as_they_were_imports_no_guard_policy(repo: Path) -> None:
    # The settings read from HEAD and from the disk are the same (only the file they
    # were read from differs): nothing is judged again by HEAD's settings, and the
    # guard's policy (its tiers, categories and patterns) is not imported.
    write(repo, ".memcheck.yaml", "fail-on: error\n")
    write(repo, ".memory/a.md", memory("A", "first", "user"))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    write(repo, ".memory/a.md", memory("A", "first", "user") + "More.\n")
    git(repo, "add", "-A")
    assert not _imports(repo, ["check", "--changed"], "memcheck.guard.policy")
    # A commit that changes them is judged by HEAD's too.
    write(repo, ".memcheck.yaml", "fail-on: warning\n")
    git(repo, "add", "-A")
    assert _imports(repo, ["check", "--changed"], "memcheck.guard.policy")


@pytest.mark.e2e
def test_the_usual_slips_are_reported_without_importing_yaml(repo: Path) -> None:
    # A colon in a plain value, a quote never closed: YAML rejects both, what it says
    # is told from the line (text/yamltext.py), and so is which value to quote.
    write(repo, ".memory/a.md", "---\nname: A\ndescription: Deploy notes: see the runbook\ntype: user\n---\nBody.\n")
    write(repo, ".memory/b.md", "---\nname: B\ndescription: 'never closed\ntype: user\n---\nBody.\n")
    write(repo, ".memory/MEMORY.md", "- [A](a.md) — a\n- [B](b.md) — b\n")
    git(repo, "add", "-A")
    proc = run_cli(repo, "check")
    assert (
        ".memory/a.md:3:1: MEM004 frontmatter is not valid YAML (mapping values are not allowed here); quote the value of 'description'"
        in proc.stdout
    )
    assert ".memory/b.md:" in proc.stdout and "MEM004" in proc.stdout
    assert not _imports(repo, ["check", "--no-cache"], "yaml")


@pytest.mark.e2e
def test_a_whole_tree_found_kept_imports_no_yaml(repo: Path) -> None:
    # A frontmatter only PyYAML reads (a nested list): the first check imports it; the
    # next, every part kept, does not.
    write(repo, ".memory/a.md", memory("A", "first", "user", extra="tags:\n  - [one, two]\n"))
    write(repo, ".memory/MEMORY.md", "- [A](a.md) — first\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")
    assert _imports(repo, ["check"], "yaml")
    assert not _imports(repo, ["check"], "yaml")


@pytest.mark.e2e
def test_the_commit_hooks_load_no_openssl(repo: Path) -> None:
    # Loading OpenSSL's libcrypto (hashlib, hmac) costs each hook process more than the
    # few hashes it takes: git's blob ids, the cache's keys and seals come without it,
    # on the first commit (no cache yet) and on the next (the cache read and sealed).
    write(repo, ".memory/a.md", memory("A", "first", "user"))
    write(repo, ".memory/MEMORY.md", "- [A](a.md) — first\n")
    git(repo, "add", "-A")
    for _ in range(2):
        for hook in (["check", "--changed"], ["fix", "--changed", "--exit-non-zero-on-fix"], ["guard"]):
            assert not _imports(repo, hook, "_hashlib"), hook
        git(repo, "commit", "-qm", "memory")
        write(repo, ".memory/a.md", memory("A", "first", "user") + "More.\n")
        git(repo, "add", "-A")


def _heavy_modules(root: Path, args: list[str]) -> tuple[str, list[str]]:
    """What running memcheck with args in root prints, and which of the modules a run
    that finds no agent file needs none of it imported: PyYAML, GitPython, pathspec,
    the rule families, discovery and the agent data (the TOML parser included)."""
    probe = (
        "import sys\n"
        "from memcheck.cli import main\n"
        "try:\n"
        f"    main({args!r})\n"
        "finally:\n"
        "    heavy = ('yaml', 'git', 'pathspec', 'tomllib', 'memcheck.checks', 'memcheck.agents', 'memcheck.agents.kinds', 'memcheck.workspace.discover', 'memcheck.workspace.source_files', 'memcheck.workspace.found', 'memcheck.workspace.derived')\n"
        "    print('HEAVY=' + ','.join(sorted(m for m in sys.modules if m.startswith(heavy))))\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True)
    out, _, heavy = proc.stdout.rpartition("HEAVY=")
    assert heavy, proc.stderr
    return out, [m for m in heavy.strip().split(",") if m]


@pytest.mark.e2e
def test_check_of_a_repository_without_agent_files_imports_only_what_it_needs(repo: Path) -> None:
    # No path that could be an agent file: the summary line without discovery, the
    # agent data, YAML or the rules.
    write(repo, "README.txt", "A project.\n")
    write(repo, "src/main.py", "print(1)\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    for tree in (["check"], ["check", "."]):
        out, heavy = _heavy_modules(repo, tree)
        assert out == "No agent files found (guidance files, memory stores, skills): nothing to check.\n"
        assert heavy == []
    # A commit that touches no agent file, in a tree that has some.
    write(repo, ".memory/a.md", memory("A", "first", "user"))
    write(repo, ".memory/MEMORY.md", "- [A](a.md) — first\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "memory")
    write(repo, "src/main.py", "print(2)\n")
    git(repo, "add", "-A")
    for hook in (["check", "--changed"], ["fix", "--changed", "--exit-non-zero-on-fix"]):
        out, heavy = _heavy_modules(repo, hook)
        assert out == "The change touches no agent files: nothing to check.\n"
        assert heavy == []
    out, heavy = _heavy_modules(repo, ["check", "src/main.py", "README.txt"])
    assert out == "No agent files in the paths given: nothing to check.\n"
    assert heavy == []
    # A tree with agent files is still checked, and so is a change that deletes a file
    # (a guidance file or skill may have linked it). (Without the cache: with it, a
    # part found kept is checked without importing its rules.)
    assert "memcheck.checks.memory" in _heavy_modules(repo, ["check", "--no-cache"])[1]
    git(repo, "rm", "-qf", "src/main.py")
    assert "memcheck.checks.memory" in _heavy_modules(repo, ["check", "--changed", "--no-cache"])[1]


@pytest.mark.e2e
def test_the_command_exits_at_once_yet_loses_no_output(repo: Path) -> None:
    # entry() skips the interpreter's teardown: everything written must still arrive,
    # with the exit code, on both standard streams.
    for i in range(300):  # each name holds a space (MEM012): 300 findings, and IDX001
        write(repo, f".memory/Note {i:03}.md", memory(f"N{i}", "x", "user"))
    proc = run_process(repo, "check", "--format", "json")
    assert proc.returncode == 1
    codes = [p["code"] for p in json.loads(proc.stdout)["problems"]]
    assert codes.count("MEM012") == 300 and codes.count("IDX001") == 1
    listing = json.loads(run_process(repo, "rules", "--format", "json").stdout)
    assert [r["code"] for r in listing] == sorted(all_rules())
    bad = run_process(repo, "check", "--config", "missing.yaml")
    assert bad.returncode == 2 and bad.stderr.startswith("memcheck: error: ") and bad.stderr.endswith("\n")


@pytest.mark.e2e
def test_python_dash_m_and_console_script_agree(repo: Path) -> None:
    module = run_process(repo, "--version")
    script = subprocess.run([str(Path(sys.executable).parent / "memcheck"), "--version"], cwd=repo, capture_output=True, text=True)
    assert module.returncode == script.returncode == 0
    assert module.stdout == script.stdout
    assert re.fullmatch(r"memcheck \d+\.\d+\.\d+\n", module.stdout)


@pytest.mark.e2e
def test_output_is_byte_identical_under_any_locale_and_survives_non_utf8_names(repo: Path) -> None:
    write(repo, ".memory/a.md", memory("Caf\u00e9", "d\u00e9j\u00e0 vu", "nope"))
    (repo / ".memory").joinpath(b"caf\xe9.md".decode("utf-8", "surrogateescape")).write_text("no frontmatter\n")
    outputs = {
        locale: run_process(repo, "check", "--format", fmt, env={"LC_ALL": locale, "LANG": locale, "PYTHONIOENCODING": ""}).stdout
        for locale in ("C", "C.UTF-8", "en_US.ISO-8859-1")
        for fmt in ("text",)
    }
    assert len(set(outputs.values())) == 1
    text = next(iter(outputs.values()))
    assert ".memory/caf\\udce9.md:1:1: MEM002" in text
    assert "type 'nope'" in text


@pytest.mark.e2e
def test_a_closed_pipe_is_not_an_internal_error(repo: Path) -> None:
    for i in range(300):
        write(repo, f".memory/m{i}.md", "no frontmatter\n")
    proc = subprocess.run(f"{sys.executable} -m memcheck check | head -1", shell=True, cwd=repo, capture_output=True, text=True)
    assert proc.stdout.startswith(".memory/")
    assert "internal error" not in proc.stderr


CLOSED_STREAM_LINES = [
    # (the line, the stream closed, the exit code the run gives with it open)
    (["guard"], ">&-", 0),
    (["guard", "--list"], ">&-", 0),
    (["check", "--exit-zero"], ">&-", 0),
    (["check", ".", "--exit-zero"], ">&-", 0),  # through click
    (["check"], ">&-", 1),
    (["--version"], ">&-", 0),
    (["guard"], "2>&-", 0),
    (["check", "--exit-zero"], "2>&-", 0),
    (["check", "--bogus"], "2>&-", 2),
    (["guard", "--paths-from", "-"], "<&-", 0),
]


@pytest.mark.e2e
@pytest.mark.parametrize(("args", "closed", "code"), CLOSED_STREAM_LINES, ids=lambda v: " ".join(v) if isinstance(v, list) else str(v))
def test_a_stream_the_caller_closed_changes_nothing_but_what_is_shown(repo: Path, args: list[str], closed: str, code: int) -> None:
    # A hook run with its output closed still gives the run's verdict: no traceback,
    # no "internal error", no usage text moved onto the report's stream.
    write(repo, ".memory/m.md", "no frontmatter\n")
    git(repo, "add", "-A")
    line = " ".join([sys.executable, "-m", "memcheck", *args])
    proc = subprocess.run(f"{line} {closed}", shell=True, cwd=repo, capture_output=True, text=True)
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "internal error" not in proc.stdout + proc.stderr
    if closed == "2>&-":
        assert "Usage" not in proc.stdout and "memcheck: " not in proc.stdout


@pytest.mark.e2e
@pytest.mark.parametrize("memories", [1, 300])
def test_a_reader_that_left_gives_exit_1_wherever_the_break_is_met(repo: Path, memories: int) -> None:
    # The reader has left before memcheck writes (the pipe's reading end is closed
    # first, so the break is certain: with `| head` it is a race with the pipe's
    # buffer, which a short report can fill before head leaves): a short report or a
    # long one, the run says it was not delivered, with --exit-zero too.
    for i in range(memories):
        write(repo, f".memory/m{i}.md", "no frontmatter\n")
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "memcheck", "check", "--exit-zero"], cwd=repo, stdout=write_end, stderr=subprocess.PIPE, text=True
        )
    finally:
        os.close(write_end)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr


@pytest.mark.e2e
@pytest.mark.parametrize(("args", "code", "expected"), COMMANDS)
def test_each_command_as_a_real_process(repo: Path, args: list[str], code: int, expected: str) -> None:
    _store_and_env(repo)
    in_process = None if args[0] == "fix" else run_cli(repo, *args)  # fix writes: it is compared with a second run below
    proc = run_process(repo, *args)
    assert (proc.returncode, proc.stderr) == (code, ""), proc.stdout + proc.stderr
    assert expected in plain(proc.stdout)
    if in_process is None:
        assert run_cli(repo, *args).stdout == "No problems found in 1 guidance file and 1 store (1 memory).\n"
    else:  # what the other tests see through main() in this process is what a user sees
        assert (in_process.returncode, in_process.stdout, in_process.stderr) == (proc.returncode, proc.stdout, proc.stderr)


@pytest.mark.e2e
def test_a_warm_commit_hook_whose_parts_are_all_kept_imports_no_rule_family(repo: Path) -> None:
    # The cache says which rules are on and finds every part's findings kept: the
    # families (with PyYAML and the index planner behind them) are never imported.
    write(repo, ".memory/a.md", memory("A", "first", "user"))
    write(repo, ".memory/MEMORY.md", "# Memory\n\n## User\n- [A](a.md) - first\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    write(repo, ".memory/a.md", memory("A", "first", "user") + "More.\n")
    git(repo, "add", "-A")
    assert _imports(repo, ["check", "--changed"], "memcheck.checks.memory")  # the first run checks
    # Again, and fix after it (which finds what check found): nothing left to check.
    for hook in (["check", "--changed"], ["fix", "--changed", "--exit-non-zero-on-fix"]):
        assert not _imports(repo, hook, "memcheck.checks.memory")
        assert not _imports(repo, hook, "memcheck.checks.index")
    # Without the cache, the same run checks again.
    assert _imports(repo, ["check", "--changed", "--no-cache"], "memcheck.checks.memory")


@pytest.mark.e2e
def test_the_next_commit_of_a_memory_imports_no_guidance_or_skill_family(repo: Path) -> None:
    # The commit after (the cache filled by the last commit's hooks): the store it
    # touches is checked again, and only the families that check a store are imported.
    write(repo, ".memory/a.md", memory("A", "first", "user"))
    write(repo, ".memory/MEMORY.md", "# Memory\n\n## User\n- [A](a.md) - first\n")
    write(repo, "AGENTS.md", "# Agents\n\nRun the tests.\n")
    write(repo, ".claude/skills/run/SKILL.md", "---\nname: run\ndescription: Run it. Use when asked.\n---\n\nRun.\n")
    git(repo, "add", "-A")
    assert _imports(repo, ["check", "--changed"], "memcheck.checks.guidance")  # the first commit: every family
    git(repo, "commit", "-qm", "init")
    for n, family in enumerate(("guidance", "agent_reading", "skills", "agent_files")):
        write(repo, ".memory/a.md", memory("A", "first", "user") + f"More {n}.\n")
        git(repo, "add", "-A")
        assert not _imports(repo, ["check", "--changed"], f"memcheck.checks.{family}"), family
    write(repo, ".memory/a.md", memory("A", "first", "user") + "Again.\n")
    git(repo, "add", "-A")
    assert _imports(repo, ["check", "--changed"], "memcheck.checks.memory")


@pytest.mark.parametrize("fmt", ["gitlab", "junit"])
def test_ci_formats_in_a_real_process_are_deterministic(repo: Path, fmt: str) -> None:
    ci_formats._broken_store(repo)
    first = run_process(repo, "check", "--format", fmt)
    second = run_process(repo, "check", "--format", fmt, "-o", "report.out")
    assert first.returncode == second.returncode == 1 and first.stderr == ""
    assert (repo / "report.out").read_text(encoding="utf-8") == first.stdout
    if fmt == "gitlab":
        assert ci_formats._gitlab_errors(json.loads(first.stdout)) == []
    else:
        assert ci_formats._counts(ci_formats._junit(first.stdout)) == (2, 1, 0, 1)
