"""suppression: the tests that need a real memcheck process (signals, encodings, lazy imports, console scripts).

The in-process tests of the same behaviour are in tests/cli/test_suppression.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import write_guidance


@pytest.mark.e2e  # a real process, which the hang guard's timeout can end
@pytest.mark.slow
def test_many_comments_are_judged_in_linear_time(repo: Path) -> None:
    # Hostile input: as many comments as a 1 MiB file holds, each a finding's target.
    lines = []
    for i in range(12_000):
        lines += [f"<!-- memcheck-disable-next-line GDN009 GDN{i % 50:03} -->", f"@missing{i}.md"]
    write_guidance(repo, "\n".join(lines) + "\n<!-- memcheck-disable GDN013 -->\n" * 2000)
    # A hang guard, not a speed test (bench/ measures speed): pairing comments with
    # lines the quadratic way ran for minutes here.
    proc = subprocess.run(
        [sys.executable, "-m", "memcheck", "check", "--format", "json"], cwd=repo, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode in (0, 1), proc.stderr
    codes = {p["code"] for p in json.loads(proc.stdout)["problems"]}
    # Left: the comments about codes no line has, and the file's size (over the size
    # budget and Codex's 32 KiB).
    assert "GDN009" not in codes and codes <= {"MCK001", "MCK002", "GDN014", "GDN016"}
