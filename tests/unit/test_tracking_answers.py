"""What the tracker notes of a folder's regular files, and how the cache asks it again."""
from __future__ import annotations

from pathlib import Path

from memcheck.workspace.disk import DiskSource
from memcheck.workspace.tracking import TrackedSource, Tracker, answerer, names_digest


def test_a_folders_files_are_noted_by_their_digest_and_asked_again_the_same_way(tmp_path: Path) -> None:
    (tmp_path / "store").mkdir()
    for name in ("b.md", "a.md", "MEMORY.md"):
        (tmp_path / "store" / name).write_text("x\n")
    source = DiskSource(tmp_path, files=["store/a.md", "store/b.md", "store/MEMORY.md"])
    tracker = Tracker()
    found = TrackedSource(source, tracker).regular_files_in("store")
    assert found == {"a.md", "b.md", "MEMORY.md"}
    noted = tracker.context_questions[("regular_files_in", "store")]
    # The digest, not the names (every store's folder is asked, in every process).
    assert noted == names_digest(frozenset({"MEMORY.md", "a.md", "b.md"}))
    ask = answerer(source, tmp_path, "regular_files_in")
    assert ask is not None
    assert ask("store") == noted
    (tmp_path / "store" / "c.md").write_text("x\n")
    assert ask("store") != noted


def test_the_digest_is_of_the_names_in_any_order() -> None:
    assert names_digest(frozenset({"a.md", "b.md"})) == names_digest(frozenset({"b.md", "a.md"}))
    assert names_digest(frozenset({"a.md", "b.md"})) != names_digest(frozenset({"a.md"}))
