"""IDX006 index-out-of-date: in generate mode, an index that is not its render."""

from __future__ import annotations

from conftest import example, findings, lint, memory

STORE = ".memory"
INDEX = f"{STORE}/MEMORY.md"
GENERATE = {"index": {"mode": "generate"}}


C = {".claude/memory/c.md": memory("Deploy target", "Where the app is deployed", "project")}


def test_the_docs_example_a_memory_listed_under_its_old_type_is_reported() -> None:
    (found,) = findings({**C, ".claude/memory/MEMORY.md": example("IDX006")})
    assert (found.path, found.line, found.code, found.fixable) == (".claude/memory/MEMORY.md", 3, "IDX006", True)
    assert (
        found.message
        == "MEMORY.md differs from its grouped render from line 3; run `memcheck fix` (or `memcheck index .claude/memory` to see it)"
    )


def test_the_docs_use_instead_what_fix_writes_is_not_reported() -> None:
    assert lint({**C, ".claude/memory/MEMORY.md": example("IDX006", "Use instead")}) == []


def test_a_description_the_memory_has_since_changed() -> None:
    files = {f"{STORE}/a.md": memory("Alpha", "new description", "user"), INDEX: "# Memory\n\n## User\n- [Alpha](a.md) - old description\n"}
    (found,) = findings(files, config=GENERATE)
    assert (found.path, found.line, found.code, found.fixable) == (INDEX, 4, "IDX006", True)
    assert (
        found.message == "MEMORY.md differs from its grouped render from line 4; run `memcheck fix` (or `memcheck index .memory` to see it)"
    )


def test_the_render_is_not_reported() -> None:
    files = {f"{STORE}/a.md": memory("Alpha", "new description", "user"), INDEX: "# Memory\n\n## User\n- [Alpha](a.md) - new description\n"}
    assert lint(files, config=GENERATE) == []


def test_a_curated_index_in_sync_mode_is_not_reported() -> None:
    # With index.mode unset, a description that is not the memory's is a curator's hook.
    files = {f"{STORE}/a.md": memory("Alpha", "new description", "user"), INDEX: "# Memory\n\n## User\n- [Alpha](a.md) - old description\n"}
    assert lint(files) == []


def test_not_reported_while_another_finding_is_fixable() -> None:
    # An unlisted memory: its IDX003 says what fix does, and the render follows from it.
    files = {
        f"{STORE}/a.md": memory("Alpha", "new description", "user"),
        f"{STORE}/b.md": memory("Beta", "b", "user"),
        INDEX: "# Memory\n\n## User\n- [Alpha](a.md) - old description\n",
    }
    assert [p.code for p in findings(files, config=GENERATE)] == ["IDX003"]


def test_a_hand_written_one_entry_index_is_curated_not_an_out_of_date_render() -> None:
    """Issue 40's shape: `# Memory` and one entry under no type heading. The grouped
    render puts every entry under its type's heading; one entry has no order to tell."""
    files = {f"{STORE}/api.md": memory("api", "api notes", "project"), INDEX: "# Memory\n- [api](api.md) - api notes\n"}
    assert lint(files) == []
    # The mode set in the config still asks for the render.
    assert lint(files, config=GENERATE) == [(INDEX, 2, "IDX006")]
