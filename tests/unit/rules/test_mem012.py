"""MEM012 non-slug-filename: a memory file name that breaks links or checkouts, and two
names of a store that differ only by case. The doc's *Example* is a file's path."""

from __future__ import annotations

from conftest import example, memory
from memory_rules import STORE, findings, lint

TEXT = memory("Review style", "Concise reviews", "user")


def test_the_docs_example_is_reported() -> None:
    path = example("MEM012").strip()
    (found,) = findings({path: TEXT})
    assert (found.path, found.line, found.code) == (f"{STORE}/Review Style.md", 1, "MEM012")
    assert found.message.startswith("file name 'Review Style.md' holds ") and found.message.endswith("; rename it to Review-Style.md")


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({example("MEM012", "Use instead").strip(): TEXT}) == []


def test_the_other_name_the_doc_offers_is_not_reported() -> None:
    assert lint({f"{STORE}/Review-Style.md": TEXT, f"{STORE}/review_style.md": memory("Other", "Other", "user")}) == []


def test_the_slug_is_not_offered_where_a_file_of_that_name_exists() -> None:
    (found,) = [
        p
        for p in findings({f"{STORE}/Review Style.md": TEXT, f"{STORE}/Review-Style.md": memory("Other", "Other", "user")})
        if p.code == "MEM012"
    ]
    assert found.message.endswith("; rename it")


def test_two_names_that_differ_only_by_case_the_later_is_reported() -> None:
    (found,) = [
        p for p in findings({f"{STORE}/Notes.md": TEXT, f"{STORE}/notes.md": memory("Other", "Other", "user")}) if p.code == "MEM012"
    ]
    assert (found.path, found.line) == (f"{STORE}/notes.md", 1)
    assert (
        found.message == "notes.md and Notes.md differ only by case and collide on macOS and Windows checkouts; merge them into one memory"
    )


def test_capital_letters_are_left_alone() -> None:
    # Names other tools look for as they are (OpenClaw's SOUL.md, a hook's LAST_SESSION.md).
    assert (
        lint(
            {
                f"{STORE}/SOUL.md": memory("Soul", "Who the agent is", "user"),
                f"{STORE}/LAST_SESSION.md": memory("Last", "The last session", "project"),
            }
        )
        == []
    )


def test_names_that_break_links_or_checkouts() -> None:
    files = {
        f"{STORE}/deploy notes.md": memory("Deploy", "d", "project"),
        f"{STORE}/what?.md": memory("What", "w", "project"),
        f"{STORE}/ok.md": memory("Ok", "o", "user"),
    }
    assert [(p.path, p.message) for p in findings(files)] == [
        (
            f"{STORE}/deploy notes.md",
            "file name 'deploy notes.md' holds a space, which breaks unescaped Markdown links to it; rename it to deploy-notes.md",
        ),
        (f"{STORE}/what?.md", "file name 'what?.md' holds '?', which Windows does not allow in a file name; rename it to what.md"),
    ]


def test_a_store_s_own_documents_that_differ_only_by_case_are_reported() -> None:
    # An outside attack's recipe: two archives of the index (the store's own documents,
    # no memory) named alike but for case: one replaces the other on such a checkout.
    files = {
        f"{STORE}/a.md": memory("a", "about a", "project"),
        f"{STORE}/MEMORY.md": "- [a](a.md) - about a\n",
        f"{STORE}/MEMORY.old.md": "# Old\n",
        f"{STORE}/MEMORY.OLD.md": "# Older\n",
    }
    assert [(p.code, p.path) for p in findings(files)] == [("MEM012", f"{STORE}/MEMORY.old.md")]


def test_a_memory_named_as_the_index_in_another_case_is_reported() -> None:
    # An outside attack's recipe: `memory.md` beside MEMORY.md, which links it: on a
    # checkout that ignores case the two are one file, and one replaces the index.
    for name in ("memory.md", "Memory.md"):
        files = {f"{STORE}/{name}": memory("m", "about m", "project"), f"{STORE}/MEMORY.md": f"- [m]({name}) - about m\n"}
        found = [p for p in findings(files) if p.code == "MEM012"]
        assert [(p.path, p.message) for p in found] == [
            (
                f"{STORE}/{name}",
                f"{name} and MEMORY.md differ only by case and collide on macOS and Windows checkouts, where one replaces the other; rename {name}",
            )
        ], name
