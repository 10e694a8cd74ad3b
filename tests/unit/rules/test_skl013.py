"""SKL013 skill-symlink-outside: a skill's file that is a symlink out of the repository.

Symlinks are on disk, never in lint()'s memory: each case builds its tree in a
temporary folder (``lint(root=...)``), with no git.
"""

from __future__ import annotations

from pathlib import Path

from conftest import example, findings, lint, write

GOOD = "---\nname: deploy\ndescription: Deploys the app. Use when shipping.\n---\n\nBody.\n"


def _link(root: Path, path: str, target: Path | str) -> None:
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).symlink_to(target)


def test_the_docs_example_a_link_to_the_home_folder_is_reported(tmp_path: Path) -> None:
    # The doc's Example is the `ln -s` that makes the link (to a file that need not
    # exist here: memcheck never follows it), made here as it says.
    ln, s, target, link = example("SKL013").removeprefix("$ ").split()
    assert (ln, s) == ("ln", "-s")
    _link(tmp_path, link, target)
    (found,) = findings({}, root=tmp_path)
    assert (found.path, found.line, found.code, found.severity) == (".claude/skills/deploy/SKILL.md", 1, "SKL013", "error")
    assert found.message.startswith("SKILL.md is a symlink to /home/me/dotfiles/skills/deploy.md")


def test_the_docs_use_instead_a_regular_file_is_not_reported() -> None:
    assert lint({".claude/skills/deploy/SKILL.md": example("SKL013", "Use instead")}) == []


def test_a_link_to_a_real_file_out_of_the_repository_is_reported(tmp_path: Path) -> None:
    root, dotfiles = tmp_path / "repo", tmp_path / "home/me/dotfiles"
    write(dotfiles, "skills/deploy.md", GOOD)
    _link(root, ".claude/skills/deploy/SKILL.md", dotfiles / "skills/deploy.md")
    (found,) = findings({}, root=root)
    assert (found.path, found.line, found.code, found.severity) == (".claude/skills/deploy/SKILL.md", 1, "SKL013", "error")
    assert found.message.startswith("SKILL.md is a symlink to ")
    assert found.message.endswith(
        ": an agent that loads this skill reads that file; memcheck does not follow it, so nothing in it is checked; keep the skill's files in the repository"
    )


def test_a_skill_kept_in_the_repository_or_linked_inside_it_is_not_reported(tmp_path: Path) -> None:
    write(tmp_path, "shared/deploy.md", GOOD)
    _link(tmp_path, ".claude/skills/deploy/SKILL.md", "../../../shared/deploy.md")
    write(tmp_path, ".claude/skills/ship/SKILL.md", GOOD.replace("deploy", "ship"))
    assert lint({}, root=tmp_path) == []


def test_nothing_in_a_file_that_links_out_is_checked(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write(tmp_path, "outside/bad.md", "# no frontmatter\n\n[gone](gone.md)\n")
    _link(root, ".claude/skills/deploy/SKILL.md", tmp_path / "outside/bad.md")
    assert lint({}, root=root) == [(".claude/skills/deploy/SKILL.md", 1, "SKL013")]


def test_a_place_where_secrets_are_kept_is_named(tmp_path: Path) -> None:
    _link(tmp_path, ".claude/skills/deploy/references/runtime.md", "/proc/self/environ")
    write(tmp_path, ".claude/skills/deploy/SKILL.md", GOOD)
    (found,) = findings({}, root=tmp_path)
    assert found.path == ".claude/skills/deploy/references/runtime.md" and found.code == "SKL013"
    assert "/proc/self/environ" in found.message
