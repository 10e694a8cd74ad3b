"""IDX007 over-line-cap: an index longer than the line cap."""
from __future__ import annotations

from conftest import findings, lint, memory

STORE = ".memory"
INDEX = f"{STORE}/MEMORY.md"


def _store(n: int, description: str = "x") -> dict[str, str]:
    files = {f"{STORE}/m{i}.md": memory(f"M{i}", description, "user") for i in range(n)}
    files[INDEX] = "".join(f"- [M{i}](m{i}.md) — {description}\n" for i in range(n))
    return files


def test_the_docs_example_a_215_line_index() -> None:
    (found,) = [p for p in findings(_store(215)) if p.code == "IDX007"]
    assert (found.path, found.line, found.fixable) == (INDEX, 201, False)
    assert found.message == (
        "MEMORY.md has 215 lines, over the 200-line cap; agents never see lines 201-215 "
        "(entries past the cap: m200.md, m201.md, m202.md, m203.md, m204.md and 10 more)"
    )


def test_the_docs_use_instead_an_index_under_the_cap_is_not_reported() -> None:
    assert lint(_store(150), select="IDX007") == []


def test_the_cap_is_a_setting() -> None:
    assert lint(_store(215), select="IDX007", config={"index": {"max-lines": 250}}) == []
