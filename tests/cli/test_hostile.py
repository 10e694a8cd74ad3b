"""Hostile input through the command line (main() in this process; a real process, in
tests/e2e/test_hostile_process.py, where a hang must be ended, a signal seen or the
memory bounded): the classic files built to hang, crash or abort a parser each give a
finding on their own file, quickly, while every other file is still checked; a broken
config is one error line; an interrupted run leaves no process and no temporary file
behind; a FIFO is reported, never read or replaced. (tests/cli/test_fuzz.py generates
more of the same.)"""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    HOSTILE_BODIES,
    HOSTILE_FRONTMATTER,
    SLOW_HOSTILE,
    alias_bomb,
    cpu_limit,
    frontmatter_of,
    git,
    invoke,
    memory,
    needs_fifo,
    run_cli,
    write,
)

from memcheck.text.document import parse

FRONTMATTER_CODE = {"memory": "MEM003", "guidance": "GDN004", "skill": "SKL003"}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.slow) if n in SLOW_HOSTILE else n
        for n in [*HOSTILE_FRONTMATTER, *(f"body-{b}" for b in HOSTILE_BODIES)]
    ],
)
def test_each_hostile_file_is_read_and_judged_in_a_fraction_of_a_second(name: str, repo: Path) -> None:
    from memcheck import config
    from memcheck.engine.collect import collect
    from memcheck.engine.targets import targets_for
    from memcheck.workspace.discover import Workspace

    if name.startswith("body-"):
        text = memory(name, "d", "user", body=HOSTILE_BODIES[name[5:]] + "\n")
    else:
        text = frontmatter_of(HOSTILE_FRONTMATTER[name][0], name, "memory")
    write(repo, f".memory/{name}.md", text)
    write(repo, "AGENTS.md", text)
    ws = Workspace(config.load(repo))
    # The slowest of these (a 700 KB value named twice) takes a few seconds of CPU;
    # the old code took minutes or hours.
    with cpu_limit(60, name):
        parse(f".memory/{name}.md", text.encode())
        found = collect(ws, targets_for(ws, None))
    assert any(p.path == f".memory/{name}.md" for p in found) or name.startswith("body-")


class _CountingMatcher(difflib.SequenceMatcher):  # type: ignore[type-arg]
    """difflib's matcher, counting what the misspelling check asks of it."""

    built = 0
    asked: set[str] = set()  # the keys compared with a known key
    full_ratios: list[int] = []  # the key's length, for each ratio() worked out in full

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        type(self).built += 1
        super().__init__(*args, **kwargs)

    def set_seq1(self, a: Any) -> None:
        type(self).asked.add(a)
        super().set_seq1(a)

    def ratio(self) -> float:
        type(self).full_ratios.append(len(self.a))
        return super().ratio()


