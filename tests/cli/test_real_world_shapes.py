"""The shapes real repositories give memcheck, written by hand for this project.

tests/shared/ runs memcheck on real agent files from public repositories
(../shared/corpus and ../shared/filelists) wherever that folder is beside the
checkout. Every behaviour those runs assert is asserted here too, on small trees
written below that have the same shapes (frontmatter styles, index styles, stores
of subagents, skills, twin guidance files, imports, links, CRLF, BOM, non-UTF-8
bytes, symlinks, Cursor rules), so a clone without ../shared loses no coverage.
None of the text below is copied from those repositories.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest
from conftest import check_json, git, memory, run_cli, symlink_as_text, unlisted, write

from memcheck import choices

Tree = Callable[[Path], None]


def _memory_nested(name: str, description: str, kind: str, body: str = "Body.\n") -> str:
    """A memory file whose type sits under `metadata:`, as some agents write it
    (with the trailing space after `metadata:` they leave)."""
    return f"---\nname: {name}\ndescription: {description}\nmetadata: \n  node_type: memory\n  type: {kind}\n---\n\n{body}"


def _skill(name: str, description: str, extra: str = "", body: str = "# Skill\n\nSteps.\n") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n\n{body}"


def _filler(lines: int, topic: str) -> str:
    """Guidance prose: ``lines`` numbered bullet lines about ``topic``."""
    return "".join(f"- {topic} rule {i}: keep the change small, run the tests, then say what changed.\n" for i in range(1, lines + 1))


def _sized(head: str, size: int, topic: str) -> str:
    """``head`` followed by prose lines, cut to exactly ``size`` bytes (ASCII)."""
    text = head + _filler(size // 60 + 2, topic)
    return text[: size - 1] + "\n"


# --- The trees -------------------------------------------------------------------

CURATED_LIVE = ("feedback_one_question_at_a_time.md", "feedback_no_pick_one_menus.md", "reference_deploy_steps.md")
CURATED_UNLISTED = ("user_design_philosophy.md", "feedback_bento_grid.md", "project_mega_session_final_state.md")


def curated_index_over_cap(root: Path) -> None:
    """A hand-curated index in sections, 215 lines long: a first entry that leaves the
    store (and the repository), two dead User entries, a long Feedback section mostly of
    files deleted since, live entries, and three files nobody listed."""
    store = ".claude/memory"
    lines = [
        "# Memory",
        "",
        "## Plans Index",
        "- [All plans (on disk)](../../../plans/INDEX.md) — generated elsewhere; the full list stays out of MEMORY.md",
        "",
        "## User",
        "- [Personal situation](user_personal_situation.md) — moving house; short answers this month",
        "- [Core identity](user_core_identity.md) — writer first, engineer second",
        "",
        "## Feedback",
    ]
    dead = [f"feedback_topic_{i:03d}.md" for i in range(1, 176)]
    entries = [f"- [Topic {i}]({name}) — a lesson learned in session {i}" for i, name in enumerate(dead, 1)]
    entries.insert(20, f"- [One question at a time]({CURATED_LIVE[0]}) — never stack questions")
    lines += entries
    lines += ["", "## Reference", f"- [Deploy steps]({CURATED_LIVE[2]}) — how the site ships"]
    while len(lines) < 214:
        lines.append(f"- [Old note {len(lines)}](reference_old_note_{len(lines)}.md) — superseded")
    lines.insert(200, f"- [No pick-one menus]({CURATED_LIVE[1]}) — recommend one option, do not list five")  # line 201
    assert len(lines) == 215
    write(root, f"{store}/MEMORY.md", "\n".join(lines) + "\n")
    write(root, f"{store}/{CURATED_LIVE[0]}", memory("one-question", "Ask one question at a time", "feedback"))
    write(root, f"{store}/{CURATED_LIVE[1]}", memory("no-menus", "Recommend one option instead of a menu", "feedback"))
    write(root, f"{store}/{CURATED_LIVE[2]}", memory("deploy-steps", "How the site is deployed", "reference"))
    write(root, f"{store}/{CURATED_UNLISTED[0]}", memory("design-philosophy", "Prefers calm, dense layouts", "user"))
    write(root, f"{store}/{CURATED_UNLISTED[1]}", memory("bento-grid", "Use a bento grid for the landing page", "feedback"))
    write(root, f"{store}/{CURATED_UNLISTED[2]}", memory("Mega session final state", "Where the long session left the site", "project"))
    claude = ["# CLAUDE.md", "", "Guidance for this site.", "", *[f"- Convention {i}: follow the house style." for i in range(1, 20)]]
    claude += ["", "The thesis behind the logos: [telos](../docs/logos/telos.md)."]
    write(root, "CLAUDE.md", "\n".join(claude) + "\n")
    write(root, "AGENTS.md", "# Agents\n\nRun `npm test` before every commit.\n")
    write(root, "src/x.ts", "export const x = 1;\n")


# The session log (LAST_SESSION.md, no memory field) is the store's own document, not a memory.
YOUTUBE_UNLISTED = ["feedback_chunk_math.md", "feedback_save_learnings.md", "reference_scraping_selectors.md"]


def index_missing_recent_files(root: Path) -> None:
    """An index kept by hand that missed the last files written, one of them a
    session log with frontmatter of its own (no name, no type)."""
    store = ".claude/memory"
    listed = ["project_channel_plan.md", "feedback_canary_before_bulk.md", "reference_api_limits.md"]
    index = ["- [Channel plan](project_channel_plan.md) — phase A done; phase B next, paced over the quarter"]
    index += ["- [Canary first](feedback_canary_before_bulk.md) — try one item before a bulk edit"]
    index += ["- [API limits](reference_api_limits.md) — quota per day, per endpoint"]
    write(root, f"{store}/MEMORY.md", "\n".join(index) + "\n")
    for name in listed:
        write(root, f"{store}/{name}", memory(name[:-3].replace("_", "-"), f"About {name[:-3]}", name.split("_")[0]))
    write(
        root,
        f"{store}/LAST_SESSION.md",
        "---\nended: 2025-05-06T22:30:00Z\nproject: channel\nbranch: main\n---\n\n# Last session\n\nStopped mid-upload.\n",
    )
    for name in YOUTUBE_UNLISTED:
        write(root, f"{store}/{name}", memory(name[:-3].replace("_", "-"), f"About {name[:-3]}", name.split("_")[0]))


def subagent_stores(root: Path) -> None:
    """Claude Code subagents' memory: one folder per agent under agent-memory/. One
    agent's entries were written into the parent's MEMORY.md instead of its own; another
    has a description YAML cuts at ` #`."""
    base = ".claude/agent-memory"
    write(
        root,
        f"{base}/MEMORY.md",
        "# Agent memory\n\n- [Stdout is JSON-RPC](infra-engineer/convention_stdout_jsonrpc.md) — logs go to stderr\n- [Solution layout](infra-engineer/project_solution_layout.md) — one project per package\n",
    )
    write(
        root,
        f"{base}/infra-engineer/convention_stdout_jsonrpc.md",
        _memory_nested("convention-stdout-jsonrpc", "Never write logs to stdout", "project"),
    )
    write(
        root,
        f"{base}/infra-engineer/project_solution_layout.md",
        _memory_nested("project-solution-layout", "One project per package", "project"),
    )
    architect = f"{base}/bridge-architect"
    write(
        root,
        f"{architect}/MEMORY.md",
        "# Bridge architect\n\n- [Bridge host](bridge-host-impl.md) — how the host was built\n- [Protocol v1](protocol-v1-contract.md) — the wire contract\n",
    )
    write(
        root,
        f"{architect}/bridge-host-impl.md",
        _memory_nested("bridge-host-impl", "How issue #18 implemented the bridge host — two-faced seam, envelope mapping", "project"),
    )
    write(
        root,
        f"{architect}/protocol-v1-contract.md",
        _memory_nested("protocol-v1-contract", "The bridge's wire contract, version 1", "reference"),
    )
    write(root, "CLAUDE.md", "# Project\n\nAn MCP server for a game's dedicated server API.\n")


def types_outside_the_taxonomy(root: Path) -> None:
    """A `memory/` store at the root whose files nest their type under metadata:,
    two of them with types of their own ("infra")."""
    files = {
        "user_profile.md": ("user-profile", "Developer; Python, Node, Go, Docker; says 'just do it'", "user"),
        "feedback_response_style.md": ("feedback-response-style", "No summaries, no recaps, action first", "feedback"),
        "project_overview.md": ("project-overview", "What the config repository holds", "project"),
        "proxmox_cluster.md": ("proxmox-cluster", '"Five-node cluster, the router VM on node 5"', "infra"),
        "ct116_cloudflare_tunnel.md": ("ct116-cloudflare-tunnel", '"Container 116 runs the tunnel"', "infra"),
    }
    index = ["# Memory Index", ""]
    for name, (slug, description, kind) in files.items():
        write(root, f"memory/{name}", _memory_nested(slug, description, kind))
        index.append(f"- [{slug.replace('-', ' ').title()}]({name}) — {description.strip(chr(34))}")
    write(root, "memory/MEMORY.md", "\n".join(index) + "\n")


NEAR_CAP_MENTION_LINE, NEAR_CAP_ENTRY_LINE = 160, 179


def index_near_cap_with_a_mention(root: Path) -> None:
    """A 195-line index of notes and entries, one of which names a file mid-sentence
    twenty lines before its own entry."""
    store = ".claude/memory"
    lines = ["# Game client memory", ""]
    while len(lines) < 195:
        n = len(lines) + 1
        if n == NEAR_CAP_MENTION_LINE:
            lines.append(
                "- **Active scene**: the flow controller sets it after every additive load. See [scene-ownership.md](scene-ownership.md)."
            )
        elif n == NEAR_CAP_ENTRY_LINE:
            lines.append("- [scene-ownership.md](scene-ownership.md) — which scene owns which asset")
        else:
            lines.append(f"- **Note {n}**: lobby, matchmaking and match scenes load in this order.")
    write(root, f"{store}/MEMORY.md", "\n".join(lines) + "\n")
    write(root, f"{store}/scene-ownership.md", memory("scene-ownership", "Which scene owns which asset", "project"))


def link_less_indexes(root: Path) -> None:
    """Indexes that list their memories by file stem, without links: `- stem: text [type]`,
    in English and in Chinese."""
    write(
        root,
        "one/.memory/MEMORY.md",
        "# Memory Index\n\n- star_on_top_preference: User prefers a '*' line on top of new text files. [user]\n",
    )
    write(
        root,
        "one/.memory/star_on_top_preference.md",
        memory("star_on_top_preference", "User prefers a '*' line on top of new text files.", "user", "Put '*' first.\n"),
    )
    entries = {
        "code_comments": ("代码注释：只在复杂处写", "feedback"),
        "confirm_risky_steps": ("危险操作前先问用户", "feedback"),
        "language": ("用户偏好用中文交流", "user"),
    }
    write(root, "two/.memory/MEMORY.md", "# Memory Index\n\n" + "".join(f"- {stem}: {d} [{k}]\n" for stem, (d, k) in entries.items()))
    for stem, (description, kind) in entries.items():
        write(root, f"two/.memory/{stem}.md", memory(stem, description, kind, "细节。\n"))


def long_term_memory_beside_agents_md(root: Path) -> None:
    """A workspace whose MEMORY.md at the root is an agent's diary beside AGENTS.md, a
    memory/ folder of dated notes (no frontmatter, some with a BOM and Chinese names),
    and skills: a capitalised name, a name that is not the folder's, one that starts
    with a heading, and one whose examples hold placeholder keys."""
    write(
        root,
        "MEMORY.md",
        "# MEMORY.md - 我的长期记忆\n\n## 关于我\n- **名字：** 二号\n- **定位：** 正在进化的助手\n\n## 教训\n- 先读文件，再回答。\n",
    )
    write(root, "AGENTS.md", "# AGENTS.md\n\nEvery session: read MEMORY.md, then today's note in memory/.\n")
    write(root, "memory/2025-03-01.md", "# 2025-03-01\n\n- Set up the workspace.\n")
    write(root, "memory/README.md", "# memory/\n\nOne note per day.\n")
    write(root, "memory/learnings/2025-03-04-安全实践.md", "\ufeff# 安全实践\n\n- 不要把密钥写进笔记。\n".encode())
    write(root, "memory/learnings/2025-03-04-三层架构.md", "\ufeff# 三层架构\r\n\r\n- 文件、索引、技能。\r\n".encode())
    write(root, "skills/office/SKILL.md", _skill("Office", '"Spreadsheets, documents and slides: formulas, formatting, automation."'))
    write(
        root,
        "skills/agents-skill-security-audit/SKILL.md",
        _skill("security-audit", "Audit a skill before installing it (permissions, network, secrets)."),
    )
    write(
        root, "skills/multi-agent-roles/SKILL.md", "# Multi-Agent Roles - Designing a Team\n\n## Overview\n\nRoles, hand-offs, reviews.\n"
    )
    exchange = (
        '```python\nclient = Client(api_key="YOUR_API_KEY", api_secret="your_secret_key")\n```\n\n'
        "Or set `EXCHANGE_API_KEY=your_api_key_here` in the environment.\n"
    )
    write(
        root,
        "skills/exchange-pro/SKILL.md",
        _skill("exchange-pro", "Trade on an exchange through its API.", body=f"# Exchange\n\n{exchange}"),
    )


def dead_links_that_leave_the_store(root: Path) -> None:
    """An index with links to documentation outside the store that this checkout does
    not have; a CLAUDE.md with Windows-style backslash links; a skill that says
    `trigger:` for `triggers:`."""
    store = ".claude/memory"
    write(
        root,
        f"{store}/MEMORY.md",
        "# Memory\n\n- [Workflow](development_workflow.md) — branch, test, PR\n- [Sockets](socket_permissions.md) — who may emit what\n\nSee also [the docs](../docs/README.md) and [all docs](../../docs/).\n",
    )
    write(root, f"{store}/development_workflow.md", memory("development-workflow", "Branch, test, open a PR", "project"))
    write(root, f"{store}/socket_permissions.md", memory("socket-permissions", "Only the GM client emits world changes", "project"))
    claude = [
        "# CLAUDE.md",
        "",
        "A tabletop game system.",
        "",
        "## Where things are",
        "",
        *[f"- Folder {i}: described in its README." for i in range(1, 6)],
    ]
    claude += ["- **[.claude/memory/](\\.claude\\memory\\MEMORY.md)** → what sessions learned"]
    assert len(claude) == 12
    write(root, "CLAUDE.md", "\n".join(claude) + "\n")
    write(
        root, ".claude/skills/add-enemy/SKILL.md", _skill("add-enemy", "Guide a developer through adding an enemy", "trigger: /add-enemy\n")
    )


CODEX = 32 * 1024


def twin_guidance_and_skills(root: Path) -> None:
    """A monorepo: AGENTS.md in three packages, CLAUDE.md files that only point at
    them (an @import, or a symlink checked out as text), large enough files to cross
    Codex's budget in two packages, package scopes and path aliases in code, and skills
    with three different frontmatter mistakes."""
    write(root, "AGENTS.md", _sized("# Agents\n\nMonorepo: api/ (Python), web/ (TypeScript).\n\n", 18097, "root"))
    write(root, "CLAUDE.md", "# Instructions for Claude\n\nPlease read and follow all instructions in:\n\n@AGENTS.md\n")
    write(root, "api/AGENTS.md", _sized("# API\n\nFastAPI service.\n\n", 15079, "api"))
    if (root / ".git").is_dir():
        symlink_as_text(root, "api/CLAUDE.md", "AGENTS.md")
    else:  # an export: the link is a file holding its target
        write(root, "api/CLAUDE.md", "AGENTS.md")
    web_head = (
        '# Web\n\n```ts\nimport { Client } from "@acme/sdk";\nimport { Button } from "@/oss/components/Button";\n'
        'import type { Entity } from "@acme/entities/{shared,types}";\n```\n\nAliases: `@/oss/*` maps to `src/oss/*`.\n\n'
    )
    write(root, "web/AGENTS.md", _sized(web_head, 22518, "web"))
    write(root, "web/mobile/AGENTS.md", _sized("# Mobile\n\nReact Native app.\n\n", 4209, "mobile"))
    write(
        root,
        ".agents/skills/style-editing/SKILL.md",
        _skill(
            "style-editing",
            'Edit prose for clarity. Use when the user cites Williams, "Style: Lessons in Clarity and Grace," or asks for plain prose.',
        ),
    )
    write(root, ".agents/skills/write-announcement/SKILL.md", "# Write Announcements\n\nShort posts for LinkedIn, X and Slack.\n")
    write(root, ".agents/skills/plan-feature/SKILL.md", _skill("planner-feature", "Plan a feature and the files needed to continue it. "))
    write(root, ".agents/skills/review/SKILL.md", _skill("review", "Review a pull request against the house rules."))


def claude_md_beside_agents_md(root: Path) -> None:
    """Two hand-written sets of instructions in one folder."""
    write(root, "AGENTS.md", "# Agents\n\n- Python 3.12, uv.\n- Run `make test`.\n")
    write(root, "CLAUDE.md", "# CLAUDE.md\n\n- Python 3.11, pip.\n- Run `pytest -q`.\n- Ask before deleting files.\n")


def wiki_links_between_memories(root: Path) -> None:
    """Memories that link each other with [[stem]]: one to a memory that does not
    exist, one with hyphens where the file stem has underscores, one that is right."""
    store = ".claude/memory"
    names = ["project_settings_surface", "project_deck_order", "project_opponent_merge", "feedback_refresh_not_navigate_old"]
    write(root, f"{store}/MEMORY.md", "".join(f"- [{n}]({n}.md) — notes\n" for n in names))
    body = "\n".join(
        [*[f"Line {i}." for i in range(8, 13)], "Changing a setting re-renders the page (see [[feedback_refresh_not_navigate]]).", ""]
    )
    write(
        root,
        f"{store}/project_settings_surface.md",
        _memory_nested("project-settings-surface", "Where user-facing settings live", "project", "\n" + body),
    )
    merge_body = "\n".join([*[f"Line {i}." for i in range(8, 16)], "Follows [[project-deck-order]] for the draw pile.", ""])
    write(
        root,
        f"{store}/project_opponent_merge.md",
        _memory_nested("project-opponent-merge", "Pool only partial knowledge", "project", "\n" + merge_body),
    )
    write(
        root,
        f"{store}/project_deck_order.md",
        _memory_nested("deck-order", "How the deck is ordered", "project", "See [[project_opponent_merge]].\n"),
    )
    write(root, f"{store}/feedback_refresh_not_navigate_old.md", _memory_nested("refresh-old", "Superseded", "feedback"))


def links_broken_in_the_repository(root: Path) -> None:
    """A lowercase-s Agents.md deep in src/ whose sibling links resolve and whose link
    to a plan does not."""
    lines = ["# Atomic design", "", *[f"- Principle {i}: one component, one job." for i in range(1, 65)]]
    lines += ["- Sibling guides: [atoms](atoms/Agents.md).", "- Compliance roadmap: [Atomic plan](../Atomic.plan.md)."]
    assert lines[67].endswith("(../Atomic.plan.md).")
    write(root, "src/Agents.md", "\n".join(lines) + "\n")
    write(root, "src/atoms/Agents.md", "# Atoms\n\nSmallest parts.\n")


def commented_and_home_imports(root: Path) -> None:
    """A template CLAUDE.md with CRLF line endings, a Markdown comment that mentions
    @README, and an import from the user's home."""
    text = (
        "# CLAUDE.md\r\n[//]: # (See @README for the overview and @package.json for the npm scripts.)\r\n"
        "This file guides Claude Code in this repository.\r\n\r\n# Rules\r\n**IMPORTANT**\r\n"
        "Before any work, read the rules in @~/.agents/base.md.\r\n"
    )
    write(root, "CLAUDE.md", text.encode())


