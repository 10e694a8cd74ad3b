"""The GitHub Action is a face of the command line: action/run.py runs `memcheck check`
and `memcheck guard` as processes and renders what they print, in at most 267 lines of
the standard library alone (what it does is held by tests/e2e/test_action*.py)."""

from __future__ import annotations

import ast
import sys

from conftest import REPO_ROOT, load_script

from memcheck import choices

RUN = REPO_ROOT / "action" / "run.py"


def test_the_action_is_at_most_267_lines() -> None:
    # (250 until the override label had to be a person's, who added it read from the event,
    # annotations escaped what draws nothing, and a merge queue's range was read; next: guard judges the label's event itself)
    assert len(RUN.read_text(encoding="utf-8").splitlines()) <= 267


def test_the_action_imports_the_standard_library_alone() -> None:
    tree = ast.parse(RUN.read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and not node.level}
    assert imported and {name.split(".")[0] for name in imported} <= set(sys.stdlib_module_names) | {"__future__"}
    assert not any(isinstance(node, ast.ImportFrom) and node.level for node in ast.walk(tree))
    assert "importlib" not in imported and "__import__" not in RUN.read_text(encoding="utf-8")


def test_the_format_input_takes_what_check_takes() -> None:
    assert load_script(RUN).FORMATS == choices.FORMATS


def test_annotations_escape_what_draws_nothing_as_memcheck_does() -> None:
    # `\u202e.env` printed raw in an annotation's file= reads as something else (found
    # by an outside attacker); the Action escapes what memcheck's own reports escape.
    from memcheck import paths

    run = load_script(RUN)
    assert "[" + run.IGNORABLE + "]" == paths.IGNORABLE.pattern
    for name in ("\u202e.env", "\u200b.env", ".e\u200cnv"):
        escaped = run.escape(name, prop=True)
        assert escaped.isascii() and "%E2%80%" in escaped
