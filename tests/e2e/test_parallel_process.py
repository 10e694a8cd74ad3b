"""parallel: the tests that need a real memcheck process (signals, encodings, lazy imports, console scripts).

The in-process tests of the same behaviour are in tests/cli/test_parallel.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import memory, write

pytestmark = pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="memcheck only forks on Linux and the BSDs")


# Linux gives a pipe 4 KiB rather than 64 KiB to a user past pipe-user-pages-soft; this
# runs memcheck with every pipe it makes shrunk so (F_SETPIPE_SZ, as the kernel does).
_SMALL_PIPES = """
import fcntl, os, sys
_pipe = os.pipe
def small_pipe():
    ends = _pipe()
    fcntl.fcntl(ends[1], fcntl.F_SETPIPE_SZ, 4096)
    return ends
os.pipe = small_pipe
from memcheck.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.e2e  # every pipe of the process shrunk, its children's included
@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="F_SETPIPE_SZ is Linux's")
def test_a_queue_longer_than_a_small_pipe_holds_is_shared_out(repo: Path) -> None:
    """1,100 stores make a queue of 4,400 bytes, more than a 4 KiB pipe holds."""
    for s in range(1100):
        write(repo, f"s{s:04d}/.claude/memory/a.md", memory("A", "What a says", "project"))
        write(repo, f"s{s:04d}/.claude/memory/MEMORY.md", "" if s % 100 else "- [A](a.md) \u2014 What a says\n")
    runs = {}
    for jobs in ("1", "2"):
        runs[jobs] = subprocess.run(
            [sys.executable, "-c", _SMALL_PIPES, "check", "--format", "json"],
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "MEMCHECK_JOBS": jobs},
        )
    assert runs["1"].returncode == runs["2"].returncode == 1, runs["2"].stderr
    assert runs["1"].stdout == runs["2"].stdout
    assert runs["2"].stdout.count('"IDX003"') == 1089  # every store but every hundredth lists nothing
