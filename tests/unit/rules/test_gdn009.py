"""GDN009 missing-import: an @-import names a file that does not exist."""

from __future__ import annotations

from pathlib import Path

from conftest import example, findings, lint


def test_the_docs_example_is_reported() -> None:
    files = {"CLAUDE.md": example("GDN009")}
    assert lint(files) == [("CLAUDE.md", 1, "GDN009")]
    (found,) = findings(files)
    assert (
        found.message
        == "@docs/missing-guide.md imports docs/missing-guide.md, which does not exist; fix the path, or put it in backticks if it is not an import"
    )


def test_the_docs_use_instead_the_path_of_the_guide_that_is_there_is_not_reported() -> None:
    assert lint({"CLAUDE.md": example("GDN009", "Use instead"), "docs/release.md": "Tag it.\n"}) == []


def test_the_path_in_backticks_is_not_an_import() -> None:
    assert lint({"CLAUDE.md": "See `@docs/missing-guide.md` for the release process.\n"}) == []


def test_not_imports() -> None:
    text = "Questions go to maintainers@example.com.\nInstall the types with `npm i -D @types/node`.\n\n```bash\nnpm install @scope/pkg\n```\n\n<!-- @docs/never-read.md is commented out -->\nAsk @maintainer.\n"
    assert lint({"CLAUDE.md": text}, select="GDN009") == []


def test_a_package_spec_in_an_imported_package_json_is_no_import() -> None:
    # Judged on an unseen repository: CLAUDE.md imports package.json, whose Yarn
    # resolutions hold `patch:@scope/pkg@...` and `npm:@scope/pkg`.
    package = '{\n  "resolutions": {\n    "pg": "patch:@slonik/pg-driver@npm%3A49.10.9#~/.yarn/patches/x.patch",\n    "a": "npm:@scope/pkg@^1.0.0"\n  }\n}\n'
    assert lint({"CLAUDE.md": "@README.md @package.json\n", "README.md": "# App\n", "package.json": package}, select="GDN009") == []
    assert lint({"CLAUDE.md": "Read: @docs/gone.md\n"}, select="GDN009") == [("CLAUDE.md", 1, "GDN009")]


def test_a_missing_import_of_an_imported_file_is_reported_once_on_that_file() -> None:
    files = {"CLAUDE.md": "@docs/a.md\n", "sub/CLAUDE.md": "@../docs/a.md\n", "docs/a.md": "@gone.md\n"}
    assert lint(files, select="GDN009") == [("docs/a.md", 1, "GDN009")]
    # Imported by two agents' files (Claude Code's and Gemini CLI's), still once, where it is written.
    files = {"CLAUDE.md": "root @docs/a.md\n", "GEMINI.md": "gemini @docs/a.md\n", "docs/a.md": "a imports @nothere.md\n"}
    assert [(p.path, p.line, p.col) for p in findings(files, select="GDN009")] == [("docs/a.md", 1, 11)]


def test_an_import_in_a_file_no_agent_following_imports_reads_is_not_followed() -> None:
    # Codex reads AGENTS.md and follows no @-imports; Claude Code, Amp and Gemini CLI follow them.
    assert lint({"AGENTS.md": "See @docs/gone.md.\n"}, select="GDN009", config={"agents": ["codex"]}) == []


def test_a_glob_mention_that_matches_nothing() -> None:
    assert lint({"AGENTS.md": "@docs/*.md\n", "src/a.py": ""}, select="GDN009") == [("AGENTS.md", 1, "GDN009")]
    assert lint({"AGENTS.md": "@docs/*.md\n", "docs/a.md": "x\n"}, select="GDN009") == []


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


def test_gemini_md_imports_are_checked() -> None:
    assert lint({"GEMINI.md": "# Gemini\n\n@docs/missing.md\n"}) == [("GEMINI.md", 3, "GDN009")]
