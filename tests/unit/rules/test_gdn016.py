"""GDN016 codex-budget: Codex cuts or drops AGENTS.md text past its 32 KiB budget."""
from __future__ import annotations

from conftest import findings, lint


def _text(size: int) -> str:
    line = "Keep each handler small and test it.\n"
    return (line * (size // len(line) + 1))[:size]


def test_the_docs_example_the_file_that_crosses_the_budget_is_reported() -> None:
    # The doc's Example is prose: a root AGENTS.md of 20,000 bytes and packages/api/AGENTS.md of 15,000.
    files = {"AGENTS.md": _text(20_000), "packages/api/AGENTS.md": _text(15_000)}
    (found,) = findings(files, select="GDN016")
    assert found.path == "packages/api/AGENTS.md"
    assert found.message.startswith("Codex reads at most 32,768 bytes of AGENTS.md text from the root down, and here it comes to 20,000 bytes above it plus 15,000 of its own")


def test_the_docs_use_instead_shorter_files_pass() -> None:
    assert lint({"AGENTS.md": _text(15_000), "packages/api/AGENTS.md": _text(15_000)}, select="GDN016") == []


def test_not_when_the_repository_sets_codexs_budget() -> None:
    files = {"AGENTS.md": _text(20_000), "packages/api/AGENTS.md": _text(15_000), ".codex/config.toml": "project_doc_max_bytes = 65536\n"}
    assert lint(files, select="GDN016") == []