def mixed_shapes(root: Path) -> None:
    """Cursor rules with globs, a CLAUDE.md importing docs, a CLAUDE.md that is a real
    symlink to AGENTS.md, a memory file in Latin-1, an index with a BOM and CRLF,
    frontmatter in several styles (quoted, folded, lists, dates)."""
    write(
        root,
        ".cursor/rules/typescript.mdc",
        "---\ndescription: TypeScript conventions\nglobs: src/**/*.ts\nalwaysApply: false\n---\n\n- Prefer `type` over `interface`.\n",
    )
    write(root, ".cursor/rules/always.mdc", "---\ndescription:\nglobs:\nalwaysApply: true\n---\n\nAnswer in English.\n")
    write(root, ".cursor/rules/tests.mdc", "---\nglobs: tests/**/*.py, conftest.py\n---\n\nUse pytest fixtures.\n")
    write(root, "src/app.ts", "export {};\n")
    write(root, "tests/test_app.py", "def test_app():\n    assert app.answer() == 42\n")
    write(root, "conftest.py", "")
    write(root, "AGENTS.md", "# Agents\n\nSee @docs/architecture.md and @docs/testing.md.\n")
    write(root, "docs/architecture.md", "# Architecture\n\nThree layers.\n")
    write(root, "docs/testing.md", "# Testing\n\n`pytest -q`.\n")
    os.symlink("AGENTS.md", root / "CLAUDE.md")
    store = ".claude/memory"
    write(
        root,
        f"{store}/MEMORY.md",
        "\ufeff# Memory\r\n\r\n- [Prefs](user_prefs.md) — short answers\r\n- [Café](reference_cafe.md) — the menu\r\n- [Tests](feedback_tests.md) — run them first\r\n".encode(),
    )
    write(root, f"{store}/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    write(
        root,
        f"{store}/reference_cafe.md",
        "---\nname: cafe\ndescription: Le menu du café\ntype: reference\n---\n\nCrème brûlée.\n".encode("latin-1"),
    )
    write(
        root,
        f"{store}/feedback_tests.md",
        "---\nname: 'tests'\ndescription: >-\n  Run the tests\n  before a commit\ntype: \"feedback\"\ncreated: 2025-01-02\n---\n\nAlways.\n",
    )


