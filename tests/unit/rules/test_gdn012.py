"""GDN012 import-too-deep: an @-import chain deeper than the reading agent follows."""
from __future__ import annotations

from conftest import findings, lint


def test_a_file_claude_md_imports_directly_is_not_called_never_loaded() -> None:
    # From a peer linter's fixtures: x.md sits five hops down one chain, and CLAUDE.md
    # imports it directly too; Claude Code loads it through the direct import.
    files = {"CLAUDE.md": "@a.md\n@x.md\n", "a.md": "@b.md\n", "b.md": "@c.md\n", "c.md": "@d.md\n", "d.md": "@x.md\n", "x.md": "x\n"}
    assert lint(files, select="GDN012") == []
    deeper = {**files, "CLAUDE.md": "@a.md\n", "d.md": "@e.md\n", "e.md": "@x.md\n"}
    assert lint(deeper, select="GDN012") == [("CLAUDE.md", 1, "GDN012")]


def _chain(first: str, hops: int) -> dict[str, str]:
    names = [first] + [f"{chr(ord('a') + i)}.md" for i in range(hops)]
    return {name: f"@{names[i + 1]}\n" if i + 1 < len(names) else "end\n" for i, name in enumerate(names)}


def test_the_docs_example_a_chain_of_five_hops_from_claude_md_is_reported() -> None:
    # The doc's Example is prose: CLAUDE.md -> a.md -> b.md -> c.md -> d.md -> e.md.
    (found,) = findings(_chain("CLAUDE.md", 5), select="GDN012")
    assert (found.path, found.line) == ("CLAUDE.md", 1)
    assert found.message == "import chain CLAUDE.md -> a.md -> b.md -> c.md -> d.md -> e.md is 5 hops deep, and Claude Code follows 4, so it never loads e.md; import it from a shallower file"


def test_the_docs_use_instead_importing_the_deep_file_directly_passes() -> None:
    assert lint({**_chain("CLAUDE.md", 5), "CLAUDE.md": "@a.md\n@e.md\n"}, select="GDN012") == []


def test_the_house_import_depth_limit() -> None:
    # AGENTS.md: Amp follows its imports to a depth nobody has confirmed, Codex not at
    # all: only the repository's own limit, when set, speaks about it.
    files = {"AGENTS.md": "@d/1.md\n", **{f"d/{i}.md": f"@{i + 1}.md\n" if i < 6 else "end\n" for i in range(1, 7)}}
    assert lint(files, select="GDN012") == []
    (found,) = findings(files, select="GDN012", config={"guidance": {"max-import-depth": 5}})
    assert found.path == "AGENTS.md" and "d/6.md" in found.message and "over guidance.max-import-depth 5" in found.message
