"""GDN012 import-too-deep: an @-import chain deeper than the reading agent follows."""
from __future__ import annotations

from conftest import lint


def test_a_file_claude_md_imports_directly_is_not_called_never_loaded() -> None:
    # From a peer linter's fixtures: x.md sits five hops down one chain, and CLAUDE.md
    # imports it directly too; Claude Code loads it through the direct import.
    files = {"CLAUDE.md": "@a.md\n@x.md\n", "a.md": "@b.md\n", "b.md": "@c.md\n", "c.md": "@d.md\n", "d.md": "@x.md\n", "x.md": "x\n"}
    assert lint(files, select="GDN012") == []
    deeper = {**files, "CLAUDE.md": "@a.md\n", "d.md": "@e.md\n", "e.md": "@x.md\n"}
    assert lint(deeper, select="GDN012") == [("CLAUDE.md", 1, "GDN012")]
