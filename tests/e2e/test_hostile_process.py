"""hostile: the tests that need a real memcheck process (signals, encodings, lazy imports, console scripts).

The in-process tests of the same behaviour are in tests/cli/test_hostile.py.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import (
    HOSTILE_BODIES,
    HOSTILE_FRONTMATTER,
    frontmatter_of,
    invoke,
    memory,
    needs_fifo,
    write,
)

# A hang guard, not a speed test (bench/ measures speed): the old code took minutes
# (alias bomb) or died by a signal (deep nesting), and these runs take a second or
# two. A run that needs more than this (wall time: a FIFO read blocks without using
# the CPU) is hanging; generous, because the machines running CI are shared.
HANG_SECONDS = 60


def _hostile_tree(repo: Path) -> dict[str, str]:
    """Every hostile file in every kind of file, beside good files with known findings;
    the path of each hostile file -> the code it must get."""
    expect: dict[str, str] = {}
    write(repo, ".memory/good.md", memory("Good", "A good memory", "userx"))  # MEM007
    write(repo, "AGENTS.md", "# Root\n\nSee [the guide](docs/missing.md).\n")  # GDN013
    write(repo, ".claude/skills/good/SKILL.md", frontmatter_of("", "other-name", "skill"))  # SKL005
    for name, (extra, _) in HOSTILE_FRONTMATTER.items():
        path = f".memory/{name}.md"
        write(repo, path, frontmatter_of(extra, name, "memory"))
        # A number too long to read is a value YAML cannot build: the rest reads as key: value lines.
        expect[path] = "MEM004" if name == "long-number" else "MEM003"
        path = f"g-{name}/AGENTS.md"
        write(repo, path, frontmatter_of(extra, name, "guidance").replace("name: ", "owner: "))
        expect[path] = "GDN004"
        path = f".claude/skills/{name}/SKILL.md"
        write(repo, path, frontmatter_of(extra, name, "skill"))
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
def test_check_user_with_the_skills_folder_linked_to_the_whole_disk_finishes(repo: Path, tmp_path: Path) -> None:
    # The attack's own input: ~/.claude/skills -> / ran past 150 s and 580 MB. A
    # timeout, so a regression fails here rather than walking the disk for good.
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "skills").symlink_to("/", target_is_directory=True)
    env = {**os.environ, "HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-m", "memcheck", "check", "--user"], cwd=repo, env=env, capture_output=True, text=True, timeout=HANG_SECONDS * 2
    )
    assert done.returncode in (0, 1), done.stderr
    assert "~/.claude/skills holds more than" in done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is enforced on Linux (macOS accepts it and ignores it)")
def test_an_import_path_of_forty_thousand_steps_is_judged_within_a_gigabyte(repo: Path) -> None:
    # What a fuzzed AGENTS.md found: one line `@./x/@./x/...` of 200 KB is one import of
    # a path 40,000 folders deep, and every folder of it was kept while asking whether
    # it leaves the repository (7.7 GB). Under a 1 GiB limit the run now ends as usual,
    # with its findings, where it ran out of memory before.
    import resource

    write(repo, "pkg/AGENTS.md", "@./x/" * 40_000)

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    proc = subprocess.run(
        [sys.executable, "-m", "memcheck", "check", "--no-cache", "--format", "json", "."],
        cwd=repo,
        capture_output=True,
        text=True,
        preexec_fn=limited,
        env={**os.environ, "MEMCHECK_JOBS": "1"},
    )
    assert proc.returncode == 1 and proc.stderr == "", proc.stderr[-2000:]
    codes = sorted(p["code"] for p in json.loads(proc.stdout)["problems"])
    # Its import judged (GDN009: the file is not there), where under the same limit it
    # "could not be checked: it exhausts memcheck's memory" (GDN003) before.
    assert codes == ["GDN009", "GDN014", "GDN016"]
