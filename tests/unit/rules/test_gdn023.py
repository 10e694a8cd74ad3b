"""GDN023 secret-import: an @-import or a link in guidance that names a place where secrets are kept."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import example, findings, lint


def test_the_docs_example_is_reported() -> None:
    files = {"CLAUDE.md": example("GDN023")}
    assert lint(files) == [("CLAUDE.md", 1, "GDN023")]
    (found,) = findings(files)
    assert found.severity == "error"
    assert found.message == (
        "@~/.ssh/id_rsa imports a place where secrets are kept (category ssh, pattern .ssh/): "
        "the agent loads it into its context; name the secret instead of importing it"
    )


def test_the_docs_use_instead_naming_the_secret_passes() -> None:
    assert lint({"CLAUDE.md": example("GDN023", "Use instead")}) == []


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("@~/.aws/credentials\n", id="aws-credentials-from-home"),
        pytest.param("@~/.ssh/id_rsa\n", id="ssh-key-from-home"),
        pytest.param("@/etc/shadow\n", id="etc-shadow"),
        pytest.param("@/proc/self/environ\n", id="process-environment"),
        pytest.param("@../../.ssh/id_ed25519\n", id="climbing-to-a-key"),
        pytest.param("See [the credentials](~/.aws/credentials).\n", id="link-from-home"),
        pytest.param("See [the environment](file:///proc/self/environ).\n", id="file-url-link"),
        pytest.param('See <a href="~/.ssh/id_rsa">k</a>\n', id="html-href"),
        pytest.param('<img src="file:///etc/shadow">\n', id="html-img-src"),
        pytest.param("See <A HREF='/proc/self/environ'>e</A>\n", id="html-single-quotes-capitals"),
        pytest.param("See <a href=~/.aws/credentials>c</a>\n", id="html-unquoted"),
        # The other spellings of the home folder and of a file URL an agent reads
        pytest.param("@${HOME}/.aws/credentials\n", id="home-variable-braced"),
        pytest.param("@$HOME/.ssh/id_rsa\n", id="home-variable"),
        pytest.param("@%USERPROFILE%\\.aws\\credentials\n", id="windows-profile-variable"),
        pytest.param("@C:\\Users\\dev\\.ssh\\id_rsa\n", id="windows-home-path"),
        pytest.param("@C:/Users/dev/.ssh/id_rsa\n", id="windows-home-path-forward-slashes"),
        pytest.param("See [the environment](file://localhost/proc/self/environ).\n", id="file-url-with-localhost"),
        pytest.param("See [the key][key].\n\n[key]: ~/.ssh/id_rsa\n", id="reference-definition"),
        pytest.param("See <file:///etc/shadow>.\n", id="autolink"),
        pytest.param("See [the credentials](<~/.aws/credentials>).\n", id="pointy-link-target"),
    ],
)
def test_imports_and_links_of_secret_locations_are_errors(text: str) -> None:
    found = [p for p in findings({"CLAUDE.md": text}) if p.code.startswith("GDN")]
    assert [(p.code, p.severity) for p in found] == [("GDN023", "error")]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("@~/.claude/shared-rules.md\n", id="home-rules"),
        pytest.param("@/etc/rules.md\n", id="absolute-but-no-secret"),
        pytest.param("See [the docs](https://example.com/.env).\n", id="a-url"),
        pytest.param('<a href="https://example.com/.env">x</a> <img src="docs/logo.png">\n', id="html-url-and-file"),
        pytest.param('<!-- <a href="~/.ssh/id_rsa"> -->\n\n`<a href="~/.ssh/id_rsa">`\n', id="html-in-a-comment-or-code-span"),
        pytest.param("@$HOME/.claude/shared-rules.md\n", id="home-variable-rules"),
        pytest.param("@C:\\Users\\dev\\notes\\rules.md\n", id="windows-home-rules"),
        pytest.param("See <file:///etc/rules.md> and <https://example.com/.env>.\n", id="autolinks-elsewhere"),
    ],
)
def test_other_imports_and_links_are_not_this_rule(text: str) -> None:
    assert "GDN023" not in [code for _, _, code in lint({"CLAUDE.md": text})]


def test_an_import_through_a_link_to_a_home_folder_is_reported(tmp_path: Path) -> None:
    home = tmp_path / "home" / "someone"
    (home / ".ssh").mkdir(parents=True)
    repo = tmp_path / "repo"
    repo.mkdir()
    os.symlink(home, repo / "h")
    (repo / "CLAUDE.md").write_text("@h/.ssh/id_rsa\n", encoding="utf-8")
    assert ("CLAUDE.md", 1, "GDN023") in lint({"CLAUDE.md": "@h/.ssh/id_rsa\n"}, root=repo)


def test_an_import_through_two_links_in_a_row_is_reported(tmp_path: Path) -> None:
    # `c -> e/shadow` with `e -> /etc`: `c` is /etc/shadow.
    repo = tmp_path / "repo"
    repo.mkdir()
    os.symlink("/etc", repo / "e")
    os.symlink("e/shadow", repo / "c")
    (repo / "CLAUDE.md").write_text("@c\n@./c\n", encoding="utf-8")
    codes = [(line, code) for _, line, code in lint({"CLAUDE.md": "@c\n@./c\n"}, root=repo) if code == "GDN023"]
    assert codes == [(2, "GDN023")]  # `@c` has no extension and names no file here: no import


def test_an_import_through_a_link_to_proc_self_is_reported(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    os.symlink("/proc/self", repo / "me")
    (repo / "CLAUDE.md").write_text("@me/environ\n", encoding="utf-8")
    (found,) = [p for p in findings({"CLAUDE.md": "@me/environ\n"}, root=repo) if p.code == "GDN023"]
    assert "category env, pattern /proc/*/environ" in found.message
