"""IDX015 placeholder-description: index entries with a placeholder for a description."""

from __future__ import annotations

from conftest import example, findings, lint, memory

STORE = ".claude/memory"
INDEX = f"{STORE}/MEMORY.md"
MEMORIES = {
    f"{STORE}/deploy.md": memory("Deploy", "How to deploy", "project"),
    f"{STORE}/testing.md": memory("Testing", "How to test", "project"),
}


def test_the_docs_example_is_reported_once_on_the_first_entry() -> None:
    (found,) = findings({**MEMORIES, INDEX: "# Memory\n\n" + example("IDX015")})
    assert (found.path, found.line, found.code, found.fixable) == (INDEX, 3, "IDX015", True)
    assert found.message == (
        "2 entries of MEMORY.md carry a placeholder instead of a description ('TODO' on line 3 and 1 more); "
        "agents cannot tell what each memory holds: run `memcheck fix` to fill in each memory's own description"
    )


def test_the_docs_use_instead_what_fix_writes_is_not_reported() -> None:
    assert lint({**MEMORIES, INDEX: "# Memory\n\n" + example("IDX015", "Use instead")}) == []


def test_each_memorys_own_description_is_not_reported() -> None:
    index = "# Memory\n\n- [Deploy](deploy.md) — How to deploy\n- [Testing](testing.md) — How to test\n"
    assert lint({**MEMORIES, INDEX: index}) == []


def test_a_memory_whose_frontmatter_does_not_parse_keeps_its_placeholder() -> None:
    files = {**MEMORIES, f"{STORE}/deploy.md": "no frontmatter\n", INDEX: "# Memory\n\n" + example("IDX015")}
    (found,) = findings(files, select="IDX015")
    assert "deploy.md has no frontmatter memcheck can read: fix that first" in found.message