TREES: dict[str, Tree] = {
    "curated-index-over-cap": curated_index_over_cap,
    "index-missing-recent-files": index_missing_recent_files,
    "subagent-stores": subagent_stores,
    "types-outside-the-taxonomy": types_outside_the_taxonomy,
    "index-near-cap-with-a-mention": index_near_cap_with_a_mention,
    "link-less-indexes": link_less_indexes,
    "long-term-memory-beside-agents-md": long_term_memory_beside_agents_md,
    "dead-links-that-leave-the-store": dead_links_that_leave_the_store,
    "twin-guidance-and-skills": twin_guidance_and_skills,
    "claude-md-beside-agents-md": claude_md_beside_agents_md,
    "wiki-links-between-memories": wiki_links_between_memories,
    "links-broken-in-the-repository": links_broken_in_the_repository,
    "commented-and-home-imports": commented_and_home_imports,
    "mixed-shapes": mixed_shapes,
}


def _build(tree: Tree, root: Path, in_git: bool = True) -> Path:
    root.mkdir(parents=True)
    if in_git:
        git(root, "-c", "init.defaultBranch=main", "init", "-q")
    tree(root)
    return root


@pytest.fixture
def build(tmp_path: Path) -> Callable[[Tree], Path]:
    def make(tree: Tree) -> Path:
        return _build(tree, tmp_path / tree.__name__)

    return make


