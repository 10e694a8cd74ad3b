"""GDN014 over-budget: a guidance file over its size budget."""
from __future__ import annotations

from conftest import findings, lint


def test_the_docs_example_a_900_line_agents_md_is_reported() -> None:
    # The doc's Example is prose: a 900-line AGENTS.md that pastes the whole API reference.
    files = {"AGENTS.md": "# Rules\n\n" + "".join(f"- `GET /v1/items/{n}` returns item {n}.\n" for n in range(898))}
    found = findings(files, select="GDN014")
    assert [(p.path, p.line) for p in found][0] == ("AGENTS.md", 501)
    assert found[0].message == "AGENTS.md has 900 lines, over guidance.max-lines 500; move reference material into files read on demand"


def test_the_docs_use_instead_short_rules_and_a_plain_link_pass() -> None:
    reference = "".join(f"- `GET /v1/items/{n}` returns item {n}.\n" for n in range(898))
    files = {"AGENTS.md": "# Rules\n\nThe API is listed in [the reference](docs/api.md).\n", "docs/api.md": reference}
    assert lint(files, select="GDN014") == []


def test_lines_bytes_and_tokens_with_imports() -> None:
    files = {"big.md": "x" * 200 + "\n", "AGENTS.md": "".join(f"line {i}\n" for i in range(11)) + "@big.md\n"}
    found = findings(files, select="GDN014", config={"guidance": {"max-lines": 10, "max-bytes": 80, "max-tokens": 30}})
    messages = [p.message for p in found]
    assert len(messages) == 3
    assert any("12 lines, over guidance.max-lines 10" in m for m in messages)
    assert any("with its 1 import(s) loads about" in m for m in messages)
    assert all(p.severity == "warning" for p in found)
