"""GDN, SKL and SEC on the real corpus (../shared/corpus): no traceback anywhere, and
findings checked by hand against the files (and against ../shared/filelists, the
real repositories' file lists, where a target is missing from the partial corpus).
The same behaviours on hand-written trees: tests/cli/test_real_world_shapes.py."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import CORPUS, check_json, run_cli
from test_corpus import SSH_PASSWORDS

from memcheck import choices

if not CORPUS.is_dir():  # tests/conftest.py leaves this folder out then; this is for a run that names it
    pytest.fail(f"{CORPUS} is not beside this checkout: tests/shared/ runs only where it is", pytrace=False)
REPOS = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())


def _problems(name: str) -> list[dict[str, Any]]:
    return check_json(CORPUS / name)


def _found(name: str) -> set[tuple[str, int, str]]:
    return {(p["path"], p["line"], p["code"]) for p in _problems(name) if p["code"][:3] in ("GDN", "SKL", "SEC")}


@pytest.mark.parametrize("name", REPOS)
def test_context_runs_on_every_repository(name: str) -> None:
    proc = run_cli(CORPUS / name, "context", ".", "--format", "json")
    assert proc.returncode in (0, 1) and proc.stderr == "", proc.stderr
    report = json.loads(proc.stdout)
    assert [a["agent"] for a in report["agents"]] == list(choices.AGENTS)
    assert report["total"]["tokens"] >= 0 and (proc.returncode == 1) == report["total"]["over"]


def test_no_secrets_in_the_corpus_and_placeholders_stay_quiet() -> None:
    # binance-pro's SKILL.md holds "YOUR_API_KEY" / "your_secret_key" placeholders;
    # ficsit-mcp's CLAUDE.md "<admin-api-token>": documentation, not credentials.
    # The secrets the corpus holds, read by hand: a database password in a URL, and SSH
    # passwords on command lines (sshpass), all in one repository's memories.
    known = {("12MICKY__Antigravity-config", "memory/pteachlab_server.md", 19, "SEC003")} | {
        ("12MICKY__Antigravity-config", path, line, code) for path, code, line in SSH_PASSWORDS
    }
    for name in REPOS:
        assert not [p for p in _problems(name) if p["code"].startswith("SEC") and (name, p["path"], p["line"], p["code"]) not in known], (
            name
        )


def test_agenta_twins_imports_and_skills() -> None:
    found = _found("Agenta-AI__agenta")
    # api/CLAUDE.md holds just "AGENTS.md": a symlink checked out as a file, one file
    # with api/AGENTS.md; the root CLAUDE.md imports @AGENTS.md. Neither is shadowed.
    assert not [f for f in found if f[2] == "GDN001"]
    # Six CLAUDE.md files hold just "AGENTS.md": the real repository records each as a
    # link (mode 120000), and this copy is outside git, where nothing tells text from a
    # link: no drift is claimed.
    assert not [f for f in found if f[2] == "GDN015"]
    # "...Style: Lessons in Clarity and Grace," inside a plain description: not YAML
    assert (".agents/skills/style-editing/SKILL.md", 3, "SKL003") in found
    assert (".agents/skills/write-social-announcement/SKILL.md", 1, "SKL002") in found
    assert (".agents/skills/plan-feature/SKILL.md", 2, "SKL005") in found  # name planner-feature
    # web/AGENTS.md is full of @agenta/sdk, @/oss/* and @agenta/entities/{...}: package
    # scopes and path aliases in code, none of them an import
    assert not [f for f in found if f[0] == "web/AGENTS.md" and f[2] in ("GDN009", "GDN010")]


def test_gsim_ops_claude_md_beside_agents_md_is_drift_not_a_shadowed_file() -> None:
    # Claude Code reads CLAUDE.md, never AGENTS.md: the two hand-written files are two
    # sets of instructions (GDN015), and CLAUDE.md is not "unread" (GDN001).
    problems = [p for p in _problems("0WAQ__gsim-ops") if p["code"] in ("GDN001", "GDN015")]
    assert [(p["path"], p["line"], p["code"]) for p in problems] == [("CLAUDE.md", 1, "GDN015")]
    message = problems[0]["message"]
    assert "Claude Code reads CLAUDE.md and not AGENTS.md" in message and "Codex, Amp and Cline read AGENTS.md and not CLAUDE.md" in message
    assert "Cursor" not in message and "Copilot" not in message  # whether they read CLAUDE.md is unconfirmed


def test_agenta_codex_budget_is_crossed_in_two_packages() -> None:
    # AGENTS.md (18,097 bytes) + api/AGENTS.md (15,079) and + web/AGENTS.md (22,518):
    # both cross Codex's 32,768; web/mobile/AGENTS.md below web is dropped.
    budget = {p["path"]: p["message"] for p in _problems("Agenta-AI__agenta") if p["code"] == "GDN016"}
    assert set(budget) == {"api/AGENTS.md", "web/AGENTS.md"}
    assert "Codex keeps the first 14,671 bytes of AGENTS.md" in budget["api/AGENTS.md"]
    assert "it never reads web/mobile/AGENTS.md below it" in budget["web/AGENTS.md"]


def test_dead_wiki_links_between_memories() -> None:
    found = {(p["path"], p["line"]) for p in _problems("AnotherSava__bga-assistant") if p["code"] == "MEM021"}
    assert (".claude/memory/project_settings_surface.md", 13) in found  # [[feedback_actions_refresh_not_navigate]]: no such memory
    assert (".claude/memory/project_innovation_opponent_merge.md", 16) in found  # hyphens for the stem's underscores
    # [[project_innovation_deck_order]] and the other links that name a file stem are fine
    assert (".claude/memory/project_innovation_candidate_invariant.md", 25) not in found


def test_openclaw_skill_names() -> None:
    found = _found("717986230__openclaw-workspace")
    assert ("skills/office/SKILL.md", 2, "SKL004") in found  # name: Office
    assert ("skills/agents-skill-security-audit/SKILL.md", 2, "SKL005") in found  # name: security-audit
    assert ("skills/multi-agent-roles/SKILL.md", 1, "SKL002") in found  # starts with "# Multi-Agent Roles"


def test_links_that_are_broken_in_the_real_repository_too() -> None:
    found = _found("o-industrial__open-industrial-atomic")
    assert ("src/Agents.md", 68, "GDN013") in found  # ../Atomic.plan.md: not in the repository
    portfolio = _found("4444J99__portfolio")
    assert ("CLAUDE.md", 484, "GDN013") in portfolio  # ../docs/logos/telos.md climbs out of the root
    deathwatch = {(p["line"], p["message"]) for p in _problems("Aleslammer__deathwatch_foundryvtt") if p["code"] == "GDN013"}
    assert any(line == 12 and "not '\\'" in msg for line, msg in deathwatch)  # [..](\.claude\memory\MEMORY.md)


def test_commented_out_and_home_imports_are_not_checked() -> None:
    # CLAUDE.md line 2 is `[//]: # (See @README ... @package.json ...)`; line 7 imports @~/.agents/base.md
    assert not [f for f in _found("bugb__claude-code-template") if f[0] == "CLAUDE.md"]


def test_trigger_typo_gets_a_hint() -> None:
    (p,) = [p for p in _problems("Aleslammer__deathwatch_foundryvtt") if p["code"] == "SKL010"]
    assert p["path"] == ".claude/skills/add-enemy/SKILL.md" and "misspelling of 'triggers'" in p["message"]


def test_context_names_the_index_entries_past_the_cap() -> None:
    proc = run_cli(CORPUS / "4444J99__portfolio", "context", "src/x.ts", "--format", "json")
    report = json.loads(proc.stdout)
    (index,) = report["indexes"]
    assert (index["lines"], index["loaded_lines"]) == (215, 200)
    assert index["past_cap"][0] == "feedback_no_pick_one_menus.md"
    by_agent = {a["agent"]: [f["file"] for f in a["files"]] for a in report["agents"]}
    assert by_agent["claude-code"] == ["CLAUDE.md"] and by_agent["codex"] == ["AGENTS.md"]


def test_the_corpus_is_complete() -> None:
    assert len(REPOS) >= 20 and all((CORPUS / r).is_dir() for r in REPOS)