def _found(problems: list[dict[str, Any]], prefixes: tuple[str, ...] = ("",)) -> set[tuple[str, str, int]]:
    return {(p["path"], p["code"], p["line"]) for p in problems if p["code"].startswith(prefixes)}


def _files(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.relative_to(root).parts}


# --- Every tree: no traceback, fix converges, context runs ----------------------------


@pytest.mark.parametrize("name", TREES)
def test_every_shape_runs_cleanly_and_fix_converges(name: str, build: Callable[[Tree], Path]) -> None:
    root = build(TREES[name])
    check_json(root)  # exit 0 or 1 as the errors say, nothing on stderr
    fixed = run_cli(root, "fix", "--format", "json")
    assert fixed.returncode in (0, 1) and fixed.stderr == "", fixed.stderr
    left = json.loads(fixed.stdout)["problems"]
    assert not [p for p in left if p["code"].startswith("IDX") and p["fixable"]]
    snapshot = _files(root)
    again = run_cli(root, "fix", "--format", "json")
    assert again.stderr == "" and json.loads(again.stdout)["fixed"] == []
    assert _files(root) == snapshot


@pytest.mark.parametrize("name", TREES)
def test_context_runs_on_every_shape(name: str, build: Callable[[Tree], Path]) -> None:
    proc = run_cli(build(TREES[name]), "context", ".", "--format", "json")
    assert proc.returncode in (0, 1) and proc.stderr == "", proc.stderr
    report = json.loads(proc.stdout)
    assert [a["agent"] for a in report["agents"]] == list(choices.AGENTS)
    assert report["total"]["tokens"] >= 0 and (proc.returncode == 1) == report["total"]["over"]


