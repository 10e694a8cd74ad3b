"""IDX007 over-line-cap: an index longer than the line cap."""

from __future__ import annotations

from conftest import example, findings, lint, memory

STORE = ".memory"
INDEX = f"{STORE}/MEMORY.md"
CODE = "IDX007"


def _store(n: int, description: str = "x") -> dict[str, str]:
    files = {f"{STORE}/m{i}.md": memory(f"M{i}", description, "user") for i in range(n)}
    files[INDEX] = "".join(f"- [M{i}](m{i}.md) — {description}\n" for i in range(n))
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


def test_the_docs_example_a_215_line_index_is_reported() -> None:
    ([lines], path) = _counted(example("IDX007"))
    files = _index_of(path, lines)
    assert files[path].count("\n") == 215
    assert [(p.path, p.code) for p in findings(files)] == [(path, CODE)]


def test_the_docs_use_instead_a_150_line_index_is_not_reported() -> None:
    ([lines], path) = _counted(example("IDX007", "Use instead"))
    assert lint(_index_of(path, lines)) == []


def test_a_215_line_index() -> None:
    (found,) = [p for p in findings(_store(215)) if p.code == "IDX007"]
    assert (found.path, found.line, found.fixable) == (INDEX, 201, False)
    assert found.message == (
        "MEMORY.md has 215 lines, over the 200-line cap; agents never see lines 201-215 "
        "(entries past the cap: m200.md, m201.md, m202.md, m203.md, m204.md and 10 more)"
    )


def test_an_index_under_the_cap_is_not_reported() -> None:
    assert lint(_store(150), select="IDX007") == []


def test_the_cap_is_a_setting() -> None:
    assert lint(_store(215), select="IDX007", config={"index": {"max-lines": 250}}) == []
