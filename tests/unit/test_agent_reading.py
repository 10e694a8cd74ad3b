"""What one agent's own reading hides from it (GDN020-GDN022), on trees in memory."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import lint


def codes(found: list[tuple[str, int, str]], code: str) -> list[tuple[str, int]]:
    return [(p, line) for p, line, c in found if c == code]


@pytest.mark.parametrize(
    ("files", "reported"),
    [
        pytest.param({"AGENTS.md": "team\n", "CLAUDE.local.md": "mine\n"}, [("CLAUDE.local.md", 1)], id="beside"),
        pytest.param({"pkg/AGENTS.md": "team\n", "CLAUDE.local.md": "mine\n"}, [("CLAUDE.local.md", 1)], id="above-an-AGENTS.md-below"),
        pytest.param({"AGENTS.md": "team\n", "CLAUDE.local.md": "@AGENTS.md\nmine\n"}, [], id="imports-it"),
        pytest.param({"AGENTS.md": "team\n", "CLAUDE.md": "claude\n", "CLAUDE.local.md": "mine\n"}, [], id="the-team-CLAUDE.md-decides"),
        pytest.param({"AGENTS.md": "team\n", "pkg/CLAUDE.local.md": "mine\n"}, [], id="below-the-AGENTS.md-folder"),
    ],
)
def test_claude_local_md_hiding_agents_md(files: dict[str, str], reported: list[tuple[str, int]]) -> None:
    assert codes(lint(files, select="GDN022"), "GDN022") == reported


@pytest.mark.parametrize(
    ("files", "reported"),
    [
        pytest.param({"AGENTS.md": "a\n", "CODEX.md": "c\n", ".codex/config.toml": 'project_doc_fallback_filenames = ["CODEX.md"]\n'}, [("AGENTS.md", 1)], id="fallback-beside-AGENTS.md"),
        pytest.param({"pkg/CODEX.md": "c\n", "AGENTS.md": "a\n", ".codex/config.toml": 'project_doc_fallback_filenames = ["CODEX.md"]\n'}, [], id="fallback-in-a-folder-without-AGENTS.md"),
        pytest.param({"AGENTS.md": "a\n", "CODEX.md": "c\n"}, [], id="not-a-fallback"),
        pytest.param({"AGENTS.md": "a\n", "CODEX.md": "c\n", ".codex/config.toml": "project_doc_fallback_filenames = [\n"}, [], id="unparsable-config"),
        pytest.param({".codex/AGENTS.md": "a\n"}, [(".codex/AGENTS.md", 1)], id="dot-codex-AGENTS.md"),
        # tomllib recurses once per nesting level: a config nested thousands deep is Codex's own error, not a crash
        pytest.param({"AGENTS.md": "a\n", "CODEX.md": "c\n", ".codex/config.toml": "x = " + "[" * 5000 + "]" * 5000 + "\n"}, [], id="config-nested-too-deep"),
        pytest.param({"AGENTS.md": "a\n", "CODEX.md": "c\n", ".codex/config.toml": "x = " + "{y = " * 5000 + "1" + "}" * 5000 + "\n"}, [], id="tables-nested-too-deep"),
    ],
)
def test_files_codex_never_reads(files: dict[str, str], reported: list[tuple[str, int]]) -> None:
    assert codes(lint(files, select="GDN020"), "GDN020") == reported


def test_codex_fallback_message_says_why() -> None:
    from pathlib import Path

    from memcheck import config
    from memcheck.engine.collect import collect
    from memcheck.engine.targets import targets_for
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.memory import MemorySource

    files = {"AGENTS.md": "a\n", "CODEX.md": "c\n", ".codex/config.toml": 'project_doc_fallback_filenames = ["CODEX.md"]\n'}
    ws = Workspace(config.from_mapping(Path("/nonexistent/x"), config.defaults()), MemorySource({p: t.encode() for p, t in files.items()}))
    [message] = [p.message for p in collect(ws, targets_for(ws, None)) if p.code == "GDN020"]
    assert "Codex never reads CODEX.md" in message and "only in a folder without AGENTS.md" in message


SKILL = "---\nname: release\ndescription: Ship a release.\n---\nSteps.\n"


@pytest.mark.parametrize(
    ("files", "reported"),
    [
        pytest.param({"CLAUDE.md": "Use the `release` skill to ship.\n", ".agents/skills/release/SKILL.md": SKILL}, [("CLAUDE.md", 1)], id="claude-md-names-an-agents-skill"),
        pytest.param({"CLAUDE.md": "See .agents/skills/release for shipping.\n", ".agents/skills/release/SKILL.md": SKILL}, [("CLAUDE.md", 1)], id="by-its-folder"),
        pytest.param(
            {"CLAUDE.md": "Use the `release` skill.\n", ".agents/skills/release/SKILL.md": SKILL, ".claude/skills/release/SKILL.md": SKILL}, [], id="also-in-claude-skills"
        ),
        pytest.param({"AGENTS.md": "Use the `release` skill.\n", ".agents/skills/release/SKILL.md": SKILL}, [], id="codex-sees-it"),
        pytest.param({"AGENTS.md": "Use the `release` skill.\n", ".claude/skills/release/SKILL.md": SKILL}, [("AGENTS.md", 1)], id="codex-does-not-see-claude-skills"),
        pytest.param({"CLAUDE.md": "Run `release` when done.\n", ".agents/skills/release/SKILL.md": SKILL}, [], id="a-line-not-about-skills"),
        pytest.param({"CLAUDE.md": "A skilled reviewer runs `release` last.\n", ".agents/skills/release/SKILL.md": SKILL}, [], id="skilled-is-not-skill"),
        pytest.param({"CLAUDE.md": "Run `release` when done; skills live elsewhere.\n", ".agents/skills/release/SKILL.md": SKILL}, [], id="skills-in-another-clause"),
        pytest.param({"CLAUDE.md": "Skills: use `release` for tags.\n", ".agents/skills/release/SKILL.md": SKILL}, [("CLAUDE.md", 1)], id="a-skills-label"),
    ],
)
def test_skills_named_for_an_agent_that_cannot_see_them(files: dict[str, str], reported: list[tuple[str, int]]) -> None:
    assert codes(lint(files, select="GDN021"), "GDN021") == reported


def test_a_file_claude_md_imports_directly_is_not_called_never_loaded() -> None:
    # From a peer linter's fixtures: x.md sits five hops down one chain, and CLAUDE.md
    # imports it directly too; Claude Code loads it through the direct import.
    files = {"CLAUDE.md": "@a.md\n@x.md\n", "a.md": "@b.md\n", "b.md": "@c.md\n", "c.md": "@d.md\n", "d.md": "@x.md\n", "x.md": "x\n"}
    assert codes(lint(files, select="GDN012"), "GDN012") == []
    deeper = {**files, "CLAUDE.md": "@a.md\n", "d.md": "@e.md\n", "e.md": "@x.md\n"}
    assert codes(lint(deeper, select="GDN012"), "GDN012") == [("CLAUDE.md", 1)]


def test_an_import_through_a_symlink_out_of_the_repository_is_not_missing(tmp_path: Path) -> None:
    # From a peer linter's fixtures: docs/ is a symlink to a folder outside the
    # repository; @docs/style.md names a file the agent reads through it.
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "style.md").write_text("style\n")
    root = tmp_path / "repo"
    root.mkdir()
    (root / "docs").symlink_to(outside)
    found = lint({"CLAUDE.md": "@docs/style.md\n"}, select="GDN009", root=root)
    assert codes(found, "GDN009") == []
    # memcheck does not follow the link: what is behind it is not known, so nothing is said;
    # a missing file inside the repository still is
    assert codes(lint({"CLAUDE.md": "@docs/gone.md\n@notes/gone.md\n"}, select="GDN009", root=root), "GDN009") == [("CLAUDE.md", 2)]


def test_a_skill_linked_into_claude_skills_is_one_claude_code_sees(tmp_path: Path) -> None:
    # `npx skills add` installs into .agents/skills and links into .claude/skills.
    root = tmp_path / "repo"
    (root / ".claude" / "skills").mkdir(parents=True)
    files = {"CLAUDE.md": "Use the `release` skill to ship.\n", ".agents/skills/release/SKILL.md": SKILL}
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    (root / ".claude" / "skills" / "release").symlink_to("../../.agents/skills/release")
    assert codes(lint({}, select="GDN021", root=root), "GDN021") == []