def test_every_shape_also_runs_outside_git(tmp_path: Path) -> None:
    # A folder that is no repository (an export, a copy): still no traceback.
    for name, tree in TREES.items():
        root = _build(tree, tmp_path / name, in_git=False)
        proc = run_cli(root, "check", "--format", "json")
        assert proc.returncode in (0, 1) and proc.stderr == "", (name, proc.stderr)
        problems = json.loads(proc.stdout)["problems"]
        assert (proc.returncode == 1) == any(p["severity"] == "error" for p in problems), name


# --- Memory stores and indexes ----------------------------------------------------------


def test_curated_index_dead_links_escape_and_line_cap(build: Callable[[Tree], Path]) -> None:
    root = build(curated_index_over_cap)
    problems = check_json(root)
    index = ".claude/memory/MEMORY.md"
    found = _found(problems)
    assert (index, "IDX002", 7) in found and (index, "IDX002", 8) in found  # the User entries' files are gone
    assert (index, "IDX005", 4) in found  # ../../../plans/INDEX.md climbs above the repository
    (cap,) = [p for p in problems if p["code"] == "IDX007"]
    assert cap["path"] == index and cap["line"] == 201 and "215 lines" in cap["message"]
    assert unlisted(root, index) == set(CURATED_UNLISTED)
    text = (root / index).read_text()
    targets = [line.split("](", 1)[1].split(")", 1)[0] for line in text.splitlines() if line.startswith("- [")]
    gone = [t for t in targets if not t.startswith("..") and not (root / ".claude/memory" / t).exists()]
    assert len([p for p in problems if p["code"] == "IDX002"]) == len(gone) == len(targets) - 1 - len(CURATED_LIVE)


