"""MEM015 long-description: descriptions over the configured length, one finding for
the store on its MEMORY.md."""

from __future__ import annotations

from conftest import example, memory
from memory_rules import INDEX, MEMORY, STORE, findings, lint

LONG = "word " * 70  # 349 characters, stripped


def test_the_docs_example_is_reported_on_the_index_about_the_memory() -> None:
    (found,) = findings({INDEX: "", MEMORY: example("MEM015")})
    assert (found.path, found.line, found.code, found.about) == (INDEX, 1, "MEM015", MEMORY)
    assert found.message.startswith("review.md has a description of 331 characters, over the 300 configured; ")


def test_the_docs_use_instead_one_sentence_and_the_detail_in_the_body_is_not_reported() -> None:
    assert lint({INDEX: "", MEMORY: example("MEM015", "Use instead")}) == []


def test_one_long_description_is_reported_on_the_index_about_thewith_fields() -> None:
    (found,) = [p for p in findings({INDEX: "", MEMORY: memory("Review", LONG, "user")}) if p.code == "MEM015"]
    assert (found.path, found.line, found.about) == (INDEX, 1, MEMORY)
    assert (
        found.message
        == "review.md has a description of 349 characters, over the 300 configured; descriptions go into MEMORY.md, which agents load every session: shorten it to one sentence and keep the detail in the body"
    )


def test_one_sentence_is_not_reported() -> None:
    assert [f for f in lint({INDEX: "", MEMORY: memory("Review", "Concise reviews, findings first", "user")}) if f[2] == "MEM015"] == []


def test_several_are_one_finding_naming_them() -> None:
    files = {INDEX: "", **{f"{STORE}/m{i}.md": memory(f"M{i}", LONG, "user") for i in range(3)}}
    (found,) = [p for p in findings(files) if p.code == "MEM015"]
    assert (found.path, found.about) == (INDEX, "")
    assert found.message.startswith(
        "3 memories of this store have a description over the 300 characters configured (m0.md 349, m1.md 349, m2.md 349); "
    )


def test_the_length_is_the_settings() -> None:
    assert [
        f
        for f in lint({INDEX: "", MEMORY: memory("Review", LONG, "user")}, config={"memory": {"description-max-length": 400}})
        if f[2] == "MEM015"
    ] == []


def test_the_finding_names_five_memories_and_counts_the_rest_once_per_store() -> None:
    files = {
        INDEX: "",
        **{f"{STORE}/m{i}.md": memory(f"M{i}", LONG.strip(), "project") for i in range(7)},
        f"{STORE}/short.md": memory("Short", "One line", "user"),
    }
    files.update({".memory/MEMORY.md": "", ".memory/x.md": memory("X", LONG.strip(), "user")})
    assert [(p.path, p.message) for p in findings(files) if p.code == "MEM015"] == [
        (
            INDEX,
            "7 memories of this store have a description over the 300 characters configured (m0.md 349, m1.md 349, m2.md 349, m3.md 349, m4.md 349 and 2 more); "
            "descriptions go into MEMORY.md, which agents load every session: shorten them to one sentence and keep the detail in the body",
        ),
        (
            ".memory/MEMORY.md",
            "x.md has a description of 349 characters, over the 300 configured; "
            "descriptions go into MEMORY.md, which agents load every session: shorten it to one sentence and keep the detail in the body",
        ),
    ]


def test_one_memory_s_finding_is_suppressed_by_that_memory() -> None:
    files = {INDEX: "", MEMORY: memory("M", LONG.strip(), "project", body="<!-- memcheck-disable-file MEM015 -->\nBody.\n")}
    assert lint(files) == []


def test_a_memory_the_index_lists_by_a_curators_own_words_is_left_out() -> None:
    # The index lists the memory under a short hook of its own, not its description:
    # the description is loaded nowhere (five such memories on unseen repositories,
    # each judged unwanted, one untrue for its reason).
    long = memory("Review", LONG, "user")
    curated = "# Memory\n\n- [Review style](review.md) — blocking findings first\n"
    assert [f for f in lint({INDEX: curated, MEMORY: long}) if f[2] == "MEM015"] == []
    # Listed with its description (as `fix` writes it): reported.
    rendered = f"# Memory\n\n- [Review](review.md) — {LONG.strip()}\n"
    assert [f[2] for f in lint({INDEX: rendered, MEMORY: long}) if f[2] == "MEM015"] == ["MEM015"]
    # Not listed at all: the next `fix` adds it with its description.
    assert [f[2] for f in lint({INDEX: "# Memory\n", MEMORY: long}) if f[2] == "MEM015"] == ["MEM015"]
    # An index the settings regenerate takes every description: reported.
    generated = {"index": {"mode": "generate"}}
    assert [f[2] for f in lint({INDEX: curated, MEMORY: long}, config=generated) if f[2] == "MEM015"] == ["MEM015"]
