"""IDX014 index-symlink-outside: a MEMORY.md that is a symlink out of the repository.
A symlink is on disk only."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import example, findings, lint, memory

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"
A = {f"{STORE}/a.md": memory("A", "a", "user")}


PREFS = {f"{STORE}/user_prefs.md": memory("User preferences", "How the user likes to work", "user")}


def test_the_docs_example_a_link_out_of_the_repository_is_reported(tmp_path: Path) -> None:
    # The doc's Example is the `ln -s` that makes the link (to a file that need not
    # exist here: memcheck never follows it), made here as it says.
    ln, s, target, link = example("IDX014").removeprefix("$ ").split()
    assert (ln, s) == ("ln", "-s")
    (tmp_path / link).parent.mkdir(parents=True)
    os.symlink(target, tmp_path / link)
    (found,) = findings(PREFS, root=tmp_path)
    assert (found.path, found.line, found.code, found.fixable) == (INDEX, 1, "IDX014", False)
    assert found.message.startswith("MEMORY.md is a symlink to /home/me/notes/MEMORY.md, outside the repository")


def test_the_docs_use_instead_the_index_fix_writes_is_not_reported() -> None:
    assert lint({**PREFS, INDEX: example("IDX014", "Use instead")}) == []


def test_a_link_to_a_file_of_the_home_folder(tmp_path: Path) -> None:
    root, outside = tmp_path / "repo", tmp_path / "notes" / "MEMORY.md"
    outside.parent.mkdir()
    outside.write_text("- stale\n")
    (root / STORE).mkdir(parents=True)
    os.symlink(outside, root / INDEX)
    (found,) = findings(A, root=root)
    assert (found.path, found.line, found.code, found.fixable) == (INDEX, 1, "IDX014", False)
    assert found.message.startswith(
        f"MEMORY.md is a symlink to {outside}, outside the repository: agents load the index at the start of every session"
    )
    assert found.message.endswith("make MEMORY.md a regular file in the repository (remove the link, then `memcheck fix` writes one)")


def test_a_regular_file() -> None:
    assert lint({**A, INDEX: "- [A](a.md) — a\n"}) == []
