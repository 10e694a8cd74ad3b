"""GDN018 guidance-symlink-outside: a guidance file that is a symlink out of the repository."""

from __future__ import annotations

from pathlib import Path

from conftest import example, findings, lint, write


def _linked_as_the_doc_says(root: Path, shown: str) -> None:
    # The doc shows the `ln -s` that makes the link: made here as it says.
    ln, s, target, link = shown.removeprefix("$ ").split()
    assert (ln, s) == ("ln", "-s")
    (root / link).parent.mkdir(parents=True, exist_ok=True)
    (root / link).symlink_to(target)


def test_the_docs_example_a_link_to_dotfiles_is_reported(tmp_path: Path) -> None:
    # A guidance file is found only where its link resolves, and this machine has no
    # /home/me: the doc's target is made under the temporary folder, outside the repository.
    ln, s, target, link = example("GDN018").removeprefix("$ ").split()
    root, outside = tmp_path / "repo", tmp_path / target.lstrip("/")
    write(outside.parent, outside.name, "# Mine\n")
    _linked_as_the_doc_says(root, f"$ ln -s {outside} {link}")
    (found,) = findings({}, root=root)
    assert (found.path, found.line, found.code) == ("CLAUDE.md", 1, "GDN018")
    assert found.message.startswith(f"CLAUDE.md is a symlink to {outside}, outside the repository")


def test_the_docs_use_instead_a_regular_file_is_not_reported() -> None:
    assert lint({"CLAUDE.md": example("GDN018", "Use instead")}) == []
