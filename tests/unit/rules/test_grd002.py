"""GRD002 guarded-symlink: a symlink a change adds or retargets points at a guarded
path, in the repository or out of it. Through the guard's engine on staged changes
held in memory; a link's target read from git is tested in tests/cli/test_guard.py."""

from __future__ import annotations

import pytest
from conftest import example
from guarding import added, guard_staged, line, printed, shows

from memcheck.changes import SYMLINK_MODE


def test_the_docs_example_is_what_the_guard_prints() -> None:
    (expected,) = printed(example("GRD002"))  # `ln -s deploy.pem notes.txt && git add notes.txt`
    (found,) = guard_staged(added("notes.txt", SYMLINK_MODE, "deploy.pem"))
    assert shows(expected, line(found))


def test_the_docs_use_instead_an_allowed_link_passes_and_a_template_name_does_not_hide_a_link() -> None:
    # The doc's *Use instead* is prose: the link's own path allowed lets it through;
    # `.env.example -> .env` is judged by its target, though the name is a template's.
    assert guard_staged(added("notes.txt", SYMLINK_MODE, "deploy.pem"), head='guard: {allow: ["/notes.txt"]}\n') == []
    (found,) = guard_staged(added(".env.example", SYMLINK_MODE, ".env"))
    assert (found.code, found.path) == ("GRD002", ".env.example")
    assert "symlink added pointing to .env:" in found.message


@pytest.mark.parametrize(
    ("target", "what"),
    [
        ("../../.ssh/id_rsa", "symlink added pointing to ../../.ssh/id_rsa"),
        ("/home/me/.aws/credentials", "symlink added pointing to /home/me/.aws/credentials"),
    ],
)
def test_a_link_out_of_the_repository_to_a_secrets_place(target: str, what: str) -> None:
    (found,) = guard_staged(added("docs/notes", SYMLINK_MODE, target))
    assert found.code == "GRD002"
    assert shows(f"docs/notes:1:1: GRD002 unstage it ...{what}...", line(found))


def test_a_link_to_an_ordinary_file_passes() -> None:
    assert guard_staged(added("notes.txt", SYMLINK_MODE, "README.md")) == []


def test_an_ignored_grd002_leaves_grd001_on() -> None:
    changes = (added("notes.txt", SYMLINK_MODE, "deploy.pem"), added(".env"))
    assert [p.code for p in guard_staged(*changes, head="ignore: [GRD002]\n")] == ["GRD001"]


@pytest.mark.parametrize(
    ("link", "target"),
    [(".env.example", ".env"), ("example.env", "/home/me/.ssh/id_rsa"), ("config/app.sample.env", "../.aws/credentials")],
)
def test_a_symlink_named_like_a_template_is_judged_by_its_target(link: str, target: str) -> None:
    (found,) = guard_staged(added(link, SYMLINK_MODE, target))
    assert (found.path, found.code) == (link, "GRD002")
    assert line(found).startswith(f"{link}:1:1: GRD002 unstage it") and f". symlink added pointing to {target}" in found.message


@pytest.mark.parametrize("target", ["C:\\Users\\me\\.aws\\credentials", ".aws\\credentials", "..\\..\\.ssh\\id_rsa", "D:/keys/deploy.pem"])
def test_a_symlink_to_a_windows_path_is_judged_by_it(target: str) -> None:
    assert [(p.path, p.code) for p in guard_staged(added("link", SYMLINK_MODE, target))] == [("link", "GRD002")]