def test_fix_on_a_curated_index_says_what_it_did_and_puts_entries_in_their_sections(build: Callable[[Tree], Path]) -> None:
    root = build(curated_index_over_cap)
    index = ".claude/memory/MEMORY.md"
    before = (root / index).read_text().splitlines()
    dead = len([p for p in check_json(root) if p["code"] == "IDX002"])
    proc = run_cli(root, "fix", "--format", "json")
    assert proc.stderr == ""
    changes = json.loads(proc.stdout)["changes"][index]
    assert (len(changes["added"]), len(changes["repointed"]), len(changes["removed"]), changes["past_cap"]) == (3, 0, dead, [])
    text = (root / index).read_text()
    # Both User entries were dead: the new user memory is now the section's first line.
    assert "(user_design_philosophy.md)" in text.split("## User\n", 1)[1].split("\n", 1)[0]
    assert text.index("(feedback_bento_grid.md)") > text.index("## Feedback\n")
    assert "\n## Project\n- [Mega session final state" in text  # no Project section yet: one is added
    assert before[3] in text.splitlines()  # a link that leaves the store is never removed
    assert all(f"({name})" in text for name in CURATED_LIVE)
    assert len(text.splitlines()) < 200
    assert [p for p in check_json(root) if p["code"] in ("IDX002", "IDX003", "IDX007")] == []


def test_context_names_the_index_entries_past_the_cap(build: Callable[[Tree], Path]) -> None:
    root = build(curated_index_over_cap)
    lines = (root / ".claude/memory/MEMORY.md").read_text().splitlines()
    proc = run_cli(root, "context", "src/x.ts", "--format", "json")
    assert proc.stderr == ""
    report = json.loads(proc.stdout)
    (index,) = report["indexes"]
    assert (index["lines"], index["loaded_lines"]) == (215, 200)
    first_lost = lines[200].split("](", 1)[1].split(")", 1)[0]
    assert index["past_cap"][0] == first_lost
    assert CURATED_LIVE[1] in index["past_cap"] and CURATED_LIVE[0] not in index["past_cap"]
    by_agent = {a["agent"]: [f["file"] for f in a["files"]] for a in report["agents"]}
    assert by_agent["claude-code"] == ["CLAUDE.md"] and by_agent["codex"] == ["AGENTS.md"]


def test_files_missing_from_a_hand_kept_index_are_named(build: Callable[[Tree], Path]) -> None:
    root = build(index_missing_recent_files)
    assert sorted(unlisted(root, ".claude/memory/MEMORY.md")) == YOUTUBE_UNLISTED


def test_subagent_entries_in_the_parent_index_and_a_value_cut_by_a_comment(build: Callable[[Tree], Path]) -> None:
    problems = check_json(build(subagent_stores))
    found = _found(problems)
    assert (".claude/agent-memory/infra-engineer/MEMORY.md", "IDX001", 1) in found
    # The parent's MEMORY.md is that agent's index in the wrong folder, linking its files through the folder's name.
    (missing,) = [p for p in problems if p["code"] == "IDX001"]
    assert not missing["fixable"]
    assert missing["message"].endswith(
        "move it there: `git mv .claude/agent-memory/MEMORY.md .claude/agent-memory/infra-engineer/MEMORY.md`, then make its links name the files beside it"
    )
    assert (".claude/agent-memory/bridge-architect/bridge-host-impl.md", "MEM019", 3) in found
    assert not [f for f in found if f[0].startswith(".claude/agent-memory/bridge-architect/") and f[1] != "MEM019"]


