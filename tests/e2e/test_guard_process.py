"""guard: the tests that need a real memcheck process (signals, encodings, lazy imports, console scripts).

The in-process tests of the same behaviour are in tests/cli/test_guard.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import add_env, commit

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
