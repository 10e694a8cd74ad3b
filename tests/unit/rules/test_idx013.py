"""IDX013 index-symlink: a MEMORY.md that is a symlink inside the repository, with
findings fix would fix. A symlink is on disk only."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import example, findings, memory, write

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"


def _linked_as_the_doc_says(root: Path) -> None:
    # The doc's Example is the `ln -s` that makes the link, made here as it says.
    ln, s, target, link = example("IDX013").removeprefix("$ ").split()
    assert (ln, s) == ("ln", "-s")
    (root / link).parent.mkdir(parents=True)
    os.symlink(target, root / link)


def test_the_docs_example_a_linked_index_with_an_unlisted_memory_is_reported(tmp_path: Path) -> None:
    write(tmp_path, "docs/memory-index.md", "# Memory\n")
    _linked_as_the_doc_says(tmp_path)
    found = findings({f"{STORE}/user_prefs.md": memory("User preferences", "How the user likes to work", "user")}, root=tmp_path)
    assert [(p.path, p.code) for p in found] == [(INDEX, "IDX003"), (INDEX, "IDX013")]


def test_the_docs_use_instead_the_linked_file_edited_is_not_reported(tmp_path: Path) -> None:
    write(tmp_path, "docs/memory-index.md", example("IDX013", "Use instead"))
    _linked_as_the_doc_says(tmp_path)
    assert findings({f"{STORE}/user_prefs.md": memory("User preferences", "How the user likes to work", "user")}, root=tmp_path) == []


def test_a_linked_index_with_an_unlisted_memory(tmp_path: Path) -> None:
    write(tmp_path, "docs/memory-index.md", "- stale\n")
    (tmp_path / STORE).mkdir(parents=True)
    os.symlink("../../docs/memory-index.md", tmp_path / INDEX)
    found = {p.code: p for p in findings({f"{STORE}/a.md": memory("a", "a", "project")}, root=tmp_path)}
    assert set(found) == {"IDX003", "IDX013"} and not any(p.fixable for p in found.values())
    assert found["IDX013"].message == (
        "MEMORY.md is a symlink to ../../docs/memory-index.md; `memcheck fix` does not write through symlinks: "
        "edit ../../docs/memory-index.md, or replace the link with a file"
    )


def test_a_linked_index_with_nothing_to_fix(tmp_path: Path) -> None:
    write(tmp_path, "docs/memory-index.md", "- [a](a.md) — a\n")
    (tmp_path / STORE).mkdir(parents=True)
    os.symlink("../../docs/memory-index.md", tmp_path / INDEX)
    assert findings({f"{STORE}/a.md": memory("a", "a", "project")}, root=tmp_path) == []
