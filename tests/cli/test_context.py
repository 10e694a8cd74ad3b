"""`memcheck context PATH [--agent NAME]`: what each agent working on PATH loads, from
the model the checks use, with each agent's limits applied."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import git, invoke, memory, run_cli, write

from memcheck import choices


def _context(root: Path, path: str, *args: str) -> tuple[int, dict[str, Any]]:
    proc = run_cli(root, "context", path, "--format", "json", *args)
    assert proc.stderr == "", proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def _files(report: dict[str, Any], agent: str) -> list[tuple[str, bool | None]]:
    (section,) = [a for a in report["agents"] if a["agent"] == agent]
    return [(f["file"], f["loaded"]) for f in section["files"]]


@pytest.fixture
def project(repo: Path) -> Path:
    write(repo, "AGENTS.md", "# Root\n\n@docs/style.md\n")
    (repo / "CLAUDE.md").symlink_to("AGENTS.md")
    write(repo, "docs/style.md", "# Style\n\n@deeper.md and @missing.md\n")
    write(repo, "docs/deeper.md", "Deeper.\n")
    write(repo, "src/AGENTS.md", "# Src\n")
    write(repo, "src/CLAUDE.md", "# Src for Claude\n")
    write(repo, "src/api/GEMINI.md", "# API for Gemini\n")
    write(repo, "src/api/handler.py", "pass\n")
    write(repo, ".claude/rules/api.md", "---\npaths:\n  - 'src/api/**/*.py'\n---\n\nAPI rules.\n")
    write(repo, ".claude/rules/web.md", "---\npaths: web/**\n---\n\nWeb rules.\n")
    write(repo, ".claude/rules/always.md", "Always.\n")
    write(repo, ".github/copilot-instructions.md", "Repository-wide.\n")
    write(repo, ".github/instructions/py.instructions.md", "---\napplyTo: '**/*.py'\n---\n\nPython.\n")
    write(repo, ".cursor/rules/style.mdc", "---\nalwaysApply: true\n---\n\nStyle.\n")
    write(repo, "web/AGENTS.md", "# Web: not on the way to src\n")
    for i in range(3):
        write(repo, f".claude/memory/m{i}.md", memory(f"M{i}", f"memory {i}", "user"))
    write(repo, ".claude/memory/MEMORY.md", "".join(f"- [M{i}](m{i}.md) \u2014 memory {i}\n" for i in range(3)))
    write(repo, "web/.memory/MEMORY.md", "- [W](w.md) \u2014 web only\n")
    write(repo, ".claude/skills/run-tests/SKILL.md", "---\nname: run-tests\ndescription: Run the tests.\n---\n\nBody.\n")
    return repo


def test_one_section_per_agent_each_reading_its_own_files(project: Path) -> None:
    code, report = _context(project, "src/api/handler.py")
    assert code == 0
    assert [a["agent"] for a in report["agents"]] == list(choices.AGENTS)
    # Claude Code: CLAUDE.md (a symlink to AGENTS.md) and src/CLAUDE.md, never AGENTS.md;
    # the rules without paths or with paths matching the file
    assert _files(report, "claude-code") == [
        ("CLAUDE.md", True),
        ("src/CLAUDE.md", True),
        (".claude/rules/always.md", True),
        (".claude/rules/api.md", True),
        (".claude/rules/web.md", False),
    ]
    assert _files(report, "codex") == [("AGENTS.md", True), ("src/AGENTS.md", True)]
    assert _files(report, "amp") == [("AGENTS.md", True), ("src/AGENTS.md", True)]
    assert _files(report, "gemini") == [("src/api/GEMINI.md", True)]
    # Copilot: its own files, and of the AGENTS.md files the nearest one; whether it
    # also reads the AGENTS.md above, the root CLAUDE.md beside AGENTS.md, or files below
    # the root is unconfirmed (None)
    assert _files(report, "copilot") == [
        (".github/copilot-instructions.md", True),
        (".github/instructions/py.instructions.md", True),
        ("AGENTS.md", None),
        ("src/AGENTS.md", True),
        ("CLAUDE.md", None),
        ("src/CLAUDE.md", None),
        ("src/api/GEMINI.md", None),
    ]
    # Cursor: the root AGENTS.md; how its .mdc keys select the rule is unconfirmed
    assert ("AGENTS.md", True) in _files(report, "cursor") and (".cursor/rules/style.mdc", None) in _files(report, "cursor")


def test_imports_followed_as_each_agent_follows_them(project: Path) -> None:
    _, report = _context(project, "src/api/handler.py")
    sections = {a["agent"]: a for a in report["agents"]}
    claude_root = sections["claude-code"]["files"][0]
    assert [(i["file"], i["depth"]) for i in claude_root["imports"]] == [("docs/style.md", 1), ("docs/deeper.md", 2)]
    assert any("@missing.md does not exist" in n for n in claude_root["notes"])
    assert sections["codex"]["files"][0]["imports"] == []  # Codex does not follow @-imports


def test_agent_option_gives_one_section(project: Path) -> None:
    _, report = _context(project, "src", "--agent", "gemini")
    assert [a["agent"] for a in report["agents"]] == ["gemini"]
    assert _files(report, "gemini") == []


def test_sections_follow_the_configured_agents(project: Path) -> None:
    write(project, ".memcheck.yaml", "agents: [codex, claude-code]\n")
    _, report = _context(project, "src")
    assert [a["agent"] for a in report["agents"]] == ["claude-code", "codex"]


def test_codex_budget_cuts_and_drops(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Root\n" + "r" * 20_000 + "\n")
    write(repo, "a/AGENTS.md", "# A\n" + "a" * 15_000 + "\n")
    write(repo, "a/b/AGENTS.md", "# B\n")
    _, report = _context(repo, "a/b", "--agent", "codex")
    root, a, b = report["agents"][0]["files"]
    assert (root["cut"], root["dropped"], root["kept_bytes"]) == (False, False, root["bytes"])
    assert a["cut"] and a["kept_bytes"] == 32_768 - root["bytes"] and a["reason"].startswith("Codex keeps")
    assert b["dropped"] and b["loaded"] is False and b["kept_bytes"] == 0


def test_indexes_loaded_at_start_up_with_caps(project: Path) -> None:
    write(project, ".memcheck.yaml", "index:\n  max-lines: 2\n")
    _, report = _context(project, "src")
    (index,) = report["indexes"]  # web/.memory belongs to web/, not on the way to src
    assert index["file"] == ".claude/memory/MEMORY.md"
    assert (index["lines"], index["loaded_lines"], index["past_cap"]) == (3, 2, ["m2.md"])
    _, web = _context(project, "web")
    assert [i["file"] for i in web["indexes"]] == [".claude/memory/MEMORY.md", "web/.memory/MEMORY.md"]


def test_total_against_the_budget_exit_1_when_over(project: Path) -> None:
    code, report = _context(project, "src/api/handler.py")
    tokens = {i["file"]: i["tokens"] for i in report["indexes"]}
    for section in report["agents"]:
        # each agent's own catalogue (the skills of the folders it loads skills from),
        # and the memory indexes it loads
        assert section["total_tokens"] == section["tokens"] + sum(tokens[f] for f in section["indexes"]) + section["skills"]["tokens"]
    assert report["total"]["budget"] == 25000 and code == 0
    write(project, ".memcheck.yaml", "context:\n  max-tokens: 10\n")
    code, report = _context(project, "src/api/handler.py")
    assert code == 1 and report["total"]["over"] is True


def test_user_level_files_come_first(project: Path) -> None:
    home = Path(os.environ["HOME"])
    write(home, ".config/amp/AGENTS.md", "# Mine\n")
    write(home, ".codex/AGENTS.override.md", "   \n")  # blank: Codex takes the next one
    write(home, ".codex/AGENTS.md", "# Codex, mine\n")
    write(home, ".agh/memory/MEMORY.md", "- [Me](me.md) - me\n")
    write(home, ".agh/memory/me.md", memory("Me", "me", "user"))
    _, report = _context(project, "src")
    assert _files(report, "amp")[0] == ("~/.config/amp/AGENTS.md", True)
    assert _files(report, "codex")[0] == ("~/.codex/AGENTS.md", True)
    assert report["indexes"][0]["file"] == "~/.agh/memory/MEMORY.md"


def test_text_output_through_click_runner(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = invoke(project, "context", "src/api/handler.py", monkeypatch=monkeypatch)
    assert result.exit_code == 0
    out = result.output
    assert "Claude Code (user level, then each folder from the top down to the working folder):" in out
    assert "  project  CLAUDE.md" in out and "  parent   src/CLAUDE.md" in out
    assert "@docs/deeper.md" in out
    assert "[NOT loaded: no paths pattern matches src/api/handler.py" in out
    assert "Total against context.max-tokens 25,000" in out and "  Codex: ~" in out


def test_unknown_agent_is_a_usage_error(project: Path) -> None:
    proc = run_cli(project, "context", "src", "--agent", "windsurf")
    assert proc.returncode == 2 and "windsurf" in proc.stderr and "Traceback" not in proc.stderr


def test_path_outside_the_repository_is_a_usage_error(project: Path, tmp_path: Path) -> None:
    proc = run_cli(project, "context", str(tmp_path))
    assert proc.returncode == 2 and "outside the repository" in proc.stderr and "Traceback" not in proc.stderr


# ---------------------------------------------------------------- the user's machine (second audit)


def _section(report: dict[str, Any], agent: str) -> dict[str, Any]:
    (section,) = [a for a in report["agents"] if a["agent"] == agent]
    return section


def test_codex_global_file_is_read_from_codex_home(repo: Path, tmp_path: Path) -> None:
    home = Path(os.environ["HOME"])
    write(repo, "AGENTS.md", "# Rules\n")
    write(home, ".codex/AGENTS.md", "# In ~/.codex, which CODEX_HOME replaces\n")
    codex_home = tmp_path / "codex-home"
    write(codex_home, "AGENTS.md", "# Mine\n")
    proc = run_cli(repo, "context", ".", "--agent", "codex", "--format", "json", env={"CODEX_HOME": str(codex_home)})
    (section,) = json.loads(proc.stdout)["agents"]
    assert [(f["file"], f["loaded"]) for f in section["files"]] == [(str(codex_home / "AGENTS.md"), True), ("AGENTS.md", True)]


def test_user_settings_make_context_say_less(repo: Path) -> None:
    home = Path(os.environ["HOME"])
    write(repo, "AGENTS.md", "# Rules\n" + "x" * 40_000 + "\n")
    write(home, ".gemini/settings.json", '{"context": {"fileName": "AGENTS.md"}}\n')
    write(home, ".codex/config.toml", "project_doc_max_bytes = 100\n")
    _, report = _context(repo, ".")
    # Gemini CLI may read AGENTS.md: this user's settings name it
    assert [(f["file"], f["loaded"]) for f in _section(report, "gemini")["files"]] == [("AGENTS.md", None)]
    assert "your ~/.gemini/settings.json sets context.fileName" in _section(report, "gemini")["files"][0]["reason"]
    # Codex: this user's budget is not 32,768 bytes, so no cut at it is claimed
    (entry,) = _section(report, "codex")["files"]
    assert entry["loaded"] is None and entry["cut"] is False and "your ~/.codex/config.toml sets project_doc_max_bytes" in entry["reason"]


def test_folders_above_the_repository_are_named_outside_it(tmp_path: Path) -> None:
    home = Path(os.environ["HOME"])
    root = home / "projects" / "r"
    root.mkdir(parents=True)
    git(root, "-c", "init.defaultBranch=main", "init", "-q")
    write(root, "AGENTS.md", "# Rules\n")
    write(root, "CLAUDE.md", "@AGENTS.md\n")
    write(home, "projects/CLAUDE.md", "# All my projects, for Claude\n")
    write(home, "projects/AGENTS.md", "# All my projects\n")
    _, report = _context(root, ".")
    claude = _section(report, "claude-code")["files"]
    assert [(f["file"], f["scope"], f["loaded"]) for f in claude] == [
        ("~/projects/CLAUDE.md", "above", True),
        ("CLAUDE.md", "project", True),
    ]
    assert "above the repository" in claude[0]["reason"]
    amp = _section(report, "amp")["files"]
    assert [(f["file"], f["scope"], f["loaded"]) for f in amp] == [("~/projects/AGENTS.md", "above", True), ("AGENTS.md", "project", True)]
    # Codex stops at the repository root (.git)
    assert [f["file"] for f in _section(report, "codex")["files"]] == ["AGENTS.md"]
    # check is about the repository's own files: nothing above it is reported
    assert "projects/CLAUDE.md" not in run_cli(root, "check").stdout


def test_user_rules_load_first_for_claude_code(repo: Path) -> None:
    home = Path(os.environ["HOME"])
    write(repo, "CLAUDE.md", "# Rules\n")
    write(repo, "src/app.py", "pass\n")
    write(home, ".claude/rules/always.md", "Always mine.\n")
    write(home, ".claude/rules/web.md", "---\npaths: ['web/**']\n---\nWeb.\n")
    _, report = _context(repo, "src/app.py")
    assert [(f["file"], f["scope"], f["loaded"]) for f in _section(report, "claude-code")["files"]] == [
        ("~/.claude/rules/always.md", "user", True),
        ("~/.claude/rules/web.md", "user", False),
        ("CLAUDE.md", "project", True),
    ]


def test_a_cursor_rule_says_whether_its_globs_match_the_file(repo: Path) -> None:
    # Both stay MAYBE (how Cursor applies its keys is unconfirmed), but context knows
    # the globs: it says which rule's match.
    write(repo, ".cursor/rules/py.mdc", "---\ndescription: Python\nglobs: src/**/*.py\nalwaysApply: false\n---\nUse types.\n")
    write(repo, ".cursor/rules/ts.mdc", '---\ndescription: TS\nglobs: "**/*.ts"\nalwaysApply: false\n---\nUse TS.\n')
    write(repo, "src/app.py", "x = 1\n")
    proc = run_cli(repo, "context", "src/app.py", "--agent", "cursor")
    assert proc.returncode == 0, proc.stderr
    lines = {line.split()[1]: line for line in proc.stdout.splitlines() if line.startswith("  rule ")}
    assert (
        "[MAYBE loaded: a project rule (alwaysApply: false, globs: src/**/*.py, description: Python): its globs match src/app.py (src/**/*.py); "
        in lines[".cursor/rules/py.mdc"]
    )
    assert (
        '[MAYBE loaded: a project rule (alwaysApply: false, globs: "**/*.ts", description: TS): its globs do not match src/app.py; '
        in lines[".cursor/rules/ts.mdc"]
    )


def test_a_store_counts_only_for_the_agents_that_load_it(repo: Path) -> None:
    # Claude Code loads memory at start-up; Codex only what its AGENTS.md points at.
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n- [prefs](user_prefs.md) - Prefers short answers\n")
    write(repo, "AGENTS.md", "# Agents\n\nBe brief.\n")
    _, report = _context(repo, ".")
    by_agent = {s["agent"]: s for s in report["agents"]}
    assert by_agent["claude-code"]["indexes"] == [".claude/memory/MEMORY.md"]
    assert by_agent["codex"]["indexes"] == []
    text = run_cli(repo, "context", ".").stdout
    assert "  Codex: ~" in text and "(within the budget, 0 of the memory indexes)" in text
    write(repo, "AGENTS.md", "# Agents\n\nRead .claude/memory/MEMORY.md before you start.\n")
    _, report = _context(repo, ".")
    assert {s["agent"]: s for s in report["agents"]}["codex"]["indexes"] == [".claude/memory/MEMORY.md"]


def test_a_cut_or_dropped_file_says_so_once(repo: Path) -> None:
    # "CUT: cut: ..." said it twice.
    write(repo, "AGENTS.md", "# Root\n\n" + "x" * 40_000 + "\n")
    write(repo, "src/AGENTS.md", "# Src\n\nMore.\n")
    write(repo, "src/app.py", "x = 1\n")
    out = run_cli(repo, "context", "src/app.py", "--agent", "codex").stdout
    assert "[CUT: Codex keeps 32,768 of its " in out and "[DROPPED: the files above spent Codex's " in out, out
    assert "CUT: cut:" not in out and "DROPPED: dropped:" not in out


def test_one_agents_skills_catalogue_is_what_that_agent_sees(repo: Path) -> None:
    """Issue 40's shape: `context --agent claude-code` printed "Skills catalogue: 1
    skill(s)" for a skill only .agents/skills holds, while Claude Code's own line
    rightly said it sees none of them."""
    write(repo, "CLAUDE.md", "# Project\n")
    write(repo, ".agents/skills/release/SKILL.md", "---\nname: release\ndescription: Ship a release.\n---\n\nSteps.\n")
    proc = run_cli(repo, "context", ".", "--agent", "claude-code")
    assert proc.returncode == 0, proc.stderr
    (line,) = [line for line in proc.stdout.splitlines() if line.startswith("Skills catalogue")]
    assert line == (
        "Skills catalogue: 0 skill(s) Claude Code lists, ~0 tokens of names and descriptions; "
        "1 more only in .agents/skills, which it does not load"
    )
    _, report = _context(repo, ".", "--agent", "claude-code")
    assert report["skills"] == {"count": 0, "tokens": 0, "agent": "Claude Code", "unseen": {"count": 1, "folders": [".agents/skills"]}}
    _, codex = _context(repo, ".", "--agent", "codex")
    assert (codex["skills"]["count"], "unseen" in codex["skills"]) == (1, False)
