"""No workflow command and no terminal sequence from a file or a config, in the bytes
a real memcheck process writes (tests/cli/test_no_injection.py has the rest, in this
process)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import write

# A line as GitHub's runner splits its log (LF, CR) or a viewer does (NEL, U+2028).
_LINE_BREAK = re.compile(rb"\r\n|[\n\r\x0b\x0c]|\xc2\x85|\xe2\x80[\xa8\xa9]")


def _memcheck(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "memcheck", *args], cwd=root, capture_output=True, env={**os.environ, "GITHUB_ACTIONS": "true"}
    )


def _commands(out: bytes) -> list[bytes]:
    return [line for line in _LINE_BREAK.split(out) if line.lstrip().startswith(b"::") or b"##[" in line]


def test_a_config_and_a_file_issue_no_command_and_no_escape_sequence(repo: Path) -> None:
    write(repo, ".memcheck.yaml", f"baseline: {json.dumps('x' + chr(10) + '::add-mask::x' + chr(13) + '::error::forged')}\n")
    usage = _memcheck(repo, "check")
    assert usage.returncode == 2
    assert usage.stderr.startswith(b"memcheck: error: baseline ") and usage.stderr.count(b"\n") == 1, usage.stderr
    assert _commands(usage.stderr) == []

    (repo / ".memcheck.yaml").unlink()
    write(repo, "AGENTS.md", "# Project\n\nSee [notes](%1B%5D0%3Bpwned%07%1B%5B8m.md) and [more](%0A%3A%3Aerror%3A%3Aforged.md).\n")
    text = _memcheck(repo, "check", "--format", "text")
    assert text.returncode == 0 and text.stderr == b"", text.stderr
    assert b"GDN013" in text.stdout
    assert b"\x1b" not in text.stdout and b"\x07" not in text.stdout
    assert _commands(text.stdout) == []
    github = _memcheck(repo, "check", "--format", "auto")  # GITHUB_ACTIONS: annotations
    assert b"\x1b" not in github.stdout
    assert [line for line in _commands(github.stdout) if not line.startswith(b"::warning file=AGENTS.md,")] == []
