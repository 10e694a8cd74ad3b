"""`memcheck agents` and `--explain`, and what Claude Code 2.1.277+ makes of AGENTS.md
in `memcheck context`, on real repositories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import invoke, memory, run_cli, write

from memcheck import agents


def test_agents_lists_every_agent_with_its_version_and_date(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = invoke(repo, "agents", monkeypatch=monkeypatch)
    assert result.exit_code == 0
    for a in agents.load():
        assert f"{a.title} ({a.id}): facts of " in result.output and f"checked {a.provenance.checked}" in result.output
    assert ".claude/skills/*/SKILL.md  skills" in result.output and ".agents/skills/*/SKILL.md  skills" in result.output


def test_agents_json_is_the_data(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.loads(invoke(repo, "agents", "--format", "json", monkeypatch=monkeypatch).output)
    assert [a["id"] for a in data] == [a.id for a in agents.load()]
    codex = next(a for a in data if a["id"] == "codex")
    assert {"files": "AGENTS.override.md", "when": "one file per folder, root first"}.items() <= codex["reads"][0].items()


def test_explain_says_who_reads_a_file_when_and_from_which_source(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "AGENTS.md", "# team\n")
    write(repo, "CLAUDE.md", "# claude\n")
    rows = json.loads(invoke(repo, "agents", "--explain", "AGENTS.md", "--format", "json", monkeypatch=monkeypatch).output)["agents"]
    by = {r["agent"]: r for r in rows}
    assert by["codex"]["reads"] == "reads it" and "agents_md.rs" in by["codex"]["source"]
    assert by["claude-code"]["reads"] == "does not read it" and "leaves AGENTS.md aside" in by["claude-code"]["why"]
    assert by["gemini"]["reads"] == "does not read it"
    # Antigravity CLI is known from unconfirmed notes only: they settle no "no" either.
    assert by["antigravity"]["reads"] == "is not known to read it" and by["antigravity"]["source"].endswith(", unconfirmed")


def test_explain_a_skill_names_the_agents_loading_it(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, ".agents/skills/ship/SKILL.md", "---\nname: ship\ndescription: Ship it.\n---\nx\n")
    rows = json.loads(
        invoke(repo, "agents", "--explain", ".agents/skills/ship/SKILL.md", "--format", "json", monkeypatch=monkeypatch).output
    )["agents"]
    by = {r["agent"]: r["reads"] for r in rows}
    assert by["codex"] == "loads it as a skill" and by["claude-code"] == "does not load it"


def test_context_shows_agents_md_loaded_by_claude_code_with_the_release_it_takes(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "AGENTS.md", "# team\n")
    report = json.loads(invoke(repo, "context", ".", "--agent", "claude-code", "--format", "json", monkeypatch=monkeypatch).output)
    [entry] = report["agents"][0]["files"]
    assert entry["file"] == "AGENTS.md" and entry["loaded"] is True
    assert entry["reason"].startswith("Claude Code 2.1.277+ reads AGENTS.md where no CLAUDE.md")


def test_context_shows_agents_md_left_aside_below_a_claude_local_md(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "AGENTS.md", "# team\n")
    write(repo, "CLAUDE.local.md", "# mine\n")
    report = json.loads(invoke(repo, "context", ".", "--agent", "claude-code", "--format", "json", monkeypatch=monkeypatch).output)
    assert [f["file"] for f in report["agents"][0]["files"]] == ["CLAUDE.local.md"]


def test_claude_code_s_catalogue_holds_no_skill_of_agents_skills(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "CLAUDE.md", "# claude\n")
    write(repo, ".agents/skills/ship/SKILL.md", "---\nname: ship\ndescription: Ship it.\n---\nx\n")
    write(repo, ".claude/skills/lint/SKILL.md", "---\nname: lint\ndescription: Lint it.\n---\nx\n")
    report = json.loads(invoke(repo, "context", ".", "--format", "json", monkeypatch=monkeypatch).output)
    by = {s["agent"]: s["skills"]["count"] for s in report["agents"]}
    assert by["claude-code"] == 1 and by["codex"] == 1 and report["skills"]["count"] == 2


def test_explain_a_git_ignored_claude_local_md_says_claude_code_reads_it(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # CLAUDE.local.md is personal: kept out of git on purpose, and read all the same.
    write(repo, ".gitignore", "CLAUDE.local.md\n")
    write(repo, "pkg/CLAUDE.local.md", "# mine\n")
    rows = json.loads(invoke(repo, "agents", "--explain", "pkg/CLAUDE.local.md", "--format", "json", monkeypatch=monkeypatch).output)[
        "agents"
    ]
    by = {r["agent"]: r["reads"] for r in rows}
    assert by["claude-code"] == "reads it" and by["codex"] == "does not read it"


def test_explain_a_missing_file_is_an_error_not_a_claim(repo: Path) -> None:
    proc = run_cli(repo, "agents", "--explain", "pkg/CLAUDE.md")
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == "memcheck: error: pkg/CLAUDE.md: no such file or folder in the repository\n"


def test_context_counts_a_git_ignored_claude_local_md_above_the_working_folder(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, ".gitignore", "CLAUDE.local.md\n")
    write(repo, "AGENTS.md", "# team\n")
    write(repo, "pkg/AGENTS.md", "# package\n")
    write(repo, "pkg/CLAUDE.local.md", "# mine\n")
    report = json.loads(
        invoke(repo, "context", "pkg/src/x.py", "--agent", "claude-code", "--format", "json", monkeypatch=monkeypatch).output
    )
    assert [(f["file"], f["loaded"]) for f in report["agents"][0]["files"] if f["loaded"] is not False] == [("pkg/CLAUDE.local.md", True)]


def test_explain_a_store_index_claude_md_imports_agrees_with_context(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `context CLAUDE.md` lists the imported MEMORY.md under Claude Code: so does
    # `agents --explain` (it said no agent reads it).
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    write(repo, ".claude/memory/MEMORY.md", "- [prefs](user_prefs.md) - Prefers short answers\n")
    write(repo, "CLAUDE.md", "# Rules\n\n@.claude/memory/MEMORY.md\n")
    assert "@.claude/memory/MEMORY.md" in invoke(repo, "context", "CLAUDE.md", monkeypatch=monkeypatch).output
    explained = invoke(repo, "agents", "--explain", ".claude/memory/MEMORY.md", monkeypatch=monkeypatch).output
    assert explained.startswith("Claude Code: reads it (through an @-import of a file it reads) [https://code.claude.com/docs/en/memory"), (
        explained
    )
    assert "Codex" not in explained  # Codex follows no @-imports
    write(repo, "CLAUDE.md", "# Rules\n")
    alone = invoke(repo, "agents", "--explain", ".claude/memory/MEMORY.md", monkeypatch=monkeypatch).output
    assert alone == ".claude/memory/MEMORY.md: no agent memcheck knows reads it as instructions, a rule or a skill\n"


def test_explain_a_file_claude_md_links_to_says_claude_code_reads_it_through_the_link(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "AGENTS.md", "# team\n")
    (repo / "CLAUDE.md").symlink_to("AGENTS.md")
    rows = json.loads(invoke(repo, "agents", "--explain", "AGENTS.md", "--format", "json", monkeypatch=monkeypatch).output)["agents"]
    by = {r["agent"]: r for r in rows}
    assert (by["claude-code"]["reads"], by["claude-code"]["why"]) == ("reads it", "as CLAUDE.md: the same file, by a symlink")
    assert "code.claude.com/docs/en/memory" in by["claude-code"]["source"]
    assert by["gemini"]["reads"] == "does not read it"


@pytest.mark.parametrize(("name", "meant"), [("Claude.md", "CLAUDE.md"), ("AGENTS.MD", "AGENTS.md"), ("gemini.md", "GEMINI.md")])
def test_explain_a_case_variant_of_a_guidance_name_says_case_insensitive_systems_find_it(repo: Path, name: str, meant: str) -> None:
    # Not "no agent reads it": on macOS and Windows an agent looking for CLAUDE.md opens Claude.md.
    write(repo, f"pkg/{name}", "# x\n")
    proc = run_cli(repo, "agents", "--explain", f"pkg/{name}")
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == (
        f"pkg/{name}: agents look for {meant} by that exact name: a case-insensitive file system (macOS, Windows) finds pkg/{name} by it, "
        f"others do not; rename it to {meant}\n"
    )


def test_context_a_claude_md_above_the_repository_makes_agents_md_a_maybe_for_claude_code(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Claude Code loads the CLAUDE.md of every folder above the working one; whether
    # one above the repository also leaves its AGENTS.md aside is not settled.
    write(repo.parent, "CLAUDE.md", "# the folder above\n")
    write(repo, "AGENTS.md", "# team\n")
    report = json.loads(invoke(repo, "context", ".", "--agent", "claude-code", "--format", "json", monkeypatch=monkeypatch).output)
    [agents_md] = [f for f in report["agents"][0]["files"] if f["file"] == "AGENTS.md"]
    assert agents_md["loaded"] is None
    assert "CLAUDE.md above the repository" in agents_md["reason"]


def test_explain_names_the_agent_that_loads_a_subagent(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, ".claude/agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews diffs.\n---\nReview.\n")
    rows = json.loads(
        invoke(repo, "agents", "--explain", ".claude/agents/reviewer.md", "--format", "json", monkeypatch=monkeypatch).output
    )["agents"]
    assert [(r["agent"], r["reads"], r["why"]) for r in rows] == [("claude-code", "loads it", "as a Claude Code subagent")]
    proc = run_cli(repo, "agents", "--explain", ".claude/agents/reviewer.md")
    assert proc.returncode == 0 and proc.stdout.startswith(
        "Claude Code: loads it (as a Claude Code subagent) [https://code.claude.com/docs/en/sub-agents"
    )
