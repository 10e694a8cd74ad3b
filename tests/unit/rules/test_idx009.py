"""IDX009 near-cap: an index close to a cap."""
from __future__ import annotations

from conftest import findings, lint, memory

STORE = ".memory"
INDEX = f"{STORE}/MEMORY.md"


def _store(n: int) -> dict[str, str]:
    files = {f"{STORE}/m{i}.md": memory(f"M{i}", "x", "user") for i in range(n)}
    files[INDEX] = "".join(f"- [M{i}](m{i}.md) — x\n" for i in range(n))
    return files


def test_the_docs_example_a_185_line_index() -> None:
    (found,) = findings(_store(185))
    assert (found.path, found.line, found.code, found.severity) == (INDEX, 1, "IDX009", "warning")
    assert found.message == "MEMORY.md is at 185 of 200 lines; consolidate before entries fall past the cap"


def test_the_docs_use_instead_room_to_spare_is_not_reported() -> None:
    assert lint(_store(150)) == []


def test_past_a_cap_it_is_that_caps_finding_alone() -> None:
    assert {code for _path, _line, code in lint(_store(215))} == {"IDX007"}


def test_near_both_caps_by_the_settings() -> None:
    files = {f"{STORE}/m{i}.md": memory(f"M{i}", "x" * 150, "user") for i in range(230)}
    files[INDEX] = "".join(f"- [M{i}](m{i}.md) — {'x' * 150}\n" for i in range(230))
    config = {"index": {"mode": "sync", "max-lines": 250, "max-bytes": 100000}}
    assert lint(files, config=config) == [(INDEX, 1, "IDX009")]
