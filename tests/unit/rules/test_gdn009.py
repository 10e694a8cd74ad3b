"""GDN009 missing-import: an @-import names a file that does not exist."""
from __future__ import annotations

from pathlib import Path

from conftest import lint


def test_an_import_through_a_symlink_out_of_the_repository_is_not_missing(tmp_path: Path) -> None:
    # From a peer linter's fixtures: docs/ is a symlink to a folder outside the
    # repository; @docs/style.md names a file the agent reads through it.
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "style.md").write_text("style\n")
    root = tmp_path / "repo"
    root.mkdir()
    (root / "docs").symlink_to(outside)
    assert lint({"CLAUDE.md": "@docs/style.md\n"}, select="GDN009", root=root) == []
    # memcheck does not follow the link: what is behind it is not known, so nothing is said;
    # a missing file inside the repository still is
    assert lint({"CLAUDE.md": "@docs/gone.md\n@notes/gone.md\n"}, select="GDN009", root=root) == [("CLAUDE.md", 2, "GDN009")]
