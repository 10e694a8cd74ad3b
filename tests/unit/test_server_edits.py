"""The language server's pure parts: the editor's documents laid over a source, and
the edits a finding offers (each tried on the text before it is offered)."""

from __future__ import annotations

import pytest
from conftest import memory

from memcheck.problem import Problem
from memcheck.server.edits import TextEdit, apply, quote_value, suppression_action
from memcheck.server.session import DiskChange, disk_change, watch_globs
from memcheck.suppression import apply as suppress
from memcheck.text.document import parse
from memcheck.workspace.memory import MemorySource
from memcheck.workspace.overlay import OverlaySource


def _problem(path: str, line: int, code: str, col: int = 1) -> Problem:
    return Problem(path, line, col, code, "message", "error")


def test_the_overlay_reads_open_documents_and_the_base_for_the_rest() -> None:
    base = MemorySource({".memory/a.md": b"on disk\n", ".memory/b.md": b"b\n"})
    overlay = OverlaySource(base, {".memory/a.md": "typed, not saved\n", ".memory/new.md": "new\n", "notes/deep/c.md": "c\n"})
    assert overlay.read(".memory/a.md").text == "typed, not saved\n"
    assert overlay.read(".memory/b.md").text == "b\n"
    # A new file not yet saved is listed, and its folders exist.
    assert overlay.listing().files == [".memory/a.md", ".memory/b.md", ".memory/new.md", "notes/deep/c.md"]
    assert overlay.is_file(".memory/new.md") and overlay.exists("notes/deep") and overlay.exists("notes")
    assert overlay.entries_in("notes") == (["deep"], [])
    assert overlay.regular_files_in(".memory") == {"a.md", "b.md", "new.md"}
    entry = overlay.entry(".memory/a.md")
    assert entry is not None and entry.size == len("typed, not saved\n")
    assert not overlay.is_file(".memory/gone.md") and overlay.read(".memory/gone.md").error is not None


def test_the_overlay_reads_text_that_is_not_utf8_on_disk_as_the_editor_decoded_it() -> None:
    overlay = OverlaySource(MemorySource({"a.md": b"\xff\xfe"}), {"a.md": "caf\u00e9\n"})
    doc = overlay.read("a.md")
    assert doc.error is None and doc.text == "caf\u00e9\n"


@pytest.mark.parametrize(
    ("text", "line", "code", "expected"),
    [
        pytest.param(
            "- [A](a.md)\n- [B](b.md)\n",
            2,
            "IDX002",
            "- [A](a.md)\n<!-- memcheck-disable-next-line IDX002 -->\n- [B](b.md)\n",
            id="markdown",
        ),
        pytest.param("- [A](a.md)\n", 1, "IDX002", "<!-- memcheck-disable-next-line IDX002 -->\n- [A](a.md)\n", id="first-line"),
        pytest.param(
            "---\nname: A\ndescription: x\n---\n\nBody.\n",
            3,
            "MEM010",
            "---\nname: A\n# memcheck-disable-next-line MEM010\ndescription: x\n---\n\nBody.\n",
            id="frontmatter",
        ),
        pytest.param(
            "---\nname: A\n---\n\nBody.\n",
            1,
            "MEM003",
            "---\nname: A\n---\n<!-- memcheck-disable-file MEM003 -->\n\nBody.\n",
            id="opening-fence-whole-file",
        ),
        pytest.param(
            "```\ncode\n```\n", 2, "GDN001", "<!-- memcheck-disable-file GDN001 -->\n```\ncode\n```\n", id="in-a-fence-whole-file"
        ),
    ],
)
def test_the_suppression_comment_silences_the_finding(text: str, line: int, code: str, expected: str) -> None:
    doc = parse("x.md", text.encode())
    action = suppression_action(doc, _problem("x.md", line, code))
    assert action is not None
    after = apply(text, action.edit)
    assert after == expected
    # And the comment does silence it, where it now is.
    moved = line + (action.edit.line <= line - 1)
    assert suppress([_problem("x.md", moved, code)], {"x.md": parse("x.md", after.encode())}, {code}) == []


def test_no_suppression_is_offered_for_a_secret() -> None:
    assert suppression_action(parse("x.md", b"token\n"), _problem("x.md", 1, "SEC001")) is None


@pytest.mark.parametrize(
    ("line", "quoted"),
    [
        pytest.param("description: use C# and F# #sharp", 'description: "use C# and F# #sharp"', id="comment"),
        pytest.param('description: say "hi" #now', 'description: "say \\"hi\\" #now"', id="inner-quotes"),
        pytest.param("description: caf\u00e9 #x", 'description: "caf\u00e9 #x"', id="unicode"),
    ],
)
def test_quote_value_makes_yaml_read_the_whole_value(line: str, quoted: str) -> None:
    text = memory("A", "placeholder", "user").replace("description: placeholder", line)
    doc = parse("a.md", text.encode())
    action = quote_value(doc, _problem("a.md", 3, "MEM019"))
    assert action is not None and action.title == "Quote the value of description"
    after = apply(text, action.edit)
    assert after == text.replace(line, quoted)
    fm = parse("a.md", after.encode()).frontmatter
    assert fm is not None and fm.data["description"] == line.partition(": ")[2]


def test_quote_value_offers_nothing_off_a_frontmatter_line() -> None:
    text = memory("A", "x", "user")
    assert quote_value(parse("a.md", text.encode()), _problem("a.md", 7, "MEM019")) is None


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        pytest.param(TextEdit(0, 0, 0, 0, "X"), "Xab\ncd\n", id="insert"),
        pytest.param(TextEdit(0, 1, 1, 1, ""), "ad\n", id="across-lines"),
        pytest.param(TextEdit(0, 0, 3, 0, "new\n"), "new\n", id="whole"),
    ],
)
def test_apply(edit: TextEdit, expected: str) -> None:
    assert apply("ab\ncd\n", edit) == expected


def test_watch_globs_cover_agent_files_and_settings() -> None:
    globs = watch_globs(None)
    assert globs[:3] == ["**/*.md", "**/.memcheck.yaml", "**/pyproject.toml"]
    assert len(globs) == len(set(globs))
    # Cline's rules file has no extension: the editor must still report its changes.
    assert "**/.clinerules" in globs


def test_disk_change_compares_only_the_folders_both_looked_at() -> None:
    before = {"": {".memcheck.yaml": (1, 10)}, ".memory": {"MEMORY.md": (1, 5), "a.md": (1, 7), "gone.md": (1, 3)}}
    after = {
        "": {".memcheck.yaml": (1, 10)},
        ".memory": {"MEMORY.md": (1, 5), "a.md": (2, 9), "new.md": (1, 4)},
        "notes": {"x.md": (1, 1)},  # opened since: nothing to compare it with yet
    }
    assert disk_change(before, after) == DiskChange([".memory/a.md", ".memory/new.md"], [".memory/gone.md"], True)
    assert disk_change(after, after) == DiskChange([], [], False)
    assert disk_change(before, {**before, ".memory": {**before[".memory"], "a.md": (3, 7)}}) == DiskChange([".memory/a.md"], [], False)
