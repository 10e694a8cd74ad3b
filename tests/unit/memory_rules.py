"""What the MEM rules' tests (tests/unit/rules/test_mem0NN.py) share: a store, and
conftest's ``lint``/``findings`` with the MEM rules alone on (a store without its
MEMORY.md, or one that does not list its memories, is the IDX rules' business)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import conftest

from memcheck.problem import Problem

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"
MEMORY = f"{STORE}/review.md"


def lint(files: dict[str, str], root: Path | None = None, config: dict[str, Any] | None = None) -> list[tuple[str, int, str]]:
    return conftest.lint(files, "MEM", root, config)


def findings(files: dict[str, str], root: Path | None = None, config: dict[str, Any] | None = None) -> list[Problem]:
    return conftest.findings(files, "MEM", root, config)


def with_fields(fields: str, body: str = "Body.\n") -> str:
    """A memory whose frontmatter is ``fields`` (its lines, each ending in a newline)."""
    return f"---\n{fields}---\n\n{body}"
