"""The GitHub Action is a face of the command line: action/run.py runs `memcheck check`
and `memcheck guard` as processes and renders what they print, in at most 250 lines of
the standard library alone, formatted as the rest of the code (what it does is held by tests/e2e/test_action*.py)."""

from __future__ import annotations

import ast
import sys

from conftest import REPO_ROOT, load_script

from memcheck import choices

RUN = REPO_ROOT / "action" / "run.py"


def test_the_action_is_at_most_250_lines() -> None:
    # (ruff format lays it out, as every other module: pyproject.toml excludes nothing)
    assert len(RUN.read_text(encoding="utf-8").splitlines()) <= 250


def test_the_action_imports_the_standard_library_alone() -> None:
    tree = ast.parse(RUN.read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and not node.level}
    assert imported and {name.split(".")[0] for name in imported} <= set(sys.stdlib_module_names) | {"__future__"}
    assert not any(isinstance(node, ast.ImportFrom) and node.level for node in ast.walk(tree))
    assert "importlib" not in imported and "__import__" not in RUN.read_text(encoding="utf-8")


def test_the_format_input_takes_what_check_takes() -> None:
    assert load_script(RUN).FORMATS == choices.FORMATS


def test_annotations_escape_what_draws_nothing_and_what_the_runner_reads() -> None:
    # `\u202e.env` printed raw in an annotation reads as something else (found by an outside
    # attacker); the Action's own notes (a branch's name, git's words) show every character
    # but printable ASCII as its %XX bytes, and the annotations of findings are memcheck's own.
    run = load_script(RUN)
    for text in ("\u202e.env", "\u200b.env", ".e\u200cnv", "a\r\n::error::forged", "100%"):
        escaped = run.escape(text)
        assert escaped.isascii() and escaped.isprintable() and "\n" not in escaped
    assert run.escape("\u202e.env") == "%E2%80%AE.env" and run.escape("100%") == "100%25"
    assert run.escape("main: no such branch, say") == "main: no such branch, say"
