"""The GitHub Action is a face of the command line: action/run.py runs `memcheck check`
and `memcheck guard` as processes and renders what they print, in at most 265 lines of
the standard library alone (what it does is held by tests/e2e/test_action*.py)."""
from __future__ import annotations

import ast
import sys

from conftest import REPO_ROOT, load_script

from memcheck import choices

RUN = REPO_ROOT / "action" / "run.py"


def test_the_action_is_at_most_265_lines() -> None:
    # (250 until the override label had to be a person's: who added it, from the event)
    assert len(RUN.read_text(encoding="utf-8").splitlines()) <= 265


def test_the_action_imports_the_standard_library_alone() -> None:
    tree = ast.parse(RUN.read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and not node.level}
    assert imported and {name.split(".")[0] for name in imported} <= set(sys.stdlib_module_names) | {"__future__"}
    assert not any(isinstance(node, ast.ImportFrom) and node.level for node in ast.walk(tree))
    assert "importlib" not in imported and "__import__" not in RUN.read_text(encoding="utf-8")


def test_the_format_input_takes_what_check_takes() -> None:
    assert load_script(RUN).FORMATS == choices.FORMATS
