"""IDX008 over-byte-cap: an index larger than the byte cap."""

from __future__ import annotations

from conftest import example, findings, lint, memory

STORE = ".memory"
INDEX = f"{STORE}/MEMORY.md"
CODE = "IDX008"


def _store(n: int, width: int) -> dict[str, str]:
    files = {f"{STORE}/m{i}.md": memory(f"M{i}", "x" * width, "user") for i in range(n)}
    files[INDEX] = "".join(f"- [M{i}](m{i}.md) — {'x' * width}\n" for i in range(n))
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


def test_the_docs_example_180_lines_of_200_character_descriptions_is_reported() -> None:
    ([lines, size], path) = _counted(example("IDX008"))
    files = _index_of(path, lines, 200)
    assert (files[path].count("\n"), len(files[path].encode())) == (lines, size)
    assert [(p.path, p.code) for p in findings(files)] == [(path, CODE)]


def test_the_docs_use_instead_150_entries_of_40_character_descriptions_are_not_reported() -> None:
    ([lines, size], path) = _counted(example("IDX008", "Use instead"))
    files = _index_of(path, lines, 40)
    assert (files[path].count("\n"), len(files[path].encode())) == (lines, size)
    assert lint(files) == []


def test_180_lines_of_200_character_descriptions() -> None:
    (found,) = [p for p in findings(_store(180, 200)) if p.code == "IDX008"]
    assert (found.path, found.fixable) == (INDEX, False)
    assert found.message.startswith(
        "MEMORY.md is 39920 bytes, over the 25000-byte cap; agents stop reading in line 114 (entries past the cap: m113.md, m114.md"
    )


def test_shorter_descriptions_are_not_reported() -> None:
    assert lint(_store(180, 40), select="IDX008") == []


def test_the_line_and_byte_caps_both_past() -> None:
    found = {p.code: p for p in findings(_store(230, 150))}
    assert found["IDX007"].line == 201 and found["IDX008"].line < 201
