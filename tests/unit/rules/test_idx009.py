"""IDX009 near-cap: an index close to a cap."""

from __future__ import annotations

from conftest import example, findings, lint, memory

STORE = ".memory"
INDEX = f"{STORE}/MEMORY.md"
CODE = "IDX009"


def _store(n: int) -> dict[str, str]:
    files = {f"{STORE}/m{i}.md": memory(f"M{i}", "x", "user") for i in range(n)}
    files[INDEX] = "".join(f"- [M{i}](m{i}.md) — x\n" for i in range(n))
    return files


def _counted(shown: str) -> tuple[list[int], str]:
    """The figures and the file of a doc's `wc` block: the index is built to them here
    (a doc cannot show 215 lines)."""
    *figures, path = shown.splitlines()[1].split()
    return [int(n) for n in figures], path


def _index_of(path: str, n: int, width: int = 1) -> dict[str, str]:
    store = path.rpartition("/")[0]
    files = {f"{store}/m{i}.md": memory(f"M{i}", "x" * width, "user") for i in range(n)}
    files[path] = "".join(f"- [M{i}](m{i}.md) — {'x' * width}\n" for i in range(n))
    return files


def test_the_docs_example_a_185_line_index_is_reported() -> None:
    ([lines], path) = _counted(example("IDX009"))
    files = _index_of(path, lines)
    assert files[path].count("\n") == 185
    assert [(p.path, p.code) for p in findings(files)] == [(path, CODE)]


def test_the_docs_use_instead_a_150_line_index_is_not_reported() -> None:
    ([lines], path) = _counted(example("IDX009", "Use instead"))
    assert lint(_index_of(path, lines)) == []


def test_a_185_line_index() -> None:
    (found,) = findings(_store(185))
    assert (found.path, found.line, found.code, found.severity) == (INDEX, 1, "IDX009", "warning")
    assert found.message == "MEMORY.md is at 185 of 200 lines; consolidate before entries fall past the cap"


def test_room_to_spare_is_not_reported() -> None:
    assert lint(_store(150)) == []


def test_past_a_cap_it_is_that_caps_finding_alone() -> None:
    assert {code for _path, _line, code in lint(_store(215))} == {"IDX007"}


def test_near_both_caps_by_the_settings() -> None:
    files = {f"{STORE}/m{i}.md": memory(f"M{i}", "x" * 150, "user") for i in range(230)}
    files[INDEX] = "".join(f"- [M{i}](m{i}.md) — {'x' * 150}\n" for i in range(230))
    config = {"index": {"mode": "sync", "max-lines": 250, "max-bytes": 100000}}
    assert lint(files, config=config) == [(INDEX, 1, "IDX009")]
