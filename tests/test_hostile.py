"""Hostile input through the command line (main() in this process; a real process,
marked e2e, where a hang must be ended or a signal seen): the classic files built to hang,
crash or abort a parser each give a finding on their own file, quickly, while every
other file is still checked; a broken config is one error line; an interrupted run
leaves no process and no temporary file behind; a FIFO is reported, never read or
replaced. (tests/test_fuzz.py generates more of the same.)"""
from __future__ import annotations

import difflib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import cpu_limit, git, invoke, memory, run_cli, write

from memcheck.text.document import parse

# A hang guard, not a speed test (bench/ measures speed): the old code took minutes
# (alias bomb) or died by a signal (deep nesting), and these runs take a second or
# two. A run that needs more than this (wall time: a FIFO read blocks without using
# the CPU) is hanging; generous, because the machines running CI are shared.
HANG_SECONDS = 60


def _alias_bomb(levels: int = 9) -> str:
    lines = ["a0: &a0 [x,x,x,x,x,x,x,x,x]"] + [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


# name -> (frontmatter lines before name/description, the code's message says)
HOSTILE_FRONTMATTER = {
    "alias-bomb": (_alias_bomb(), "aliases expand it to more than"),
    "deep-flow": ("metadata: " + "[" * 50_000 + "]" * 50_000 + "\n", "more than 64 levels deep"),
    "unclosed-flow": ("metadata: " + "[" * 50_000 + "\n", "more than 64 levels deep"),
    "nesting-1000": ("metadata: " + "{a: " * 1_000 + "x" + "}" * 1_000 + "\n", "more than 64 levels deep"),
    "deep-block": ("metadata:\n" + "".join(" " * i + "k:\n" for i in range(1, 500)), "more than 64 levels deep"),
    "recursive-alias": ("metadata: &m {self: *m}\n", "recursive alias"),
    # Few values, but each alias a string of 900 KB: quoting or matching each took
    # minutes and gigabytes (a memory's agent_name quoted, AGENTS.md globs matched).
    "alias-characters": ("big: &b " + "x" * 900_000 + "\nagent_name: [" + ", ".join(["*b"] * 300) + "]\nglobs: [" + ", ".join(["*b"] * 300) + "]\n", "more than 2,097,152 characters"),
    "long-number": ("metadata: 1" + ":1" * 100_000 + "\n", "characters, over the 4,300"),
}
FRONTMATTER_CODE = {"memory": "MEM003", "guidance": "GDN004", "skill": "SKL003"}
# Bodies that took minutes or hours: runs that every start of a link pattern scanned again.
HOSTILE_BODIES = {
    "brackets": "[" * 200_000,
    "image-openers": "![" * 100_000,
    "escaped-brackets": "\\[" * 100_000,
    "spaces-in-link": "[a](" + " " * 200_000,
    "unclosed-suppressions": "<!-- memcheck-disable-next-line MEM001 -->" + "<!-- memcheck-disable " * 40_000,
}


def _frontmatter(extra: str, name: str, kind: str) -> str:
    if kind == "memory":
        return f"---\n{extra}name: {name}\ndescription: d\ntype: user\n---\nBody.\n"
    return f"---\n{extra}name: {name}\ndescription: Does {name}. Use when testing.\n---\nBody.\n"


def _hostile_tree(repo: Path) -> dict[str, str]:
    """Every hostile file in every kind of file, beside good files with known findings;
    the path of each hostile file -> the code it must get."""
    expect: dict[str, str] = {}
    write(repo, ".memory/good.md", memory("Good", "A good memory", "userx"))  # MEM007
    write(repo, "AGENTS.md", "# Root\n\nSee [the guide](docs/missing.md).\n")  # GDN013
    write(repo, ".claude/skills/good/SKILL.md", _frontmatter("", "other-name", "skill"))  # SKL005
    for name, (extra, _) in HOSTILE_FRONTMATTER.items():
        path = f".memory/{name}.md"
        write(repo, path, _frontmatter(extra, name, "memory"))
        # A number too long to read is a value YAML cannot build: the rest reads as key: value lines.
        expect[path] = "MEM004" if name == "long-number" else "MEM003"
        path = f"g-{name}/AGENTS.md"
        write(repo, path, _frontmatter(extra, name, "guidance").replace("name: ", "owner: "))
        expect[path] = "GDN004"
        path = f".claude/skills/{name}/SKILL.md"
        write(repo, path, _frontmatter(extra, name, "skill"))
        expect[path] = "SKL003"
    for name, body in HOSTILE_BODIES.items():
        write(repo, f".memory/body-{name}.md", memory(f"body {name}", "d", "user", body=body + "\n"))
        write(repo, f"b-{name}/AGENTS.md", f"# Guide\n\n{body}\n")
    write(repo, ".memory/MEMORY.md", "- [Good](good.md) - A good memory\n" + "[" * 100_000 + "\n")
    return expect


def _guarded(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``run_process``, failing rather than waiting when the command hangs: a real
    process, so that a hang can be ended and a crash by a signal is an exit code."""
    try:
        return subprocess.run([sys.executable, "-m", "memcheck", *args], cwd=repo, capture_output=True, text=True, timeout=HANG_SECONDS)
    except subprocess.TimeoutExpired:
        pytest.fail(f"memcheck {' '.join(args)} still running after {HANG_SECONDS}s")


def _findings(proc: subprocess.CompletedProcess[str]) -> set[tuple[str, str]]:
    return {(p["path"], p["code"]) for p in json.loads(proc.stdout)["problems"]}


@pytest.mark.e2e
@pytest.mark.slow
def test_hostile_files_each_get_a_finding_and_the_run_goes_on(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expect = _hostile_tree(repo)
    good = {(".memory/good.md", "MEM007"), ("AGENTS.md", "GDN013"), (".claude/skills/good/SKILL.md", "SKL005")}
    for args in (("check", "--format", "json"), ("fix", "--format", "json")):
        proc = _guarded(repo, *args)
        assert proc.returncode == 1 and proc.stderr == "", proc.stderr  # never a signal, never "internal error"
        found = _findings(proc)
        assert set(expect.items()) <= found, set(expect.items()) - found
        assert good <= found
    text = _guarded(repo, "check")
    assert text.returncode == 1 and "internal error" not in text.stderr
    for path, code in expect.items():
        assert f"{path}:" in text.stdout and code in text.stdout
    for name, (_, says) in HOSTILE_FRONTMATTER.items():
        assert says in text.stdout, name
    clicked = invoke(repo, "check", monkeypatch=monkeypatch)
    assert clicked.exit_code == 1 and clicked.stdout == text.stdout
    for args in (("context", "g-alias-bomb/AGENTS.md", "--format", "json"), ("context", "b-brackets/AGENTS.md")):
        proc = _guarded(repo, *args)
        assert proc.returncode in (0, 1) and proc.stderr == "", proc.stderr


@pytest.mark.parametrize("name", [*HOSTILE_FRONTMATTER, *(f"body-{b}" for b in HOSTILE_BODIES)])
def test_each_hostile_file_is_read_and_judged_in_a_fraction_of_a_second(name: str, repo: Path) -> None:
    from memcheck import config
    from memcheck.engine.collect import collect
    from memcheck.engine.targets import targets_for
    from memcheck.workspace.discover import Workspace

    if name.startswith("body-"):
        text = memory(name, "d", "user", body=HOSTILE_BODIES[name[5:]] + "\n")
    else:
        text = _frontmatter(HOSTILE_FRONTMATTER[name][0], name, "memory")
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
    monkeypatch.setattr(frontmatter_reading.difflib, "SequenceMatcher", _CountingMatcher)
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
    write(repo, ".memory/a.md", memory("A", "d", "user").replace("type: user", "type: user\n" + "k" * 900_000 + ": v"))
    proc = run_cli(repo, "check")
    assert proc.returncode == 1 and proc.stderr == ""
    (line,) = [line for line in proc.stdout.splitlines() if "MEM010" in line]
    assert len(line) < 1100  # the whole key made it 900 KB
    assert line.startswith(".memory/a.md:5:1: MEM010 unknown frontmatter key 'kkk")
    assert "kkk...[899,167 characters left out]...kkk" in line and line.endswith("kkk'; fix it or add it to memory.allowed-keys")


@pytest.mark.e2e  # a small stack for the whole process
def test_a_file_that_exhausts_the_stack_is_a_finding_on_that_file(repo: Path) -> None:
    # An @-import chain as deep as the config allows, checked with a small stack.
    write(repo, ".memcheck.yaml", "guidance: {max-import-depth: 100}\n")
    for i in range(100):
        write(repo, f"docs/f{i}.md", f"@f{i + 1}.md\n")
    write(repo, "docs/f100.md", "The end.\n")
    write(repo, "AGENTS.md", "@docs/f0.md\n")
    write(repo, "pkg/AGENTS.md", "# Guide\n\nSee [the guide](missing.md).\n")
    write(repo, ".memory/a.md", memory("A", "d", "userx"))
    script = textwrap.dedent(
        """
        import sys
        from memcheck.cli import main
        from memcheck.engine.collect import family_checks
        family_checks()
        sys.setrecursionlimit(90)
        sys.exit(main(["check"]))
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=repo, capture_output=True, text=True, timeout=HANG_SECONDS)
    assert proc.returncode == 1 and proc.stderr == "", proc.stderr
    assert "AGENTS.md:1:1: GDN003 AGENTS.md could not be checked: it exhausts memcheck's stack (RecursionError)" in proc.stdout
    assert "pkg/AGENTS.md:3:" in proc.stdout and ".memory/a.md:4:1: MEM007" in proc.stdout


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
    "deep-nesting": (".memcheck.yaml", "select: " + "[" * 50_000 + "]" * 50_000 + "\n", "not read: nests collections more than 64 levels deep"),
    # Patterns to lists of lists, 9^9 strings for the schema check to walk.
    "alias-bomb": (".memcheck.yaml", "per-path-ignores:\n" + textwrap.indent(_alias_bomb(), "  "), "not read: its aliases expand it"),
    "recursive-alias": (".memcheck.yaml", "select: &a [*a]\n", "recursive alias"),
    "import-depth": (".memcheck.yaml", "guidance: {max-import-depth: 100000}\n", "above the maximum 100"),
    # tomllib recurses once per level and has no bound of its own.
    "pyproject-deep-arrays": ("pyproject.toml", "[tool.memcheck]\nselect = " + "[" * 50_000 + "]" * 50_000 + "\n", "pyproject.toml: cannot read: arrays or tables nested too deeply"),
    "pyproject-deep-tables": ("pyproject.toml", "[tool.memcheck]\nselect = " + "{a = " * 50_000 + "1" + "}" * 50_000 + "\n", "nested too deeply"),
}
COMMANDS = {"check": ("check",), "fix": ("fix",), "guard": ("guard",), "context": ("context", "AGENTS.md")}


