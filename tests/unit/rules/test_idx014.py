"""IDX014 index-symlink-outside: a MEMORY.md that is a symlink out of the repository.
A symlink is on disk only."""
from __future__ import annotations

import os
from pathlib import Path

from conftest import findings, lint, memory

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"
A = {f"{STORE}/a.md": memory("A", "a", "user")}


def test_the_docs_example_a_link_to_a_file_of_the_home_folder(tmp_path: Path) -> None:
    root, outside = tmp_path / "repo", tmp_path / "notes" / "MEMORY.md"
    outside.parent.mkdir()
    outside.write_text("- stale\n")
    (root / STORE).mkdir(parents=True)
    os.symlink(outside, root / INDEX)
    (found,) = findings(A, root=root)
    assert (found.path, found.line, found.code, found.fixable) == (INDEX, 1, "IDX014", False)
    assert found.message.startswith(f"MEMORY.md is a symlink to {outside}, outside the repository: agents load the index at the start of every session")
    assert found.message.endswith("make MEMORY.md a regular file in the repository (remove the link, then `memcheck fix` writes one)")


def test_the_docs_use_instead_a_regular_file() -> None:
    assert lint({**A, INDEX: "- [A](a.md) — a\n"}) == []
