"""Rule families are self-contained: what several of them need lives outside checks/."""
from __future__ import annotations

import ast

import pytest
from conftest import REPO_ROOT

CHECKS = REPO_ROOT / "src" / "memcheck" / "checks"


def _imported_modules(source: str) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("module", sorted(p.name for p in CHECKS.glob("*.py") if p.name != "__init__.py"))
def test_no_rule_family_imports_another(module: str) -> None:
    imported = _imported_modules((CHECKS / module).read_text(encoding="utf-8"))
    assert sorted(m for m in imported if m.startswith("memcheck.checks")) == []