def test_types_nested_under_metadata_are_checked_against_the_taxonomy(build: Callable[[Tree], Path]) -> None:
    found = _found(check_json(build(types_outside_the_taxonomy)))
    assert found == {("memory/ct116_cloudflare_tunnel.md", "MEM007", 4), ("memory/proxmox_cluster.md", "MEM007", 4)}


def test_a_mention_mid_sentence_is_no_second_entry_and_the_near_cap_warning(build: Callable[[Tree], Path]) -> None:
    root = build(index_near_cap_with_a_mention)
    problems = check_json(root)
    assert not [p for p in problems if p["code"] == "IDX004"]
    assert (".claude/memory/MEMORY.md", "IDX009", 1) in _found(problems)
    assert not [p for p in problems if p["code"] in ("IDX003", "IDX007")]


def test_link_less_index_counts_file_stems_as_listed(build: Callable[[Tree], Path]) -> None:
    root = build(link_less_indexes)
    assert check_json(root / "one", ".memory") == []
    assert not [p for p in check_json(root / "two", ".memory") if p["code"].startswith("IDX")]
    # Not vacuous: a memory the index does not name is reported.
    write(root, "two/.memory/new_note.md", memory("new_note", "A fresh note", "project"))
    assert [p["message"].split()[2] for p in check_json(root / "two", ".memory") if p["code"] == "IDX003"] == ["new_note.md"]


def test_memory_md_beside_ordinary_documents_is_not_a_store(build: Callable[[Tree], Path]) -> None:
    problems = check_json(build(long_term_memory_beside_agents_md))
    assert not [p for p in problems if p["code"].startswith(("MEM", "IDX"))]


def test_fix_keeps_dead_links_to_what_is_not_a_memory_file(build: Callable[[Tree], Path]) -> None:
    root = build(dead_links_that_leave_the_store)
    before = _files(root)
    proc = run_cli(root, "fix", "--format", "json")
    assert proc.stderr == ""
    report = json.loads(proc.stdout)
    assert report["fixed"] == [] and _files(root) == before
    dead = [p for p in report["problems"] if p["code"] == "IDX002"]
    assert sorted(p["message"].split("'")[1] for p in dead) == ["../../docs/", "../docs/README.md"]
    assert not any(p["fixable"] for p in dead)


def test_dead_wiki_links_between_memories(build: Callable[[Tree], Path]) -> None:
    root = build(wiki_links_between_memories)
    found = {(p["path"], p["line"]) for p in check_json(root) if p["code"] == "MEM021"}
    store = ".claude/memory"

    def line_of(name: str, text: str) -> int:
        return next(n for n, line in enumerate((root / store / name).read_text().splitlines(), 1) if text in line)

    settings = (f"{store}/project_settings_surface.md", line_of("project_settings_surface.md", "[[feedback_refresh_not_navigate]]"))
    merge = (f"{store}/project_opponent_merge.md", line_of("project_opponent_merge.md", "[[project-deck-order]]"))
    assert found == {settings, merge}  # no such memory; hyphens for the stem's underscores
    assert not [f for f in found if f[0] == f"{store}/project_deck_order.md"]  # [[project_opponent_merge]] is right


# --- Guidance files, skills and secrets --------------------------------------------------


def test_twin_guidance_files_imports_and_skills(build: Callable[[Tree], Path]) -> None:
    found = _found(check_json(build(twin_guidance_and_skills)), ("GDN", "SKL", "SEC"))
    # api/CLAUDE.md is a link to AGENTS.md (checked out as text); the root CLAUDE.md
    # imports @AGENTS.md: neither is shadowed, neither drifts.
    assert not [f for f in found if f[1] in ("GDN001", "GDN015")]
    assert (".agents/skills/style-editing/SKILL.md", "SKL003", 3) in found  # ": " inside a plain description
    assert (".agents/skills/write-announcement/SKILL.md", "SKL002", 1) in found
    assert (".agents/skills/plan-feature/SKILL.md", "SKL005", 2) in found  # name planner-feature
    assert not [f for f in found if f[0].startswith(".agents/skills/review/")]
    # package scopes and path aliases in code are no imports
    assert not [f for f in found if f[0] == "web/AGENTS.md" and f[1] in ("GDN009", "GDN010")]


def test_a_text_link_outside_git_is_not_called_drift(tmp_path: Path) -> None:
    # Outside git nothing tells a checked-out link from a file holding "AGENTS.md".
    root = tmp_path / "export"
    root.mkdir()
    write(root, "api/AGENTS.md", "# API\n\nFastAPI service; run `pytest`.\n")
    write(root, "api/CLAUDE.md", "AGENTS.md")
    proc = run_cli(root, "check", "--format", "json")
    assert proc.stderr == ""
    assert not [p for p in json.loads(proc.stdout)["problems"] if p["code"] in ("GDN001", "GDN015")]


def test_claude_md_beside_agents_md_is_drift_not_a_shadowed_file(build: Callable[[Tree], Path]) -> None:
    problems = [p for p in check_json(build(claude_md_beside_agents_md)) if p["code"] in ("GDN001", "GDN015")]
    assert [(p["path"], p["line"], p["code"]) for p in problems] == [("CLAUDE.md", 1, "GDN015")]
    message = problems[0]["message"]
    assert "Claude Code reads CLAUDE.md and not AGENTS.md" in message and "Codex, Amp and Cline read AGENTS.md and not CLAUDE.md" in message
    assert "Cursor" not in message and "Copilot" not in message


