"""--color as a user meets it: on a real terminal (a pseudo-terminal), colour by
default, none with NO_COLOR or --color never; piped, none unless asked for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import memory, run_process, write

pty = pytest.importorskip("pty")


def _findings(repo: Path) -> None:
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n## User\n- [prefs](user_prefs.md) - Prefers short answers\n")
    write(repo, ".claude/memory/feedback_x.md", memory("x", "An unlisted memory", "feedback"))  # IDX003


def _on_a_terminal(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """What `memcheck ARGS` writes to a terminal: its standard output is a pseudo-terminal."""
    leader, follower = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "memcheck", *args],
            cwd=repo,
            stdout=follower,
            stderr=subprocess.DEVNULL,
            env={**os.environ, **(env or {})},
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed: the process is done with it
                break
            if not chunk:
                break
            chunks.append(chunk)
        proc.wait(timeout=60)
    finally:
        os.close(leader)
    return b"".join(chunks).decode("utf-8")


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("args", "env", "coloured"),
    [((), {}, True), ((), {"NO_COLOR": "1"}, False), (("--color", "never"), {}, False), (("--color", "always"), {"NO_COLOR": "1"}, True)],
)
def test_colour_on_a_terminal(repo: Path, args: tuple[str, ...], env: dict[str, str], coloured: bool) -> None:
    _findings(repo)
    out = _on_a_terminal(repo, "check", *args, env=env)
    assert "IDX003" in out
    assert ("\033[" in out) == coloured, out


@pytest.mark.e2e
@pytest.mark.parametrize(("args", "coloured"), [((), False), (("--color", "always"), True), (("-q", "--color", "never"), False)])
def test_colour_through_a_pipe(repo: Path, args: tuple[str, ...], coloured: bool) -> None:
    _findings(repo)
    proc = run_process(repo, "check", *args)
    assert proc.returncode == 1 and "IDX003" in proc.stdout
    assert ("\033[" in proc.stdout) == coloured, proc.stdout
