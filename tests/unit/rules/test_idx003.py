"""IDX003 unlisted-memory: a memory file no line of the index lists."""

from __future__ import annotations

from conftest import example, findings, lint, memory

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"


TESTING = {
    f"{STORE}/user_prefs.md": memory("User preferences", "How the user likes to work", "user"),
    f"{STORE}/feedback_testing.md": memory("Testing", "Run pytest before every commit", "feedback"),
}


def test_the_docs_example_a_memory_saved_by_hand_is_reported() -> None:
    (found,) = findings({**TESTING, INDEX: example("IDX003")})
    assert (found.path, found.line, found.code, found.fixable, found.about) == (INDEX, 1, "IDX003", True, f"{STORE}/feedback_testing.md")
    assert (
        found.message
        == "memory file feedback_testing.md is not listed in MEMORY.md; agents that load only the index never see it (run `memcheck fix`)"
    )


def test_the_docs_use_instead_the_index_fix_leaves_is_not_reported() -> None:
    assert lint({**TESTING, INDEX: example("IDX003", "Use instead")}) == []


def test_a_memory_saved_without_an_index_line_is_reported() -> None:
    files = {
        f"{STORE}/user_prefs.md": memory("prefs", "the user's preferences", "user"),
        f"{STORE}/feedback_testing.md": memory("testing", "run pytest first", "feedback"),
        INDEX: "- [prefs](user_prefs.md) — the user's preferences\n",
    }
    (found,) = findings(files)
    assert (found.path, found.line, found.code, found.fixable, found.about) == (INDEX, 1, "IDX003", True, f"{STORE}/feedback_testing.md")
    assert (
        found.message
        == "memory file feedback_testing.md is not listed in MEMORY.md; agents that load only the index never see it (run `memcheck fix`)"
    )


def test_a_line_that_names_the_memory_lists_it() -> None:
    files = {f"{STORE}/api.md": memory("api", "the API", "project"), INDEX: "# Notes\n\n- api: the API\n"}
    assert lint(files, select="IDX003") == []


def test_a_memory_in_a_heuristic_store_beside_ordinary_documents() -> None:
    files = {
        "notes/MEMORY.md": "- [A](a.md) — a\n",
        "notes/a.md": memory("A", "a", "user"),
        "notes/b.md": memory("B", "b", "user"),
        "MEMORY.md": "# My long-term memory\n",
        "README.md": "# Project\n",
        "CHANGELOG.md": "# Changes\n",
    }
    assert lint(files) == [("notes/MEMORY.md", 1, "IDX003")]


def test_stems_a_curated_index_names_in_code_spans_list_their_memories() -> None:
    """Issue 40's shape: "Topic files here carry the detail: `stem-a`, `stem-b`"
    (stems in backticks, no .md, no links) names the files, which exist."""
    files = {
        f"{STORE}/deploy-notes.md": memory("Deploy notes", "How the app ships", "project"),
        f"{STORE}/api-keys.md": memory("API keys", "Where the keys live", "reference"),
        f"{STORE}/user_prefs.md": memory("User preferences", "How the user likes to work", "user"),
        INDEX: "# Memory\n\n- [User preferences](user_prefs.md) — How the user likes to work\n\n"
        "Topic files here carry the detail: `deploy-notes`, `api-keys`.\n",
    }
    assert lint(files, select="IDX003") == []


def test_one_stem_in_a_code_span_or_stems_on_a_line_that_links_elsewhere_list_nothing() -> None:
    """One stem alone is as often a command or a package of that name; a line with a
    link says which file it means."""
    memories = {
        f"{STORE}/deploy-notes.md": memory("Deploy notes", "How the app ships", "project"),
        f"{STORE}/api-keys.md": memory("API keys", "Where the keys live", "reference"),
        f"{STORE}/user_prefs.md": memory("User preferences", "How the user likes to work", "user"),
    }
    linked = "- [User preferences](user_prefs.md) — set `deploy-notes`, `api-keys` aside\n"
    assert lint({**memories, INDEX: linked}, select="IDX003") == [(INDEX, 1, "IDX003"), (INDEX, 1, "IDX003")]
    alone = "- [User preferences](user_prefs.md) — How the user likes to work\n- run `deploy-notes` first\n- `api-keys.md` too\n"
    assert lint({**memories, INDEX: alone}, select="IDX003") == [(INDEX, 3, "IDX003")]
