"""A glob that matches no listed file is judged against every file of the checkout,
ignored and untracked ones included (SPEC §4): a workspace clones its child
repositories into a git-ignored folder, and its rules target them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import check_json, codes_at, git, write


def _workspace_with_ignored_clones(repo: Path) -> None:
    """A workspace that clones its child repositories into a git-ignored folder, with
    rules for them, and a big ignored node_modules."""
    write(repo, ".gitignore", "repos/\nnode_modules/\n")
    write(repo, "repos/api/.git/HEAD", "ref: refs/heads/main\n")
    write(repo, "repos/api/src/server.py", "pass\n")
    write(repo, "repos/web/app/page.tsx", "export {}\n")
    for i in range(30):
        write(repo, f"node_modules/pkg{i}/index.js", "\n")
    write(repo, "README.md", "# Workspace\n")
    # The workspace's own tooling: a tree with code (one of agent files alone is a
    # kit for other projects, whose rules name their files: see GDN008).
    write(repo, "tools/lint.py", "pass\n")


@pytest.mark.parametrize(
    ("path", "text"),
    [
        pytest.param(".claude/rules/api.md", "---\npaths:\n  - 'repos/api/**/*.py'\n---\n\nAPI rules.\n", id="claude-rule"),
        pytest.param(".cursor/rules/web.mdc", "---\nglobs: ['**/*.tsx']\n---\n\nWeb rules.\n", id="cursor-anywhere"),
        pytest.param(".github/instructions/web.instructions.md", "---\napplyTo: 'repos/web/app/*.tsx'\n---\n\nWeb.\n", id="copilot"),
        pytest.param("AGENTS.md", "---\nglobs: ['server.py']\n---\n\nServer.\n", id="agents-md-by-name"),
    ],
)
def test_a_glob_matching_only_ignored_files_is_not_dead(repo: Path, path: str, text: str) -> None:
    _workspace_with_ignored_clones(repo)
    write(repo, path, text)
    assert "GDN008" not in codes_at(repo, path)


def test_a_glob_that_matches_nothing_on_disk_says_so(repo: Path) -> None:
    _workspace_with_ignored_clones(repo)
    outside = repo.parent / "outside"
    write(outside, "lib/found.rs", "\n")
    (repo / "linked").symlink_to(outside)
    write(repo, ".claude/rules/dead.md", "---\npaths:\n  - 'repos/api/**/*.rs'\n  - 'linked/**/*.rs'\n  - '**/HEAD'\n---\n\nDead.\n")
    found = [p for p in check_json(repo) if p["code"] == "GDN008"]
    # Never through a symlink out of the root, never inside .git.
    assert sorted(p["message"].split("'")[1] for p in found) == ["**/HEAD", "linked/**/*.rs", "repos/api/**/*.rs"]
    assert all("no file here matches it" in p["message"] and "in the repository" not in p["message"] for p in found)


def test_the_disk_is_walked_only_for_globs_that_match_nothing_listed_and_only_as_far_as_needed(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _workspace_with_ignored_clones(repo)
    write(repo, "src/app.py", "pass\n")
    git(repo, "add", "-A")
    opened: list[str] = []
    real_scandir = os.scandir

    def counting(path: str | Path = ".") -> object:
        opened.append(Path(path).resolve().relative_to(repo.resolve()).as_posix())
        return real_scandir(path)

    import memcheck.workspace.disk as disk

    monkeypatch.setattr(disk.os, "scandir", counting)
    write(repo, ".claude/rules/py.md", "---\npaths: ['src/**/*.py']\n---\n\nPython.\n")
    assert codes_at(repo, ".claude/rules/py.md") == []
    assert opened == []  # a listed file matched: no walk at all
    write(repo, ".claude/rules/api.md", "---\npaths: ['repos/api/**/*.py']\n---\n\nAPI.\n")
    assert codes_at(repo, ".claude/rules/api.md") == []
    # Down the folders it names, one listing each: no other folder is opened.
    assert opened == [".", "repos", "repos/api", "repos/api/src"], opened
    opened.clear()
    (repo / ".claude/rules/api.md").unlink()
    # The walk stops at the first match: app/ comes before node_modules/, which is never opened.
    write(repo, ".gitignore", "repos/\nnode_modules/\napp/gen/\n")
    write(repo, "app/gen/page.tsx", "export {}\n")
    write(repo, ".claude/rules/tsx.md", "---\npaths: ['**/*.tsx']\n---\n\nWeb.\n")
    assert codes_at(repo, ".claude/rules/tsx.md") == []
    assert opened == [".", ".claude", ".claude/rules", "app", "app/gen"], opened


def test_a_glob_mention_is_judged_on_the_checkout_too(repo: Path) -> None:
    _workspace_with_ignored_clones(repo)
    write(repo, "AGENTS.md", "# Workspace\n\nThe API: @repos/api/src/*.py\n")
    assert codes_at(repo, "AGENTS.md") == []
    write(repo, "AGENTS.md", "# Workspace\n\nThe API: @repos/api/src/*.rs\n")
    (found,) = [p for p in check_json(repo) if p["path"] == "AGENTS.md"]
    assert found["code"] == "GDN009" and "no file here matches it" in found["message"]


def test_dead_globs_walk_the_checkout_once_however_many_there_are(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each dead ** glob walking the whole checkout again (even over listings already
    # read) is work per pair of glob and file: with many rules and a big ignored
    # folder, seconds. After the first, an index of what it read answers.
    _workspace_with_ignored_clones(repo)
    import memcheck.agents.guidance_model as model

    walks: list[str] = []
    real_walk = model.globs.any_in_tree

    def counting(pattern: str, folder: str, entries: object) -> bool:
        walks.append(pattern)
        return real_walk(pattern, folder, entries)  # type: ignore[arg-type]

    monkeypatch.setattr(model.globs, "any_in_tree", counting)
    dead = [f"**/*.ext{i}" for i in range(12)]
    write(repo, ".claude/rules/dead.md", "---\npaths:\n" + "".join(f"  - '{g}'\n" for g in dead) + "  - '**/server.py'\n---\n\nDead.\n")
    found = [p["message"].split("'")[1] for p in check_json(repo) if p["code"] == "GDN008"]
    assert sorted(found) == sorted(dead)  # the ignored clone's server.py is found
    assert len(walks) == 1, walks


def test_a_kit_of_agent_files_is_judged_by_what_git_lists(repo: Path) -> None:
    # A tree of agent files alone (a kit other projects copy) has no dead patterns to
    # report (GDN008), even with code in a folder git ignores (its dependencies, here):
    # every clone answers the same. A source file git lists makes it a project.
    write(repo, ".gitignore", "node_modules/\n")
    write(repo, "node_modules/lint/index.js", "\n")
    write(repo, ".claude/rules/rust.md", "---\npaths: ['src/**/*.rs']\n---\n\nUse thiserror.\n")
    write(repo, "README.md", "# Kit\n")
    assert "GDN008" not in codes_at(repo, ".claude/rules/rust.md")
    write(repo, "tools/sync.py", "pass\n")
    assert "GDN008" in codes_at(repo, ".claude/rules/rust.md")
