"""IDX005 link-escapes-store: an index link that leaves the memory store."""

from __future__ import annotations

from conftest import example, findings, lint, memory

STORE = ".memory"
INDEX = f"{STORE}/MEMORY.md"
A = {f"{STORE}/a.md": memory("A", "a", "user")}


def test_the_docs_example_is_reported() -> None:
    (found,) = findings({**A, INDEX: "# Notes\n- [A](a.md) — a\n" + example("IDX005")}, select="IDX005")
    assert (found.path, found.line, found.col, found.code) == (INDEX, 3, 3, "IDX005")
    assert found.message == "link to '../../../plans/INDEX.md' points outside the repository; keep index entries inside the memory store"


def test_the_docs_use_instead_an_entry_for_a_memory_of_the_store_is_not_reported() -> None:
    files = {
        **A,
        f"{STORE}/project_plans.md": memory("Plans", "where the plans are kept", "project"),
        INDEX: "# Notes\n- [A](a.md) — a\n" + example("IDX005", "Use instead"),
    }
    assert lint(files) == []


def test_a_link_to_a_file_of_the_repository_is_a_cross_reference() -> None:
    files = {**A, "docs/guide.md": "guide\n", INDEX: "# Notes\n- [A](a.md) — a\n- [Guide](../docs/guide.md) — a cross-reference\n"}
    assert lint(files) == []


def test_the_index_link_rules_together() -> None:
    index = (
        "# Notes\n"
        "- [A](a.md) — a\n"
        "- [A again](a.md) — dup\n"
        "- a note that mentions [A](a.md) mid-sentence is not an entry\n"
        "- [Guide](../docs/guide.md) — outside the store, a cross-reference\n"
        "- [Web](https://example.com/x.md) — url\n"
        "- [Up](../../../elsewhere.md) — outside the repository\n"
    )
    found = findings({**A, "docs/guide.md": "guide\n", INDEX: index})
    assert [(p.code, p.line) for p in found] == [("IDX004", 3), ("IDX005", 6), ("IDX005", 7)]
    assert found[1].message == "link to 'https://example.com/x.md' points outside the store; keep index entries inside the memory store"


def test_a_url_cited_mid_sentence_in_a_status_note_is_no_entry() -> None:
    # A prose status log in MEMORY.md cites its pull request and CI run: the links lead
    # no entry, and nothing of them belongs in the store.
    index = (
        "# Notes\n"
        "- [A](a.md) — a\n"
        "- **T54 (PR [#85](https://github.com/o/r/pull/85), CI run [`252`](https://github.com/o/r/actions/runs/252) ✓):** done\n"
        "See [the plans](/srv/plans/INDEX.md) and [old](../../../elsewhere.md) for more.\n"
    )
    assert findings({**A, INDEX: index}, select="IDX005") == []


def test_an_entry_led_by_a_url_is_still_reported() -> None:
    index = "# Notes\n- [A](a.md) — a\n- **[Design](https://example.com/design)** — the design doc, see [A](a.md)\n"
    (found,) = findings({**A, INDEX: index}, select="IDX005")
    assert (found.line, found.col) == (3, 5)


def test_a_reference_definition_that_leaves_the_store_is_still_reported() -> None:
    index = "# Notes\n- [A](a.md) — a\n- [Design][1] — the design doc\n\n[1]: https://example.com/design\n"
    (found,) = findings({**A, INDEX: index}, select="IDX005")
    assert found.line == 5
