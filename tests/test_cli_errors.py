"""What the command line says when something is wrong, and the small behaviours ruff
and no-color.org users expect: one `memcheck: error: ...` line and exit 2, never a
traceback or an internal error."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import git, invoke, memory, run_cli, write


def _unlisted(repo: Path, name: str = "project_b.md") -> None:
    write(repo, ".claude/memory/project_a.md", memory("a", "About a", "project"))
    write(repo, f".claude/memory/{name}", memory("b", "About b", "project", extra="mood: calm\n"))
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n## Project\n- [a](project_a.md) - About a\n")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_output_file_on_a_full_disk_is_one_error_line(repo: Path) -> None:
    _unlisted(repo)
    proc = run_cli(repo, "check", "-o", "/dev/full")
    assert proc.returncode == 2
    assert proc.stderr == "memcheck: error: --output-file /dev/full: cannot write it: No space left on device\n"


@pytest.mark.skipif(not os.path.exists("/proc/version"), reason="needs /proc (Linux)")
def test_fix_diff_into_a_file_that_takes_no_writes_is_one_error_line(repo: Path) -> None:
    _unlisted(repo)
    proc = run_cli(repo, "fix", "--diff", "-o", "/proc/version")
    assert proc.returncode == 2
    assert proc.stderr.startswith("memcheck: error: --output-file /proc/version: cannot write it")
    assert "internal error" not in proc.stderr


@pytest.mark.parametrize("output", ((), ("-o", "report.txt")), ids=("stdout", "output-file"))
def test_a_non_ascii_name_under_the_c_locale_is_reported(repo: Path, output: tuple[str, ...]) -> None:
    _unlisted(repo, "café.md")
    git(repo, "add", "-A")
    env = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}
    proc = run_cli(repo, "check", *output, env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stderr == ""
    text = (repo / "report.txt").read_text(encoding="utf-8") if output else proc.stdout
    # The file is read and named (with backslash escapes where the locale cannot say é).
    assert "IDX003 memory file caf" in text and "MEM010 unknown frontmatter key 'mood'" in text
