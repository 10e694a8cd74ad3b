"""Real memory, guidance and skill files from public repositories (../shared/corpus).

The same behaviours on hand-written trees: tests/cli/test_real_world_shapes.py.

Every repository must run without a traceback; the findings asserted below were
checked by hand against the files. Nothing from the corpus is copied into the
project: `fix` runs on a temporary copy.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import CORPUS, run_cli

if not CORPUS.is_dir():  # tests/conftest.py leaves this folder out then; this is for a run that names it
    pytest.fail(f"{CORPUS} is not beside this checkout: tests/shared/ runs only where it is", pytrace=False)
REPOS = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())


def _check(root: Path, *args: str) -> list[dict[str, object]]:
    proc = run_cli(root, "check", "--format", "json", *args)
    assert proc.returncode in (0, 1), proc.stderr
    assert proc.stderr == "", proc.stderr  # no traceback, no internal error
    report = json.loads(proc.stdout)
    assert (proc.returncode == 1) == any(p["severity"] == "error" for p in report["problems"])  # warnings pass
    return report["problems"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", REPOS)
def test_every_corpus_repository_runs_cleanly_and_fix_converges(name: str, tmp_path: Path) -> None:
    _check(CORPUS / name)
    copy = tmp_path / name
    shutil.copytree(CORPUS / name, copy, symlinks=True)
    fixed = run_cli(copy, "fix", "--format", "json")
    assert fixed.returncode in (0, 1) and fixed.stderr == ""
    left = json.loads(fixed.stdout)["problems"]
    assert not [p for p in left if str(p["code"]).startswith("IDX") and p["fixable"]]
    snapshot = {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    again = run_cli(copy, "fix", "--format", "json")
    assert json.loads(again.stdout)["fixed"] == []
    assert {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()} == snapshot


def _found(problems: list[dict[str, object]]) -> set[tuple[str, str, int]]:
    return {(str(p["path"]), str(p["code"]), int(p["line"])) for p in problems}  # type: ignore[call-overload]


def test_portfolio_dead_links_and_over_cap_index() -> None:
    problems = _check(CORPUS / "4444J99__portfolio")
    index = ".claude/memory/MEMORY.md"
    found = _found(problems)
    # line 7 links user_personal_situation.md, which is not in the store
    assert (index, "IDX002", 7) in found
    assert not (CORPUS / "4444J99__portfolio/.claude/memory/user_personal_situation.md").exists()
    # 215 lines: the last 15 never reach the agent
    (cap,) = [p for p in problems if p["code"] == "IDX007"]
    assert cap["line"] == 201 and "215 lines" in str(cap["message"])
    # ../../../plans/INDEX.md climbs above the repository root
    assert (index, "IDX005", 4) in found
    # feedback_bento_grid.md exists but no line names it
    assert any(p["code"] == "IDX003" and "feedback_bento_grid.md" in str(p["message"]) for p in problems)
    dead = [p for p in problems if p["code"] == "IDX002"]
    assert len(dead) == 177


def test_youtubeoptermizer_unlisted_files() -> None:
    problems = _check(CORPUS / "12TribesofIsrael__youtubeoptermizer")
    unlisted = sorted(str(p["message"]).split()[2] for p in problems if p["code"] == "IDX003")
    assert unlisted == [
        "feedback_browser_automation_vs_manual.md",
        "feedback_save_skill_learnings.md",
        "feedback_tiktok_chunk_math.md",
        "feedback_tiktok_sandbox_separate_config.md",
        "feedback_vercel_env_vars_no_retro.md",
        "reference_tiktok_scraping_selectors.md",
    ]


# (path, code, line) of each SSH password on a command line in 12MICKY__Antigravity-config.
SSH_PASSWORDS = {
    ("memory/ct116_cloudflare_tunnel.md", "SEC003", 16),
    ("memory/infra_servers.md", "SEC003", 22),
    ("memory/infra_servers.md", "SEC003", 23),
    ("memory/infra_servers.md", "SEC003", 28),
    ("memory/proxmox_cluster.md", "SEC003", 12),
    ("memory/proxmox_cluster.md", "SEC003", 32),
    ("memory/proxmoxauto_vm_bot.md", "SEC003", 17),
}


def test_other_hand_checked_findings() -> None:
    agent_memory = _found(_check(CORPUS / "SandboxServers__ficsit-mcp"))
    # a subagent folder whose entries sit in the parent's MEMORY.md instead of its own
    assert (".claude/agent-memory/dotnet-infra-engineer/MEMORY.md", "IDX001", 1) in agent_memory
    # `description: How issue #18 ...`: YAML reads "How issue"
    assert (".claude/agent-memory/fin-bridge-architect/bridge-host-impl.md", "MEM019", 3) in agent_memory
    antigravity = _found(_check(CORPUS / "12MICKY__Antigravity-config"))
    taxonomy = {f for f in antigravity if f[1] != "REF002"}
    # pteachlab_server.md line 19: a DATABASE_URL with the application's own database
    # password in it (read by hand: a real password, of a database on the server's
    # loopback): SEC003 since passwords in URLs are found. The SSH passwords of the
    # servers these memories describe, in `sshpass -p '…'` and `SSHPASS='…' sshpass -e`
    # command lines (read by hand: each a real password, two of them in all): SEC003
    # since passwords on command lines are found.
    assert taxonomy == {
        ("memory/ct116_cloudflare_tunnel.md", "MEM007", 4),
        ("memory/proxmox_cluster.md", "MEM007", 4),
        ("memory/pteachlab_server.md", "SEC003", 19),
        *SSH_PASSWORDS,
    }
    # `file:///Users/<name>/claude-config/CLAUDE.md` in AGENTS.md; `/home/nonroot/` (a
    # container's account) on infra_servers.md's line 55 is not the one reported there
    # REF002 is opt-in (issue 40): on only where selected.
    private = _found(_check(CORPUS / "12MICKY__Antigravity-config", "--select", "REF002"))
    assert ("AGENTS.md", "REF002", 17) in private and ("memory/workflow_patterns.md", "REF002", 14) not in private
    assert not [f for f in antigravity if f[1] == "REF002"]
    clash = _check(CORPUS / "AdielMag__ClashUp")
    # line 160 mentions scene-ownership.md mid-sentence; line 179 is its only entry
    assert not [p for p in clash if p["code"] == "IDX004"]
    assert (".claude/memory/MEMORY.md", "IDX009", 1) in _found(clash)  # 195 of 200 lines


def test_link_less_index_counts_file_stems_as_listed() -> None:
    # `- star_on_top_preference: ... [user]` lists its memory without a link
    assert _check(CORPUS / "anurag-mishra899__Nano-ClaudeCode", ".memory") == []
    assert not [p for p in _check(CORPUS / "bling6__mini-agent-learn", ".memory") if str(p["code"]).startswith("IDX")]


def test_memory_md_beside_ordinary_documents_is_not_a_store() -> None:
    # openclaw-workspace keeps a long-term MEMORY.md at its root beside AGENTS.md
    problems = _check(CORPUS / "717986230__openclaw-workspace")
    assert not [p for p in problems if str(p["code"]).startswith(("MEM", "IDX"))]


def _fix_copy(name: str, tmp_path: Path) -> tuple[Path, dict[str, object]]:
    copy = tmp_path / name
    shutil.copytree(CORPUS / name, copy, symlinks=True)
    fixed = run_cli(copy, "fix", "--format", "json")
    assert fixed.stderr == ""
    return copy, json.loads(fixed.stdout)


def test_fix_on_a_curated_index_says_what_it_did_and_puts_entries_in_their_sections(tmp_path: Path) -> None:
    copy, report = _fix_copy("4444J99__portfolio", tmp_path)
    changes = report["changes"][".claude/memory/MEMORY.md"]  # type: ignore[index]
    # None of the 177 files is anywhere in the repository (its complete file list at
    # that commit, in ../shared/filelists, was checked): every removal is a dead entry.
    assert (len(changes["added"]), len(changes["repointed"]), len(changes["removed"]), changes["past_cap"]) == (12, 0, 177, [])
    text = (copy / ".claude/memory/MEMORY.md").read_text()
    # The store's two User entries were dead: the new one is now the section's first line.
    assert "(user_design_philosophy.md)" in text.split("## User\n", 1)[1].split("\n", 1)[0]
    assert text.index("(feedback_bento_grid.md)") > text.index("## Feedback\n")
    assert "\n## Project\n- [Mega session final state" in text  # no Project section yet: one is added
    assert "../../../plans/INDEX.md" in text  # links that leave the store are never removed


def test_fix_keeps_dead_links_to_what_is_not_a_memory_file(tmp_path: Path) -> None:
    # ../docs/README.md and ../../docs/ are in the real repository, not in the corpus:
    # reported, never removed.
    copy, report = _fix_copy("Aleslammer__deathwatch_foundryvtt", tmp_path)
    assert report["fixed"] == []
    dead = [p for p in report["problems"] if p["code"] == "IDX002"]  # type: ignore[union-attr]
    assert sorted(str(p["message"]).split("'")[1] for p in dead) == ["../../docs/", "../docs/README.md"]
    assert not any(p["fixable"] for p in dead)
