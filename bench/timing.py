"""Whole-process timing for the benchmark: CPU, wall and peak memory, in alternating rounds.

Every command of a group runs once per round, in turn (A B C A B C ...), so drift on a
shared machine hits all of them alike; a ratio of two commands is the median of their
ratios round by round, not a ratio of medians.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

# Commands run as installed: Python may write the bytecode of what it imports (the
# warm-up run does), as `pip install` does for a regular install. Without this, a
# PYTHONDONTWRITEBYTECODE in the environment would have every run compile memcheck's
# sources again, a cost no installed copy pays. An agent's variables (CLAUDECODE, ...)
# would have guard judge every change as an agent's: the bench times a person's commit.
AGENT_PREFIXES = ("CLAUDE", "CODEX", "GEMINI", "COPILOT", "CURSOR")


def child_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE" and not k.startswith(AGENT_PREFIXES)}


@dataclass(frozen=True)
class Cmd:
    argv: list[str]
    cwd: Path
    env: Mapping[str, str] = field(default_factory=dict)  # on top of child_env()
    # Called, untimed, before every run (warm-up included): returns more variables for
    # that run (a new empty cache folder) or puts the tree back as it was.
    before: Callable[[], Mapping[str, str]] | None = None


@dataclass(frozen=True)
class Measure:
    walls: tuple[float, ...]  # seconds, one per round
    cpus: tuple[float, ...]  # user + system seconds of the child, one per round
    rsss: tuple[float, ...]  # MiB, the child's peak resident set size
    code: int  # exit code of the last run

    @classmethod
    def single(cls, wall: float, rss: float, code: int = 0) -> Measure:
        """A figure measured elsewhere (the language server's latency): no CPU of its own."""
        return cls((wall,), (float("nan"),), (rss,), code)

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)

    @property
    def cpu(self) -> float:
        return statistics.median(self.cpus)

    @property
    def rss(self) -> float:
        return statistics.median(self.rsss)


# Runs a command and reports its own figures. A forked child starts with its parent's
# memory: Linux counts the high-water mark of the memory it leaves at exec in the
# child's peak (fs/exec.c, exec_mmap), so a command forked from this bench, which holds
# tens of MiB of trees and figures, could never show a peak below the bench's own (every
# command read 69 MiB on 2026-11-28, the floor script included). This launcher is a
# bare interpreter (-S -I: a few MiB, below any command timed here); the command is
# forked from it, and the figures it reports are the command's own, from wait4.
_LAUNCHER = """
import os, sys, time
report, argv = int(sys.argv[1]), sys.argv[2:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    except OSError:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
os.write(report, b"%r %r %d %d" % (wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, os.waitstatus_to_exitcode(status)))
"""


def run_once(cmd: list[str], cwd: Path, env: Mapping[str, str] | None = None) -> tuple[float, float, float, int]:
    """(wall s, cpu s, peak RSS MiB, exit code) of one run of ``cmd``: its own, as
    wait4 gives them (a child that waits for its own children, a worker pool or
    pre-commit's hooks, has their CPU counted in it; the peak is the largest single
    process's), measured by a launcher small enough not to show in the peak."""
    read_end, write_end = os.pipe()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-S", "-I", "-c", _LAUNCHER, str(write_end), *cmd],
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**child_env(), **(env or {})},
            pass_fds=(write_end,),
        )
        os.close(write_end)
        write_end = -1
        with os.fdopen(read_end, "rb") as report:
            read_end = -1
            got = report.read().split()
        proc.wait()
    finally:
        for fd in (read_end, write_end):
            if fd >= 0:
                os.close(fd)
    if len(got) != 4:
        raise RuntimeError(f"the launcher reported nothing for {cmd!r} (exit {proc.returncode})")
    wall, cpu, maxrss, code = float(got[0]), float(got[1]), int(got[2]), int(got[3])
    rss = maxrss / 1024 if sys.platform != "darwin" else maxrss / (1 << 20)  # Linux: KiB; macOS: bytes
    return wall, cpu, rss, code


def _run(cmd: Cmd) -> tuple[float, float, float, int]:
    extra = dict(cmd.env)
    if cmd.before is not None:
        extra.update(cmd.before())
    return run_once(cmd.argv, cmd.cwd, extra)


def measure(cmds: Mapping[str, Cmd], runs: int, warmup: int = 1) -> dict[str, Measure]:
    """Each command ``warmup`` times (page cache, .pyc files, a cache to fill), then
    ``runs`` rounds of every command in turn."""
    for _ in range(warmup):
        for cmd in cmds.values():
            _run(cmd)
    got: dict[str, list[tuple[float, float, float, int]]] = {k: [] for k in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            got[name].append(_run(cmd))
    return {
        k: Measure(tuple(r[0] for r in rs), tuple(r[1] for r in rs), tuple(r[2] for r in rs), rs[-1][3] if rs else 0)
        for k, rs in got.items()
    }


def measure_all(
    cmds: Mapping[str, list[str]], cwd: Path, runs: int, before: Callable[[], Mapping[str, str]] | None = None
) -> dict[str, Measure]:
    """Commands that all run in ``cwd`` with the same environment (``before`` called before each run)."""
    return measure({k: Cmd(argv, cwd, before=before) for k, argv in cmds.items()}, runs)


def pair_ratio(a: Measure, b: Measure, metric: str) -> float:
    """Median of a's figure over b's, round by round (both measured in one group)."""
    xs, ys = getattr(a, f"{metric}s"), getattr(b, f"{metric}s")
    if len(xs) != len(ys) or len(xs) == 1:
        return float(getattr(a, metric) / getattr(b, metric))
    return float(statistics.median(x / y for x, y in zip(xs, ys)))


def pair_diff(a: Measure, b: Measure, metric: str) -> float:
    """Median of a's figure minus b's, round by round."""
    xs, ys = getattr(a, f"{metric}s"), getattr(b, f"{metric}s")
    return float(statistics.median(x - y for x, y in zip(xs, ys)))
