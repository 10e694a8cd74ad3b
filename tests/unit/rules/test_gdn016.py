"""GDN016 codex-budget: Codex cuts or drops AGENTS.md text past its 32 KiB budget."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import example, findings, lint


def _text(size: int) -> str:
    line = "Keep each handler small and test it.\n"
    return (line * (size // len(line) + 1))[:size]


def _of_sizes(shown: str) -> dict[str, str]:
    # The doc shows the files' `wc -c`: files of those sizes are built here, of lines
    # long enough to stay within guidance.max-lines (GDN014).
    line = "Keep each handler small and test it; name it after what it does, and log what it refuses. " * 2 + "\n"
    return {path: (line * (int(size) // len(line) + 1))[: int(size)] for size, path in (row.split() for row in shown.splitlines()[1:-1])}


def test_the_docs_example_the_file_that_crosses_the_budget_is_reported() -> None:
    (found,) = findings(_of_sizes(example("GDN016")))
    assert (found.path, found.code) == ("packages/api/AGENTS.md", "GDN016")
    assert found.message.startswith(
        "Codex reads at most 32,768 bytes of AGENTS.md text from the root down, and here it comes to 20,000 bytes above it plus 15,000 of its own"
    )


def test_the_docs_use_instead_shorter_files_are_not_reported() -> None:
    assert lint(_of_sizes(example("GDN016", "Use instead"))) == []


def test_not_when_the_repository_sets_codexs_budget() -> None:
    files = {"AGENTS.md": _text(20_000), "packages/api/AGENTS.md": _text(15_000), ".codex/config.toml": "project_doc_max_bytes = 65536\n"}
    assert lint(files, select="GDN016") == []


def _sized(head: str, size: int) -> str:
    """Markdown of exactly ``size`` bytes, 100-byte lines."""
    body = "".join(("x" * 99 + "\n") for _ in range(size // 100))
    text = head + body
    return (text + "y" * (size - len(text)))[:size]


# Where the cut falls is read from disk (readers._head opens the file under the
# root), not through the workspace's source: on disk here, and in memory below.
def test_the_finding_is_where_the_budget_is_crossed(tmp_path: Path) -> None:
    files = {
        "AGENTS.md": _sized("# Root\n", 20_000),
        "packages/api/AGENTS.md": _sized("# API\n", 15_000),
        "packages/api/v2/AGENTS.md": "# v2\n",
        "packages/api/v2/old/AGENTS.md": "\n  \n",  # blank: skipped, never "dropped"
        "packages/web/AGENTS.md": _sized("# Web\n", 5_000),
    }
    found = findings(files, select="GDN016", root=tmp_path)
    assert [(p.path, p.line, p.severity) for p in found] == [("packages/api/AGENTS.md", 129, "error")]
    assert found[0].message == (
        "Codex reads at most 32,768 bytes of AGENTS.md text from the root down, and here it comes to 20,000 bytes above it plus 15,000 of "
        "its own: Codex keeps the first 12,768 bytes of AGENTS.md and cuts it from line 129 on; it never reads packages/api/v2/AGENTS.md "
        "below it; shorten the files on the way down"
    )


def test_a_budget_exactly_spent_drops_the_next_file() -> None:
    (found,) = findings({"AGENTS.md": _sized("# Root\n", 32_768), "a/AGENTS.md": "# A\n"}, select="GDN016")
    assert found.path == "a/AGENTS.md" and "Codex drops AGENTS.md whole" in found.message


def test_the_override_counts_and_not_the_agents_md_it_hides() -> None:
    files = {"AGENTS.md": _sized("# Root\n", 30_000), "AGENTS.override.md": "# Small override\n", "a/AGENTS.md": _sized("# A\n", 10_000)}
    assert lint(files, select="GDN016") == []
    files["AGENTS.override.md"] = _sized("# Big\n", 30_000)
    assert lint(files, select="GDN016", config={"agents": ["claude-code"]}) == []  # no Codex: no Codex budget


@pytest.mark.xfail(
    strict=True,
    reason="readers._head reads the cut from the file on disk, not from the workspace's source (a memory source, a staged view)",
)
def test_the_cut_line_of_a_file_in_memory() -> None:
    (found,) = findings({"AGENTS.md": _sized("# Root\n", 20_000), "packages/api/AGENTS.md": _sized("# API\n", 15_000)}, select="GDN016")
    assert found.line == 129


def test_a_bom_is_text_to_codex() -> None:
    # Rust's trim() keeps U+FEFF: a file holding only a BOM is not blank to Codex, and
    # its bytes spend what was left of the budget.
    files = {"AGENTS.md": _sized("# Root\n", 32_766), "a/AGENTS.md": "\ufeff\n", "a/b/AGENTS.md": "hi\n"}
    found = findings(files, select="GDN016")
    assert [p.path for p in found] == ["a/AGENTS.md"] and "it never reads a/b/AGENTS.md below it" in found[0].message
