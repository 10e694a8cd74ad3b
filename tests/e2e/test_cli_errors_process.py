"""cli_errors: the tests that need a real memcheck process (signals, encodings, lazy imports, console scripts).

The in-process tests of the same behaviour are in tests/cli/test_cli_errors.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import git, run_process, store_with_unlisted


@pytest.mark.e2e  # the locale sets a process's stream encodings when it starts
@pytest.mark.parametrize("output", ((), ("-o", "report.txt")), ids=("stdout", "output-file"))
def test_a_non_ascii_name_under_the_c_locale_is_reported(repo: Path, output: tuple[str, ...]) -> None:
    store_with_unlisted(repo, "café.md")
    git(repo, "add", "-A")
    env = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}
    proc = run_process(repo, "check", *output, env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stderr == ""
    text = (repo / "report.txt").read_text(encoding="utf-8") if output else proc.stdout
    # The file is read and named (with backslash escapes where the locale cannot say é).
    assert "IDX003 memory file caf" in text and "MEM010 frontmatter key 'tpye' looks like a misspelling of 'type'" in text