@pytest.mark.parametrize("case", BROKEN_CONFIGS)
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
    assert result.stderr.startswith("memcheck: error: baseline ") and result.stderr.endswith("baseline.json: cannot read it: nested too deeply to be a memcheck baseline\n")


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


def _worker_pids(parent: int) -> list[int]:
    """Live children of ``parent`` that run memcheck too (forked workers, not git)."""
    found = []
    own = Path(f"/proc/{parent}/cmdline").read_bytes()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == parent and fields[0] != "Z" and (entry / "cmdline").read_bytes() == own:
                found.append(int(entry.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _interruptible() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; memcheck forks on Linux")
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT])
def test_a_signalled_parallel_check_leaves_no_worker_behind(number: int, repo: Path) -> None:
    for s in range(150):  # long enough that the check is still running when the signal comes
        for i in range(60):
            write(repo, f"s{s}/.claude/memory/n{i}.md", memory(f"N {s}.{i}", "d", "project"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "memcheck", "check", "."],
        cwd=repo,
        env={**os.environ, "MEMCHECK_JOBS": "3"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # A shell runs a background job with SIGINT ignored, and Python then never
        # raises KeyboardInterrupt: the check would finish as if never signalled.
        preexec_fn=_interruptible,
    )
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while not workers and proc.poll() is None and time.monotonic() < deadline:
        first = _worker_pids(proc.pid)
        time.sleep(0.05)  # a worker, not a child between fork and exec
        workers = [pid for pid in _worker_pids(proc.pid) if pid in first]
    assert workers, "the check ended before its workers were seen: make the tree larger"
    os.kill(proc.pid, number)
    code = proc.wait(timeout=HANG_SECONDS)
    try:
        assert code == {signal.SIGTERM: 143, signal.SIGINT: 130}[number], proc.stderr.read() if proc.stderr else ""
        assert not [pid for pid in workers if _alive(pid)], "workers outlived the check"
    finally:
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.e2e
def test_fix_interrupted_mid_write_leaves_no_temporary_file(repo: Path) -> None:
    for s in range(3):
        write(repo, f"s{s}/.memory/a.md", memory("A", "d", "user"))
    # SIGTERM arrives at the worst moment: the temporary file written, not yet renamed.
    script = textwrap.dedent(
        """
        import os, signal, sys
        from memcheck.cli import main
        os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGTERM)
        sys.exit(main(["fix"]))
        """
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=repo, capture_output=True, text=True, timeout=HANG_SECONDS)
    assert proc.returncode == 143, proc.stderr
    assert not [p for p in repo.rglob("*") if p.name.endswith(".tmp")]
    assert not (repo / "s0/.memory/MEMORY.md").exists()


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

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


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


@pytest.mark.e2e  # a real process, which the hang guard can end if it waits on the FIFO
@needs_fifo
@pytest.mark.parametrize(
    ("fifo", "args", "says"),
    [
        (".memcheck.yaml", ("check",), ".memcheck.yaml is a FIFO, not a regular file; not read"),  # not passed over for the defaults
        ("pyproject.toml", ("fix",), "pyproject.toml is a FIFO, not a regular file; not read"),
        ("settings.yaml", ("check", "--config", "settings.yaml"), "settings.yaml is a FIFO"),
        ("base.json", ("check", "--baseline", "base.json"), "base.json is a FIFO, not a regular file; not read"),  # waited forever
    ],
)
def test_a_fifo_where_settings_are_read_is_a_usage_error(fifo: str, args: tuple[str, ...], says: str, repo: Path) -> None:
    write(repo, ".memory/a.md", memory("A", "d", "user"))
    os.mkfifo(repo / fifo)
    proc = _guarded(repo, *args)
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    assert proc.stderr.startswith("memcheck: error: ") and says in proc.stderr and proc.stderr.count("\n") == 1


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
