"""Hints that name the one cause and the one safe remedy, and rules that report a cause
once rather than once per file or per symptom (issue 27: memcheck judged by hand on
whole repositories). Each tree is a minimal reproduction built here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import check_json, memory, write

STORE = ".claude/memory"


def _of(problems: list[dict[str, Any]], *codes: str) -> list[tuple[str, int, str, str]]:
    return sorted((p["path"], p["line"], p["code"], p["message"]) for p in problems if p["code"] in codes)


def _store(repo: Path, files: dict[str, str | bytes]) -> None:
    for name, text in files.items():
        write(repo, f"{STORE}/{name}", text)
    write(repo, f"{STORE}/MEMORY.md", "".join(f"- [{n[:-3]}]({n}) \u2014 d\n" for n in sorted(files)))


# ---------------------------------------------------------------- GDN001


def _agent_md_beside_agents_md(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Agents\n\nRun the tests.\n")
    write(repo, "AGENT.md", "# Agent protocol\n\nHow agents hand work over.\n")


def test_gdn001_never_reads_a_citation_through_a_symlink_out_of_the_repository(repo: Path, tmp_path: Path) -> None:
    _agent_md_beside_agents_md(repo)
    outside = write(tmp_path, "elsewhere/notes.md", "See AGENT.md.\n")
    (repo / "docs").mkdir()
    (repo / "docs/notes.md").symlink_to(outside)
    write(repo, "README.md", "# Shop\n\nSee [the notes](docs/notes.md).\n")
    assert [p for p, _, _, _ in _of(check_json(repo), "GDN001")] == ["AGENT.md"]


# ---------------------------------------------------------------- a store's own documents


def test_a_file_named_in_capitals_without_memory_fields_is_the_store_s_own_document(repo: Path) -> None:
    # A harness's identity files and session log, loaded by name: not memories, so
    # neither frontmatter findings on them nor an index entry for them.
    write(repo, f"{STORE}/a.md", memory("a", "About a", "user"))
    write(repo, f"{STORE}/SOUL.md", "# SOUL.md - who you are\n\nBe kind.\n")
    write(repo, f"{STORE}/LAST_SESSION.md", "---\nended: 2026-05-06T22:30:00Z\nbranch: main\n---\n\n# Last session\n")
    write(repo, f"{STORE}/NOTES.md", memory("notes", "Notes kept as a memory", "project"))  # capitals, but a memory
    write(repo, f"{STORE}/MEMORY.md", "- [a](a.md) \u2014 About a\n")
    found = [(p["path"], p["code"]) for p in check_json(repo)]
    assert found == [(f"{STORE}/MEMORY.md", "IDX003")]
    (unlisted,) = [p for p in check_json(repo) if p["code"] == "IDX003"]
    assert "NOTES.md" in unlisted["message"]


def test_capitals_in_any_script_make_a_store_s_own_document(repo: Path) -> None:
    write(repo, f"{STORE}/a.md", memory("a", "About a", "user"))
    write(repo, f"{STORE}/ÉTÉ.md", "# Été\n")
    write(repo, f"{STORE}/MEMORY.md", "- [a](a.md) \u2014 About a\n")
    assert check_json(repo) == []
