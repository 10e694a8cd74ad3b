"""What a check that writes the cache imports: neither tempfile (and with it shutil,
bz2, lzma and random) nor the TOML parser, each a share of the run's peak memory."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import git, memory, write


@pytest.mark.e2e
def test_a_check_that_fills_the_cache_imports_neither_tempfile_nor_tomllib(repo: Path) -> None:
    write(repo, ".memory/a.md", memory("A", "first", "user"))
    write(repo, ".memory/b.md", memory("B", "second", "user"))
    write(repo, ".memory/MEMORY.md", "- [A](a.md) - first\n- [B](b.md) - second\n")
    write(repo, "CLAUDE.md", "# Project\n\nSee @docs/notes.md.\n")
    write(repo, "docs/notes.md", "Notes.\n")
    git(repo, "add", "-A")
    probe = (
        "import sys\n"
        "from memcheck.cli import main\n"
        "try:\n"
        "    main(['check'])\n"
        "finally:\n"
        "    print('LOADED=' + ','.join(m for m in ('tempfile', 'shutil', 'tomllib') if m in sys.modules))\n"
    )
    cache = repo / "cache"
    proc = subprocess.run(
        [sys.executable, "-c", probe], cwd=repo, capture_output=True, text=True, env={**os.environ, "MEMCHECK_CACHE_DIR": str(cache)}
    )
    assert "LOADED=" in proc.stdout, proc.stderr
    assert proc.stdout.rpartition("LOADED=")[2].strip() == ""
    written = [p for p in cache.rglob("*") if p.is_file() and p.parent.name in ("parts", "contexts")]  # one folder per kind
    assert written, "the run filled the cache"
    # Written as mkstemp writes: readable by its owner alone, no temporary file left.
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in written)
    assert not list(cache.rglob(".tmp-*"))
