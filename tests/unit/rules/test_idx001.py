"""IDX001 missing-index: a memory store without its MEMORY.md."""

from __future__ import annotations

from conftest import example, findings, lint, memory

STORE = ".claude/memory"


def test_the_docs_example_a_store_without_its_index_is_reported() -> None:
    (found,) = findings({f"{STORE}/user_prefs.md": example("IDX001")})
    assert (found.path, found.line, found.code, found.fixable) == (f"{STORE}/MEMORY.md", 1, "IDX001", True)


def test_the_docs_use_instead_the_index_fix_writes_is_not_reported() -> None:
    assert lint({f"{STORE}/user_prefs.md": example("IDX001"), f"{STORE}/MEMORY.md": example("IDX001", "Use instead")}) == []


def test_is_reported_and_fix_offered() -> None:
    # The doc's Example: .claude/memory/ holding user_prefs.md and no MEMORY.md.
    (found,) = findings({f"{STORE}/user_prefs.md": memory("prefs", "the user's preferences", "user")})
    assert (found.path, found.line, found.code, found.fixable) == (f"{STORE}/MEMORY.md", 1, "IDX001", True)
    assert found.message == "memory store .claude/memory/ has no MEMORY.md; run `memcheck fix` to write it"


def test_the_index_fix_writes_is_not_reported() -> None:
    files = {
        f"{STORE}/user_prefs.md": memory("prefs", "the user's preferences", "user"),
        f"{STORE}/MEMORY.md": "- [prefs](user_prefs.md) — the user's preferences\n",
    }
    assert lint(files, select="IDX001") == []


def test_an_agents_memory_folder_is_a_store_too() -> None:
    found = findings({".claude/agent-memory/helper/a.md": memory("A", "a", "user")})
    assert [(p.path, p.code, p.fixable) for p in found] == [(".claude/agent-memory/helper/MEMORY.md", "IDX001", True)]


def test_an_index_one_folder_up_is_named_and_fix_writes_no_second_one() -> None:
    files = {f"{STORE}/{n}.md": memory(n, f"about {n}", "user") for n in ("a", "b", "c")}
    files[".claude/MEMORY.md"] = "".join(f"- [{n}](memory/{n}.md) — about {n}\n" for n in ("a", "b", "c"))
    (found,) = [p for p in findings(files) if p.code == "IDX001"]
    assert found.path == f"{STORE}/MEMORY.md" and not found.fixable
    assert found.message.startswith("memory store .claude/memory/ has no MEMORY.md, but ")
