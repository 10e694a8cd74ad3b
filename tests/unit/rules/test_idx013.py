"""IDX013 index-symlink: a MEMORY.md that is a symlink inside the repository, with
findings fix would fix. A symlink is on disk only."""
from __future__ import annotations

import os
from pathlib import Path

from conftest import findings, memory, write

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"


def test_the_docs_example_a_linked_index_with_an_unlisted_memory(tmp_path: Path) -> None:
    write(tmp_path, "docs/memory-index.md", "- stale\n")
    (tmp_path / STORE).mkdir(parents=True)
    os.symlink("../../docs/memory-index.md", tmp_path / INDEX)
    found = {p.code: p for p in findings({f"{STORE}/a.md": memory("a", "a", "project")}, root=tmp_path)}
    assert set(found) == {"IDX003", "IDX013"} and not any(p.fixable for p in found.values())
    assert found["IDX013"].message == (
        "MEMORY.md is a symlink to ../../docs/memory-index.md; `memcheck fix` does not write through symlinks: "
        "edit ../../docs/memory-index.md, or replace the link with a file"
    )


def test_the_docs_use_instead_a_linked_index_with_nothing_to_fix(tmp_path: Path) -> None:
    write(tmp_path, "docs/memory-index.md", "- [a](a.md) — a\n")
    (tmp_path / STORE).mkdir(parents=True)
    os.symlink("../../docs/memory-index.md", tmp_path / INDEX)
    assert findings({f"{STORE}/a.md": memory("a", "a", "project")}, root=tmp_path) == []