@pytest.mark.parametrize(
    ("frontmatter", "keys"),
    [
        ("? " + "k" * 900_000 + "\n: v\n", 1),  # one unknown key, compared with every known one
        ("".join(f"k{i}: v\n" for i in range(20_000)), 20_000),  # many unknown keys
    ],
    ids=["long-key", "many-keys"],
)
def test_unknown_guidance_keys_are_judged_in_linear_time(frontmatter: str, keys: int, repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Counted, not timed: the misspelling check took about 10 s on each when it built
    # a matcher per unknown key and known key, and worked out a full ratio (time in
    # the key's length) for a key far longer than any it could be a misspelling of.
    from memcheck import config
    from memcheck.engine.collect import collect
    from memcheck.engine.targets import targets_for
    from memcheck.text import frontmatter as frontmatter_reading
    from memcheck.workspace.discover import Workspace

    write(repo, "AGENTS.md", f"---\n{frontmatter}---\n# Guide\n")
    write(repo, ".cursor/rules/a.mdc", f"---\n{frontmatter}globs: src/**\n---\n# Rule\n")
    monkeypatch.setattr(difflib, "SequenceMatcher", _CountingMatcher)  # (text/frontmatter imports difflib when it judges keys)
    monkeypatch.setattr(_CountingMatcher, "built", 0)
    monkeypatch.setattr(_CountingMatcher, "asked", set())
    monkeypatch.setattr(_CountingMatcher, "full_ratios", [])
    frontmatter_reading.near_key.cache_clear()  # matchers built by earlier tests are not counted
    ws = Workspace(config.load(repo))
    collect(ws, targets_for(ws, None))
    frontmatter_reading.near_key.cache_clear()  # none of the counting matchers is kept for later tests
    assert len(_CountingMatcher.asked) >= keys  # every unknown key was looked at
    # Matchers: one per known key of each file's schema (some dozens), however many
    # unknown keys there are.
    assert 0 < _CountingMatcher.built <= 200
    # A full ratio only for keys short enough to be a misspelling of a known one.
    assert all(length < 100 for length in _CountingMatcher.full_ratios)


def test_a_finding_quoting_a_huge_key_stays_one_short_line(repo: Path) -> None:
    # A huge key is a slip of no known key (MEM010 passes it); the finding that names
    # the keys of a frontmatter that is not a memory's quotes it.
    write(repo, ".memory/a.md", "---\n" + "k" * 900_000 + ": v\n---\nBody.\n")
    proc = run_cli(repo, "check")
    assert proc.returncode == 1 and proc.stderr == ""
    (line,) = [line for line in proc.stdout.splitlines() if "MEM006" in line]
    assert len(line) < 1100  # the whole key made it 900 KB
    assert line.startswith(".memory/a.md:1:1: MEM006 frontmatter has none of the memory fields name, description, type (it holds kkk")
    assert "kkk...[899,255 characters left out]...kkk" in line and line.endswith(
        "kkk), so agents cannot index this file as a memory; add name, description and type"
    )
    assert "MEM010" not in proc.stdout


# ---------------------------------------------------------------- config

BROKEN_CONFIGS = {
    "int-key": (".memcheck.yaml", "per-path-ignores: {1: [MEM001]}\n", "per-path-ignores: key 1 is a number"),
    "null-key": (".memcheck.yaml", "per-path-ignores: {~: [MEM001]}\n", "per-path-ignores: key None is null"),
    "date-key": (".memcheck.yaml", "per-path-ignores: {2020-01-01: [MEM001]}\n", "key 2020-01-01 is a date"),
    "pyproject-tool-string": ("pyproject.toml", 'tool = "x"\n', "pyproject.toml: tool: expected a table"),
    "guard-backslash": (".memcheck.yaml", "guard:\n  patterns: ['foo\\']\n", "guard.patterns.0: invalid pattern 'foo\\\\'"),
    "exclude-backslash": (".memcheck.yaml", "exclude: ['foo\\']\n", "exclude.0: invalid pattern"),
    "ignore-backslash": (".memcheck.yaml", "per-path-ignores: {'foo\\': [MEM001]}\n", "per-path-ignores.foo\\: invalid pattern"),
    "posix-class": (".memcheck.yaml", "guard:\n  patterns: ['[[:alpha:]]*.key']\n", "uses a POSIX class such as [[:alpha:]]"),
    "posix-class-store": (".memcheck.yaml", "memory:\n  stores: ['[[:alpha:]]mem']\n", "memory.stores.0: pattern"),
    "deep-nesting": (
        ".memcheck.yaml",
        "select: " + "[" * 50_000 + "]" * 50_000 + "\n",
        "not read: nests collections more than 64 levels deep",
    ),
    # Patterns to lists of lists, 9^9 strings for the schema check to walk.
    "alias-bomb": (".memcheck.yaml", "per-path-ignores:\n" + textwrap.indent(alias_bomb(), "  "), "not read: its aliases expand it"),
    "recursive-alias": (".memcheck.yaml", "select: &a [*a]\n", "recursive alias"),
    "import-depth": (".memcheck.yaml", "guidance: {max-import-depth: 100000}\n", "above the maximum 100"),
    # tomllib recurses once per level and has no bound of its own.
    "pyproject-deep-arrays": (
        "pyproject.toml",
        "[tool.memcheck]\nselect = " + "[" * 50_000 + "]" * 50_000 + "\n",
        "pyproject.toml: cannot read: arrays or tables nested too deeply",
    ),
    "pyproject-deep-tables": (
        "pyproject.toml",
        "[tool.memcheck]\nselect = " + "{a = " * 50_000 + "1" + "}" * 50_000 + "\n",
        "nested too deeply",
    ),
}
COMMANDS = {"check": ("check",), "fix": ("fix",), "guard": ("guard",), "context": ("context", "AGENTS.md")}


# A config 50,000 brackets deep takes a second of CPU through the four commands: the
# fast subset keeps the nesting bound's other cases (pyproject.toml's, the recursive alias).
@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) if c == "deep-nesting" else c for c in BROKEN_CONFIGS])
def test_a_broken_config_is_one_error_line_for_every_command(case: str, repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name, text, says = BROKEN_CONFIGS[case]
    write(repo, name, text)
    write(repo, ".memory/a.md", memory("A", "d", "user"))
    _commit(repo)  # guard judges staged changes by the settings HEAD holds
    for command, args in COMMANDS.items():
        result = invoke(repo, *args, monkeypatch=monkeypatch)
        assert result.exit_code == 2, (command, result.output)
        assert result.stdout == "" and result.stderr.count("\n") == 1, (command, result.stderr)
        assert result.stderr.startswith("memcheck: error: ") and says in result.stderr, (command, result.stderr)
        assert "Warning" not in result.stderr


def test_a_baseline_nested_past_the_stack_is_a_usage_error(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "baseline.json", "[" * 100_000 + "]" * 100_000)
    write(repo, ".memory/a.md", memory("A", "d", "user"))
    result = invoke(repo, "check", "--baseline", "baseline.json", monkeypatch=monkeypatch)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("memcheck: error: baseline ") and result.stderr.endswith(
        "baseline.json: cannot read it: nested too deeply to be a memcheck baseline\n"
    )


def test_a_broken_config_through_the_real_command_line(repo: Path) -> None:
    write(repo, ".memcheck.yaml", "guard:\n  patterns: ['[[:alpha:]]*.key', 'x\\']\n")
    _commit(repo)
    for args in COMMANDS.values():
        proc = run_cli(repo, *args)
        assert proc.returncode == 2 and proc.stdout == "", proc.stderr
        # One line, and no FutureWarning from Python's re on the way.
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("memcheck: error: "), proc.stderr
        assert ".memcheck.yaml: guard.patterns.0: pattern '[[:alpha:]]*.key' uses a POSIX class" in proc.stderr


def _commit(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "settings")


# ---------------------------------------------------------------- processes


def test_fix_removes_its_own_leftovers_and_nothing_else(repo: Path) -> None:
    write(repo, ".memory/a.md", memory("A", "d", "user"))
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True).stdout.strip()
    leftover = write(repo, f".memory/.MEMORY.md.memcheck-{gone}-k2j4h5g6.tmp", "half an index")
    running = write(repo, f".memory/.MEMORY.md.memcheck-{os.getpid()}-k2j4h5g6.tmp", "a fix still writing")
    not_ours = [write(repo, ".memory/.MEMORY.md.k2j4h5g6.tmp", "x"), write(repo, ".memory/notes.tmp", "x")]
    proc = run_cli(repo, "fix")
    assert proc.returncode == 0, proc.stderr
    assert not leftover.exists() and f"removed .memory/{leftover.name}, left by an interrupted fix" in proc.stderr
    assert running.exists() and all(p.exists() for p in not_ours)


