"""IDX012 ignored-index: a MEMORY.md git ignores while its memories are committed.
git is the judge of what it ignores: a real repository."""

from __future__ import annotations

from pathlib import Path

from conftest import example, findings, git, memory, write

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"


def _forced(repo: Path) -> None:
    write(repo, ".gitignore", example("IDX012"))  # the doc's .gitignore
    write(repo, f"{STORE}/a.md", memory("A", "a", "user"))
    git(repo, "add", ".gitignore")
    git(repo, "add", "-f", f"{STORE}/a.md")
    git(repo, "commit", "-qm", "memories, force-added")
    write(repo, INDEX, "- [A](a.md) — a\n")


def test_the_docs_example_an_index_fix_wrote_and_nobody_added(repo: Path) -> None:
    _forced(repo)
    (found,) = findings({}, root=repo)
    assert (found.path, found.line, found.code, found.severity) == (INDEX, 1, "IDX012", "warning")
    assert found.message == f"git ignores {INDEX}, so other clones get the memories without their index; commit it: `git add -f {INDEX}`"


def test_the_docs_use_instead_the_index_committed(repo: Path) -> None:
    _forced(repo)
    command = example("IDX012", "Use instead").removeprefix("$ ").split()
    assert command[:3] == ["git", "add", "-f"]
    git(repo, *command[1:])
    assert findings({}, root=repo) == []
