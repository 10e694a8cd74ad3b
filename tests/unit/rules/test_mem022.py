"""MEM022 memory-symlink-outside: a memory file that is a symlink out of the
repository. Symlinks are on disk: each case builds its tree in a temporary folder
(``lint(root=...)``), with no git."""
from __future__ import annotations

from pathlib import Path

from conftest import memory, write
from memory_rules import STORE, findings, lint


def test_the_docs_example_is_reported(tmp_path: Path) -> None:
    root, outside = tmp_path / "repo", tmp_path / "elsewhere/runtime.md"
    write(outside.parent, outside.name, memory("Runtime", "Read first", "reference"))
    (root / STORE).mkdir(parents=True)
    (root / f"{STORE}/runtime.md").symlink_to(outside)
    (found,) = [p for p in findings({}, root=root) if p.code == "MEM022"]
    assert (found.path, found.line, found.severity) == (f"{STORE}/runtime.md", 1, "error")
    assert found.message.startswith("runtime.md is a symlink to ")
    assert found.message.endswith(": an agent that reads this memory reads that file; memcheck does not follow it, so nothing in it is checked; keep the memory in the repository as a regular file")


def test_the_docs_use_instead_a_regular_file_is_not_reported(tmp_path: Path) -> None:
    write(tmp_path, f"{STORE}/runtime.md", memory("Runtime", "Read first", "reference"))
    assert [f for f in lint({}, root=tmp_path) if f[2] == "MEM022"] == []
