"""guard: the tests that need a real memcheck process (signals, encodings, lazy imports, console scripts).

The in-process tests of the same behaviour are in tests/cli/test_guard.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import add_env, commit, git, write
from test_guard_agent_traces import staged_bump

from memcheck import __version__


@pytest.mark.e2e
def test_version_and_guard_stay_lean() -> None:
    code = (
        "import sys\n"
        "from memcheck.cli import main\n"
        "try:\n    main(['--version'])\n"
        "finally:\n    print(sorted(m for m in sys.modules if m.split('.')[0] in ('yaml', 'git', 'pathspec')))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.splitlines() == [f"memcheck {__version__}", "[]"]


@pytest.mark.e2e
def test_neither_guard_nor_check_imports_gitpython(repo: Path) -> None:
    # guard runs git as plain processes: GitPython's import cost more than a commit's whole guard
    add_env(repo)
    code = "import sys\nfrom memcheck.cli import main\nrc = main([sys.argv[1]])\nprint('git' in sys.modules, rc)\n"
    guarded = subprocess.run([sys.executable, "-c", code, "guard"], cwd=repo, capture_output=True, text=True, check=True)
    assert guarded.stdout.splitlines()[-1] == "False 1"
    checked = subprocess.run([sys.executable, "-c", code, "check"], cwd=repo, capture_output=True, text=True, check=True)
    assert checked.stdout.splitlines()[-1] == "False 0"


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "deep", "huge"])
def test_an_event_file_that_is_no_event_is_a_clear_error_never_a_hang(repo: Path, kind: str) -> None:
    # A FIFO's open waited for a writer and /dev/zero never ended (hangs); JSON
    # nested 100,000 deep was "internal error: RecursionError".

    base = commit(repo, {"README.md": "x\n"}, "init")
    event = repo.parent / "event.json"
    if kind == "fifo":
        os.mkfifo(event)
    elif kind == "dev-zero":
        event.symlink_to("/dev/zero")
    elif kind == "deep":
        event.write_text("[" * 100_000 + "]" * 100_000)
    else:
        with open(event, "wb") as f:
            f.truncate((25 << 20) + 1)
    args = [sys.executable, "-m", "memcheck", "guard", "--base", base, "--override-label", "x", "--event", str(event)]
    done = subprocess.run(args, cwd=repo, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith(f"memcheck: error: --event {event}: "), done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr


def test_a_guard_run_that_finds_nothing_imports_neither_click_nor_pathspec(repo: Path) -> None:
    write(repo, "README.md", "# x\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    for i in range(50):
        write(repo, f"src/m{i}.py", "x = 1\n")
    git(repo, "add", "-A")
    probe = (
        "import sys\nfrom memcheck import launch\ncode = launch.fast(['guard'])\n"
        "print('CODE', code, sorted(m for m in ('click', 'pathspec', 'yaml', 'git') if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], cwd=repo, capture_output=True, text=True)
    assert "CODE 0 []" in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_message_file_that_is_no_regular_file_is_an_error_at_once(repo: Path, kind: str) -> None:
    # A FIFO named as the message file hung the hook until killed (found by an
    # outside attacker): it is refused without being read.
    staged_bump(repo)
    special = repo / "MSG"
    os.mkfifo(special) if kind == "fifo" else special.mkdir()
    proc = subprocess.run(
        [sys.executable, "-m", "memcheck", "guard", "--message-file", "MSG"], cwd=repo, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "--message-file MSG: " in proc.stderr
