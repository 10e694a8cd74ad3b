"""What the tracker notes of a folder's regular files, and how the cache asks it again."""

from __future__ import annotations

from pathlib import Path

import pytest

from memcheck import config
from memcheck.text.document import Document
from memcheck.workspace.discover import Workspace
from memcheck.workspace.disk import DiskSource
from memcheck.workspace.memory import MemorySource
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


def _tracked_workspace(files: dict[str, str]) -> tuple[Workspace, Tracker]:

    settings = config.from_mapping(Path("/nonexistent/memcheck-in-memory"), config.defaults())
    ws = Workspace(settings, MemorySource({path: text.encode() for path, text in files.items()}))
    tracker = Tracker()
    ws.track(tracker)
    return ws, tracker


def _reads_of_value(ws: Workspace, doc: Document) -> str:
    return ws.document("store/b.md").text


def test_a_document_asked_again_in_the_same_frame_is_noted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    ws, tracker = _tracked_workspace({"store/a.md": "a\n", "guide.md": "g\n"})
    noted: list[str] = []
    read = Tracker.read

    def counted(self: Tracker, path: str, key: str | None) -> None:
        noted.append(path)
        read(self, path, key)

    monkeypatch.setattr(Tracker, "read", counted)
    with tracker.part(["store/a.md"]) as frame:
        for _ in range(5):
            ws.document("store/a.md")
            ws.document("guide.md")
    assert noted == ["store/a.md", "guide.md"]
    assert set(frame.reads) == {"store/a.md", "guide.md"}
    # The part's own file is its own; the other is the context's too.
    assert set(tracker.context_reads) == {"guide.md"}


def test_an_own_file_read_again_by_a_value_is_the_contexts_too() -> None:
    ws, tracker = _tracked_workspace({"store/a.md": "a\n", "store/b.md": "b\n"})
    with tracker.part(["store/a.md", "store/b.md"]) as frame:
        ws.document("store/b.md")
        assert "store/b.md" not in tracker.context_reads
        # A value worked out once is handed to later parts: what it reads is the context's,
        # though this part read the file already.
        doc = ws.document("store/a.md")
        ws.derived(doc, _reads_of_value)
        assert "store/b.md" in tracker.context_reads
        ws.document("store/b.md")
    assert set(frame.reads) == {"store/a.md", "store/b.md"}


def test_a_piece_notes_what_its_part_read_before_it() -> None:
    ws, tracker = _tracked_workspace({"store/a.md": "a\n"})
    with tracker.part(["store/a.md"]):
        ws.document("store/a.md")
        with tracker.piece() as piece:
            ws.document("store/a.md")
        assert set(piece.reads) == {"store/a.md"}