# ---------------------------------------------------------------- special files


@needs_fifo
def test_a_fifo_index_is_reported_and_never_replaced(repo: Path) -> None:
    write(repo, ".memory/a.md", memory("A", "d", "user"))
    os.mkfifo(repo / ".memory/MEMORY.md")
    check = run_cli(repo, "check")
    assert check.returncode == 1
    assert ".memory/MEMORY.md:1:1: IDX011 MEMORY.md is a FIFO, not a regular file" in check.stdout and "IDX001" not in check.stdout
    fix = run_cli(repo, "fix")
    assert fix.returncode == 1 and "not fixing .memory/MEMORY.md: .memory/MEMORY.md is a FIFO" in fix.stderr
    assert (repo / ".memory/MEMORY.md").is_fifo()


@needs_fifo
def test_an_import_of_a_fifo_is_reported(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Guide\n\nRead @notes.md and @./docs/pipe.md first.\n")
    os.mkfifo(repo / "notes.md")
    (repo / "docs").mkdir()
    os.mkfifo(repo / "docs/pipe.md")
    git(repo, "add", "AGENTS.md")
    proc = run_cli(repo, "check")
    assert proc.returncode == 1
    assert "AGENTS.md:3:6: GDN009 @notes.md imports notes.md, which is a FIFO" in proc.stdout
    assert "AGENTS.md:3:20: GDN009 @./docs/pipe.md imports docs/pipe.md, which is a FIFO" in proc.stdout


@pytest.mark.slow
def test_files_thousands_of_folders_deep_are_checked_fixed_and_explained(repo: Path) -> None:
    """A path 1,500 folders deep (3,000 characters, within what Linux allows): whether
    each folder stays inside the repository, and each file's real path, are worked
    out a folder at a time in a loop, never by recursion."""
    deep = "/".join(["d"] * 1500)
    folder = repo
    for part in [*deep.split("/"), ".claude", "memory"]:  # pathlib's mkdir(parents=True) would recurse
        folder = folder / part
        folder.mkdir()
    try:
        _check_fix_and_explain_deep(repo, deep)
    finally:  # shutil.rmtree, and so pytest's clean-up of old temporary folders, would recurse too
        subprocess.run(["rm", "-rf", str(repo / "d")], check=True)


def _check_fix_and_explain_deep(repo: Path, deep: str) -> None:
    (repo / deep / "x.md").write_text("# Deep\n")
    (repo / deep / "CLAUDE.md").write_text("# Rules\n\nRun the tests.\n")
    (repo / deep / ".claude/memory/n.md").write_text(memory("N", "a deep memory", "user"))
    write(repo, "AGENTS.md", f"# Agents\n\nSee @{deep}/x.md\n")
    git(repo, "add", "-A")
    checked = run_cli(repo, "check")
    assert checked.returncode == 1 and checked.stderr == "", checked.stderr
    assert "MEMORY.md; run `memcheck fix` to write it" in checked.stdout
    fixed = run_cli(repo, "fix")
    assert fixed.returncode == 0 and fixed.stderr.count("internal error") == 0, fixed.stderr
    assert (repo / deep / ".claude/memory/MEMORY.md").read_text().count("(n.md)") == 1
    assert run_cli(repo, "check").returncode == 0
    context = run_cli(repo, "context", f"{deep}/CLAUDE.md")
    assert context.returncode == 0 and context.stderr == "", context.stderr


def test_agent_settings_and_an_extension_manifest_nested_past_the_stack_are_left_unread(repo: Path) -> None:
    """`.claude/settings.json` and `gemini-extension.json` read for plugins turned on and
    an extension's context file: JSON 200,000 arrays deep made Python's parser recurse
    past the stack (an internal error). Such a file turns no plugin on and names no
    context file, as an agent that cannot read it finds none either."""
    deep = "[" * 200_000 + "]" * 200_000 + "\n"
    write(repo, ".claude/settings.json", deep)
    write(repo, "gemini-extension.json", deep)
    write(
        repo, ".agents/skills/x/SKILL.md", "---\nname: x\ndescription: Does x when asked to x things.\nwhen_to_use: always\n---\n\nDo x.\n"
    )
    write(repo, "CLAUDE.md", "# Agents\n\nUse the `x` skill.\n")
    write(repo, "GEMINI.md", "# G\n")
    write(repo, "AGENTS.md", "# A\n")
    git(repo, "add", "-A")
    proc = run_cli(repo, "check")
    assert proc.returncode == 0 and "internal error" not in proc.stderr, proc.stderr
    codes = {line.split(" ")[1] for line in proc.stdout.splitlines() if ": " in line and line.split(" ")[1][:3].isalpha()}
    assert {"SKL017", "GDN015"} <= codes, proc.stdout
