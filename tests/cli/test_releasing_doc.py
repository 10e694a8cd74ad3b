"""RELEASING.md's step 7 quotes what `memcheck check .` prints on memcheck's own
repository: held to what it prints."""

from __future__ import annotations

import re

from conftest import REPO_ROOT, run_cli


def test_step_7_quotes_what_check_prints_on_this_repository() -> None:
    text = (REPO_ROOT / "RELEASING.md").read_text(encoding="utf-8")
    step = text.split("7. **Test the wheel.**", 1)[1].split("8. **", 1)[0]
    quoted = re.search(r"then `(.*?)` \(exit 0", " ".join(step.split()), re.S)
    assert quoted is not None, step
    proc = run_cli(REPO_ROOT, "check", "--no-cache", ".")
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout == quoted.group(1) + "\n"