def test_codex_budget_is_crossed_in_two_packages(build: Callable[[Tree], Path]) -> None:
    root = build(twin_guidance_and_skills)
    budget = {p["path"]: p["message"] for p in check_json(root) if p["code"] == "GDN016"}
    assert set(budget) == {"api/AGENTS.md", "web/AGENTS.md"}
    left = CODEX - (root / "AGENTS.md").stat().st_size
    assert f"Codex keeps the first {left:,} bytes of AGENTS.md" in budget["api/AGENTS.md"]
    assert "it never reads web/mobile/AGENTS.md below it" in budget["web/AGENTS.md"]


def test_skill_names(build: Callable[[Tree], Path]) -> None:
    found = _found(check_json(build(long_term_memory_beside_agents_md)), ("SKL",))
    assert ("skills/office/SKILL.md", "SKL004", 2) in found  # name: Office
    assert ("skills/agents-skill-security-audit/SKILL.md", "SKL005", 2) in found  # name: security-audit
    assert ("skills/multi-agent-roles/SKILL.md", "SKL002", 1) in found  # starts with a heading
    assert not [f for f in found if f[0] == "skills/exchange-pro/SKILL.md"]


def test_placeholders_are_no_secrets_but_a_real_key_is(build: Callable[[Tree], Path]) -> None:
    roots = [build(tree) for tree in TREES.values()]
    for root in roots:
        assert not [p for p in check_json(root) if p["code"].startswith("SEC")], root.name
    # Not vacuous: the same skill with a real-looking key is reported.
    root = roots[list(TREES).index("long-term-memory-beside-agents-md")]
    skill = root / "skills/exchange-pro/SKILL.md"
    skill.write_text(skill.read_text().replace("YOUR_API_KEY", "AKIA" + "Q3EGRJ7LZ5XUWM2D"))
    assert [p["path"] for p in check_json(root) if p["code"].startswith("SEC")] == ["skills/exchange-pro/SKILL.md"]


def test_links_that_are_broken_in_the_repository_too(build: Callable[[Tree], Path]) -> None:
    found = _found(check_json(build(links_broken_in_the_repository)), ("GDN",))
    assert found == {("src/Agents.md", "GDN013", 68)}  # ../Atomic.plan.md; atoms/Agents.md resolves
    curated = _found(check_json(build(curated_index_over_cap)), ("GDN013",))
    assert ("CLAUDE.md", "GDN013", 25) in curated  # ../docs/logos/telos.md climbs out of the root
    problems = check_json(build(dead_links_that_leave_the_store))
    backslash = [(p["line"], p["message"]) for p in problems if p["code"] == "GDN013"]
    assert any(line == 12 and "not '\\'" in message for line, message in backslash)


def test_commented_out_and_home_imports_are_not_checked(build: Callable[[Tree], Path]) -> None:
    root = build(commented_and_home_imports)
    assert not [p for p in check_json(root) if p["path"] == "CLAUDE.md"]
    # Not vacuous: the same mention outside the comment is an import that is checked.
    (root / "CLAUDE.md").write_bytes((root / "CLAUDE.md").read_bytes() + b"See @docs/overview.md for the overview.\r\n")
    assert [p["code"] for p in check_json(root) if p["path"] == "CLAUDE.md"] == ["GDN009"]


def test_trigger_typo_gets_a_hint(build: Callable[[Tree], Path]) -> None:
    (p,) = [p for p in check_json(build(dead_links_that_leave_the_store)) if p["code"] == "SKL010"]
    assert p["path"] == ".claude/skills/add-enemy/SKILL.md" and "misspelling of 'triggers'" in p["message"]


def test_mixed_shapes_findings(build: Callable[[Tree], Path]) -> None:
    root = build(mixed_shapes)
    problems = check_json(root)
    found = _found(problems)
    assert (".claude/memory/reference_cafe.md", "MEM001", 3) in found  # Latin-1: "café" on line 3 is no UTF-8
    encoding = [p for p in problems if p["code"] == "IDX010"]
    assert [p["path"] for p in encoding] == [".claude/memory/MEMORY.md"]
    assert not [f for f in found if f[0].startswith((".cursor/", "docs/")) or f[0] in ("AGENTS.md", "CLAUDE.md")]
    assert not [f for f in found if f[0] == ".claude/memory/feedback_tests.md"]  # quoted, folded, lists, dates: all fine
    # fix rewrites the index as UTF-8 with LF and no BOM
    run_cli(root, "fix")
    data = (root / ".claude/memory/MEMORY.md").read_bytes()
    assert not data.startswith(b"\xef\xbb\xbf") and b"\r" not in data
    # a Cursor rule's glob that matches nothing is reported once the files are gone
    shutil.rmtree(root / "src")
    assert (".cursor/rules/typescript.mdc", "GDN008") in {(p["path"], p["code"]) for p in check_json(root)}
