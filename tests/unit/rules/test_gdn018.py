"""GDN018 guidance-symlink-outside: a guidance file that is a symlink out of the repository."""
from __future__ import annotations

from pathlib import Path

from conftest import findings, lint


def test_the_docs_example_a_link_to_dotfiles_is_reported(tmp_path: Path) -> None:
    # The doc's Example is a symlink (CLAUDE.md -> /home/me/dotfiles/CLAUDE.md): on disk only.
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "CLAUDE.md").write_text("# Mine\n")
    root = tmp_path / "repo"
    root.mkdir()
    (root / "CLAUDE.md").symlink_to(dotfiles / "CLAUDE.md")
    (found,) = findings({}, select="GDN018", root=root)
    assert (found.path, found.line) == ("CLAUDE.md", 1)
    assert found.message.startswith("CLAUDE.md is a symlink to ")
    assert "so memcheck does not follow it and checks nothing in it" in found.message


def test_the_docs_use_instead_a_file_in_the_repository_passes() -> None:
    assert lint({"CLAUDE.md": "# Mine\n"}, select="GDN018") == []
