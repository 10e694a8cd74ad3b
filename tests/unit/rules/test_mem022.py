"""MEM022 memory-symlink-outside: a memory file that is a symlink out of the
repository. Symlinks are on disk: each case builds its tree in a temporary folder
(``lint(root=...)``), with no git."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import example, memory, write
from memory_rules import STORE, findings, lint


def test_the_docs_example_a_link_to_proc_self_environ_is_reported(tmp_path: Path) -> None:
    # The doc's Example is the `ln -s` that makes the link, made here as it says.
    made = re.fullmatch(r"\$ ln -s (\S+) (\S+)\n", example("MEM022"))
    assert made is not None
    target, link = made.groups()
    (tmp_path / link).parent.mkdir(parents=True)
    (tmp_path / link).symlink_to(target)
    (found,) = findings({}, root=tmp_path)
    assert (found.path, found.line, found.code) == (f"{STORE}/runtime.md", 1, "MEM022")
    assert found.message.startswith("runtime.md is a symlink to /proc/self/environ")


def test_the_docs_use_instead_a_regular_file_is_not_reported(tmp_path: Path) -> None:
    assert lint({f"{STORE}/runtime.md": example("MEM022", "Use instead")}, root=tmp_path) == []


def test_a_link_out_of_the_repository_is_reported(tmp_path: Path) -> None:
    root, outside = tmp_path / "repo", tmp_path / "elsewhere/runtime.md"
    write(outside.parent, outside.name, memory("Runtime", "Read first", "reference"))
    (root / STORE).mkdir(parents=True)
    (root / f"{STORE}/runtime.md").symlink_to(outside)
    (found,) = [p for p in findings({}, root=root) if p.code == "MEM022"]
    assert (found.path, found.line, found.severity) == (f"{STORE}/runtime.md", 1, "error")
    assert found.message.startswith("runtime.md is a symlink to ")
    assert found.message.endswith(
        ": an agent that reads this memory reads that file; memcheck does not follow it, so nothing in it is checked; keep the memory in the repository as a regular file"
    )


def test_a_regular_file_is_not_reported(tmp_path: Path) -> None:
    write(tmp_path, f"{STORE}/runtime.md", memory("Runtime", "Read first", "reference"))
    assert [f for f in lint({}, root=tmp_path) if f[2] == "MEM022"] == []


def test_a_link_out_named_in_capitals_is_reported(tmp_path: Path) -> None:
    # SOUL.md, a harness's identity file, linked to a file out of the repository: the
    # agent loads it by its name and reads what the link names; memcheck cannot tell
    # from an unread file whether it would have been a memory or the store's own file.
    root = tmp_path / "repo"
    write(root, f"{STORE}/review.md", memory("Review", "Concise reviews", "user"))
    (root / f"{STORE}/SOUL.md").symlink_to("/proc/self/environ")
    (found,) = [p for p in findings({}, root=root) if p.code == "MEM022"]
    assert (found.path, found.line) == (f"{STORE}/SOUL.md", 1)
    assert found.message.startswith("SOUL.md is a symlink to /proc/self/environ, outside the repository")
