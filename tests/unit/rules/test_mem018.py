"""MEM018 crlf-line-endings: memory files with CRLF endings, one finding for the store
on its MEMORY.md. The doc's *Example* is the text of a file with CRLF endings: they
are put in here."""

from __future__ import annotations

from conftest import example, memory
from memory_rules import INDEX, MEMORY, STORE, findings, lint


def _crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def test_the_docs_example_with_crlf_endings_is_reported_on_the_index() -> None:
    (found,) = findings({INDEX: "", MEMORY: _crlf(example("MEM018"))})
    assert (found.path, found.line, found.code, found.about) == (INDEX, 1, "MEM018", MEMORY)


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({INDEX: "", MEMORY: example("MEM018", "Use instead")}) == []


def test_one_file_is_reported_on_the_index_about_the_file() -> None:
    (found,) = [p for p in findings({INDEX: "", MEMORY: _crlf(memory("Review", "Concise reviews", "user"))}) if p.code == "MEM018"]
    assert (found.path, found.line, found.about) == (INDEX, 1, MEMORY)
    assert (
        found.message
        == "review.md uses CRLF line endings; agents that split frontmatter at '---\\n' find none in it: convert it to LF and add '*.md text eol=lf' to .gitattributes"
    )


def test_lf_is_not_reported() -> None:
    assert [f for f in lint({INDEX: "", MEMORY: memory("Review", "Concise reviews", "user")}) if f[2] == "MEM018"] == []


def test_several_are_one_finding_naming_them() -> None:
    files = {INDEX: "", **{f"{STORE}/m{i}.md": _crlf(memory(f"M{i}", "d", "user")) for i in range(2)}}
    (found,) = [p for p in findings(files) if p.code == "MEM018"]
    assert (found.path, found.about) == (INDEX, "")
    assert found.message == (
        "2 memory files of this store use CRLF line endings (m0.md, m1.md); agents that split frontmatter at '---\\n' find none in them: "
        "convert them to LF and add '*.md text eol=lf' to .gitattributes"
    )
