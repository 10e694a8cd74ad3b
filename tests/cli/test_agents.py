"""Who reads which guidance file (GDN001, GDN015), each agent's limits (GDN012, GDN016,
GDN017) and the new file kinds, through the real CLI: `memcheck context`, git's view of
a file, symlinks, the paths given. The facts behind each case are in the team's agent
reference; the model is memcheck.agents. Each rule's own cases are in
tests/unit/rules/test_gdn0*.py."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import check_json, git, invoke, run_cli, symlink_as_text, write
from hypothesis import given, settings
from hypothesis import strategies as st

from memcheck import agents, config
from memcheck.agents import expansion, readers
from memcheck.workspace.discover import Workspace
from memcheck.workspace.disk import DiskSource


def _by(problems: list[dict[str, Any]], code: str) -> dict[str, str]:
    return {str(p["path"]): str(p["message"]) for p in problems if p["code"] == code}


def _reads(root: Path, path: str, agent: str) -> list[tuple[str, bool | None]]:
    proc = run_cli(root, "context", path, "--agent", agent, "--format", "json")
    assert proc.stderr == "", proc.stderr
    (section,) = json.loads(proc.stdout)["agents"]
    return [(f["file"], f["loaded"]) for f in section["files"]]


# ---------------------------------------------------------------- AGENTS.md beside CLAUDE.md

BOTH = {"AGENTS.md": "# Rules\n\nRun pytest.\n"}


@pytest.mark.parametrize(
    ("agent", "expected"),
    [
        pytest.param("claude-code", [("CLAUDE.md", True)], id="claude-code-reads-CLAUDE.md-only"),
        pytest.param("codex", [("AGENTS.md", True)], id="codex-reads-AGENTS.md"),
        pytest.param("amp", [("AGENTS.md", True)], id="amp-reads-AGENTS.md-not-its-fallback"),
        pytest.param("cursor", [("AGENTS.md", True), ("CLAUDE.md", None)], id="cursor-AGENTS.md-CLAUDE.md-unconfirmed"),
        pytest.param("copilot", [("AGENTS.md", True), ("CLAUDE.md", None)], id="copilot-AGENTS.md-root-CLAUDE.md-unconfirmed"),
        pytest.param("gemini", [], id="gemini-reads-neither"),
    ],
)
def test_each_agent_reading_a_folder_with_both(repo: Path, agent: str, expected: list[tuple[str, bool | None]]) -> None:
    write(repo, "AGENTS.md", "# Rules\n")
    write(repo, "CLAUDE.md", "# Claude\n")
    assert _reads(repo, "src/x.py", agent) == expected


@pytest.mark.parametrize(
    ("claude_file", "working_on", "expected"),
    [
        # Claude Code 2.1.277+ reads AGENTS.md only in a session with no CLAUDE.md,
        # .claude/CLAUDE.md or CLAUDE.local.md from the root down to the working
        # folder: one there leaves every AGENTS.md of the walk aside, above it too.
        pytest.param("a/b/CLAUDE.md", "a/b/x.py", [("a/b/CLAUDE.md", True)], id="CLAUDE.md-in-the-working-folder"),
        pytest.param(
            "a/b/.claude/CLAUDE.md", "a/b/x.py", [("a/b/.claude/CLAUDE.md", True)], id="dot-claude-CLAUDE.md-in-the-working-folder"
        ),
        pytest.param("a/CLAUDE.local.md", "a/b/x.py", [("a/CLAUDE.local.md", True)], id="CLAUDE.local.md-between"),
        pytest.param("a/b/CLAUDE.md", "a/x.py", [("AGENTS.md", True), ("a/AGENTS.md", True)], id="CLAUDE.md-below-the-working-folder"),
    ],
)
def test_claude_code_leaves_every_agents_md_aside_when_a_claude_md_is_on_the_way_down(
    repo: Path, claude_file: str, working_on: str, expected: list[tuple[str, bool | None]]
) -> None:
    write(repo, "AGENTS.md", "# Rules\n")
    write(repo, "a/AGENTS.md", "# Package rules\n")
    write(repo, claude_file, "# Claude\n")
    git(repo, "add", "-f", claude_file)
    assert [(f, loaded) for f, loaded in _reads(repo, working_on, "claude-code") if loaded is not False] == expected


def test_symlink_checked_out_as_text_is_one_instruction_set(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Rules\n\nRun pytest.\n")
    symlink_as_text(repo, "CLAUDE.md", "AGENTS.md")  # git's index says 120000: a link
    assert not [p for p in check_json(repo) if p["code"] in ("GDN001", "GDN015")]
    assert _reads(repo, ".", "claude-code") == [("CLAUDE.md", True)]


def test_a_file_that_only_says_agents_md_is_its_own_text(repo: Path) -> None:
    # Committed as a regular file (mode 100644): Claude Code reads the literal 9 bytes.
    write(repo, "AGENTS.md", "long instructions here\n")
    write(repo, "CLAUDE.md", "AGENTS.md")
    git(repo, "add", "-A")
    message = _by(check_json(repo), "GDN015")["CLAUDE.md"]
    assert message.startswith("CLAUDE.md and AGENTS.md differ: Claude Code reads CLAUDE.md and not AGENTS.md")
    proc = run_cli(repo, "context", ".", "--agent", "claude-code")
    assert "  project  CLAUDE.md  9 bytes" in proc.stdout and "a symlink" not in proc.stdout
    # Outside git (an export, an unpacked archive) nothing tells text from a link: the
    # corpus's copies of Agenta's six CLAUDE.md files are such files, and git records
    # each as a link. memcheck claims neither drift nor a link.
    (repo / ".git").rename(repo / "not-git")
    assert "CLAUDE.md" not in _by(check_json(repo), "GDN015")
    proc = run_cli(repo, "context", ".", "--agent", "claude-code")
    assert "a symlink to" not in proc.stdout
    assert (
        "it holds just 'AGENTS.md': a symlink checked out as text, or that text; outside a git repository memcheck cannot tell which"
        in proc.stdout
    )


def test_symlinked_twin_is_not_drift(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Rules\n")
    (repo / "CLAUDE.md").symlink_to("AGENTS.md")
    assert check_json(repo) == []


def test_override_beside_agents_md_hides_it_from_codex(repo: Path) -> None:
    write(repo, "AGENTS.md", "# Shared\n")
    write(repo, "AGENTS.override.md", "# Codex only\n")
    message = _by(check_json(repo), "GDN015")["AGENTS.override.md"]
    assert "Codex reads AGENTS.override.md and not AGENTS.md, while Amp" in message
    # an override exists to differ: never advise making it a symlink to what it overrides
    assert (
        "symlink" not in message
        and "if Codex should follow AGENTS.md too, delete AGENTS.override.md or copy what Codex needs into AGENTS.override.md" in message
    )
    assert _reads(repo, ".", "codex") == [("AGENTS.override.md", True), ("AGENTS.md", False)]


# ---------------------------------------------------------------- Codex's 32 KiB


def _sized(head: str, size: int) -> str:
    """Markdown of exactly ``size`` bytes, 100-byte lines."""
    body = "".join(("x" * 99 + "\n") for _ in range(size // 100))
    text = head + body
    return (text + "y" * (size - len(text)))[:size]


def test_codex_budget_reads_a_symlink_through_its_file(repo: Path) -> None:
    write(repo, "CLAUDE.md", _sized("# Root\n", 40_000))
    symlink_as_text(repo, "AGENTS.md", "CLAUDE.md")  # a symlink, as git checks it out without symlink support
    write(repo, "a/AGENTS.md", "# A\n")
    (p,) = [p for p in check_json(repo) if p["code"] == "GDN016"]
    assert (p["path"], p["line"]) == ("CLAUDE.md", 329)  # the file the symlink is
    assert "Codex keeps the first 32,768 bytes of AGENTS.md" in p["message"] and "it never reads a/AGENTS.md below it" in p["message"]
    assert [(f, loaded) for f, loaded in _reads(repo, "a", "codex")] == [("AGENTS.md", True), ("a/AGENTS.md", False)]


def test_codex_budget_through_click_runner(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "AGENTS.md", _sized("# Root\n", 40_000))
    write(repo, "a/AGENTS.md", "# A\n")
    result = invoke(repo, "check", monkeypatch=monkeypatch)
    assert result.exit_code == 1
    assert (
        "AGENTS.md:329:1: GDN016 Codex reads at most 32,768 bytes" in result.output
        and "it never reads a/AGENTS.md below it" in result.output
    )


# ---------------------------------------------------------------- import depth per agent


# ---------------------------------------------------------------- the file kinds


def test_new_kinds_are_found_by_a_hook_run_on_them(repo: Path) -> None:
    write(repo, ".cursor/rules/ts.mdc", "---\nglobs: ['*.rs']\n---\nx\n")
    write(repo, "src/app.py", "pass\n")  # a project with code (see GDN008)
    write(repo, "AGENTS.md", "@gone.md\n")
    found = {(p["path"], p["code"]) for p in check_json(repo, ".cursor/rules/ts.mdc")}
    assert found == {(".cursor/rules/ts.mdc", "GDN008")}


def test_model_facts_are_the_reference_s() -> None:
    # The limits the messages quote, as the agent reference gives them.
    assert readers.codex_budget() == 32 * 1024 and agents.number(agents.COPILOT, "review_chars") == 4000
    assert agents.agent(agents.CLAUDE_CODE).import_depth == 4 and agents.agent(agents.GEMINI).import_depth == 5
    assert agents.agent(agents.CODEX).follows_imports == agents.NO and agents.agent(agents.AMP).import_depth is None
    from memcheck.config import schema

    assert tuple(schema()["properties"]["agents"]["items"]["enum"]) == agents.ALL


def test_config_agents_are_validated(repo: Path) -> None:
    write(repo, ".memcheck.yaml", "agents: [claude-code, windsurf]\n")
    proc = run_cli(repo, "check")
    assert proc.returncode == 2 and "agents.1: 'windsurf' is not one of" in proc.stderr
    write(repo, ".memcheck.yaml", "agents: []\n")
    proc = run_cli(repo, "check")
    assert proc.returncode == 2 and "agents: needs at least 1 item" in proc.stderr


# ---------------------------------------------------------------- every claim true (the second audit)


def _section(root: Path, path: str, agent: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    proc = run_cli(root, "context", path, "--agent", agent, "--format", "json", env=env)
    assert proc.stderr == "", proc.stderr
    (section,) = json.loads(proc.stdout)["agents"]
    return proc.returncode, section


def test_claude_md_over_4_mib_is_read_by_no_claude_code_claim(repo: Path) -> None:
    # [CCM] Claude Code skips a CLAUDE.md over 4 MiB: neither check nor context says it reads it.
    write(repo, "CLAUDE.md", "x" * (4 * 1024 * 1024 + 10))
    write(repo, "AGENTS.md", "agents\n")
    problems = check_json(repo)
    assert {p["code"] for p in problems if p["path"] == "CLAUDE.md"} == {"GDN003"}  # no drift claimed
    code, section = _section(repo, ".", "claude-code")
    (entry,) = section["files"]
    assert code == 0 and entry["loaded"] is False and entry["reason"] == "Claude Code skips a CLAUDE.md over 4 MiB"
    assert entry["bytes"] == 4 * 1024 * 1024 + 10 and section["tokens"] == 0
    write(repo, ".memcheck.yaml", "agents: [claude-code]\n")
    assert (
        _by(check_json(repo), "GDN001")["CLAUDE.md"]
        == "no configured agent reads CLAUDE.md: Claude Code skips a CLAUDE.md over 4 MiB; shorten it below 4 MiB"
    )


def test_sizes_past_memcheck_s_read_cap_are_the_file_s_own(repo: Path) -> None:
    write(repo, "AGENTS.md", "".join("x" * 99 + "\n" for _ in range(12_000)))  # 1,200,000 bytes
    (p,) = [p for p in check_json(repo) if p["code"] == "GDN016"]
    # Codex keeps 32,768 bytes: 327 lines of 100 bytes, and 68 bytes of line 328
    assert (p["line"], p["message"]) == (
        328,
        (
            "Codex reads at most 32,768 bytes of AGENTS.md text from the root down, and here it comes to 1,200,000 bytes: "
            "Codex keeps the first 32,768 bytes of AGENTS.md and cuts it from line 328 on; shorten the files on the way down"
        ),
    )
    _, section = _section(repo, ".", "codex")
    assert (
        section["files"][0]["bytes"] == 1_200_000
        and section["files"][0]["reason"] == "Codex keeps 32,768 of its 1,200,000 bytes (32,768-byte project budget)"
    )


def test_claude_md_excludes_never_turn_agents_md_into_a_claude_file(repo: Path) -> None:
    write(repo, "CLAUDE.md", "root\n")
    write(repo, "AGENTS.md", "agents\n")
    write(repo, ".claude/settings.json", '{"claudeMdExcludes": ["**/sub/CLAUDE.md"]}\n')
    _, section = _section(repo, ".", "claude-code")
    assert [(f["file"], f["loaded"], f["reason"]) for f in section["files"]] == [
        ("CLAUDE.md", None, "this repository's .claude/settings.json sets claudeMdExcludes, which may exclude it")
    ]


@pytest.mark.parametrize(
    ("files", "path", "agent", "expected"),
    [
        pytest.param(
            {
                "AGENTS.md": "root\n",
                "sub/AGENTS.md": "sub\n",
                "sub/CLAUDE.md": "claude\n",
                ".codex/config.toml": 'project_doc_fallback_filenames = ["CLAUDE.md"]\n',
            },
            "sub",
            "codex",
            [("AGENTS.md", True, "one file per folder, root first"), ("sub/AGENTS.md", True, "one file per folder, root first")],
            id="fallbacks-come-after-AGENTS.md",
        ),
        pytest.param(
            {"AGENTS.md": "root\n", "sub/CLAUDE.md": "claude\n", ".codex/config.toml": 'project_doc_fallback_filenames = ["CLAUDE.md"]\n'},
            "sub",
            "codex",
            [
                ("AGENTS.md", True, "one file per folder, root first"),
                (
                    "sub/CLAUDE.md",
                    None,
                    "this repository's .codex/config.toml sets project_doc_fallback_filenames: Codex may read it in a folder without AGENTS.md",
                ),
            ],
            id="fallback-in-a-folder-without-AGENTS.md",
        ),
        pytest.param(
            {"agents.md": "lower\n", "CLAUDE.md": "claude\n"},
            ".",
            "amp",
            [
                (
                    "agents.md",
                    None,
                    "Amp looks for AGENTS.md: a case-insensitive file system (macOS, Windows) finds agents.md by that name, others do not",
                ),
                (
                    "CLAUDE.md",
                    None,
                    "agents.md is here, which a case-insensitive file system finds as AGENTS.md, and Amp reads CLAUDE.md only in a folder without one",
                ),
            ],
            id="amp-case-variant-not-AGENT.md",
        ),
    ],
)
def test_unconfirmed_entries_give_their_real_reason(
    repo: Path, files: dict[str, str], path: str, agent: str, expected: list[tuple[str, Any, str]]
) -> None:
    for name, text in files.items():
        write(repo, name, text)
    _, section = _section(repo, path, agent)
    assert [(f["file"], f["loaded"], f["reason"]) for f in section["files"]] == expected


@pytest.mark.parametrize(
    ("exclude", "others"),
    [
        pytest.param("", "Copilot chat and the coding agent read it all", id="no-excludeAgent"),
        pytest.param(
            "excludeAgent: coding-agent\n",
            "Copilot chat reads it all; excludeAgent keeps it from the coding agent",
            id="coding-agent-excluded",
        ),
        pytest.param("excludeAgent: cloud-agent\n", "Copilot chat reads it all", id="cloud-agent-unconfirmed"),
    ],
)
def test_copilot_review_limit_names_only_who_reads_the_rest(repo: Path, exclude: str, others: str) -> None:
    write(repo, "src/a.py", "pass\n")
    write(repo, ".github/instructions/all.instructions.md", f"---\napplyTo: '**'\n{exclude}---\n" + "x" * 5000 + "\n")
    write(repo, ".memcheck.yaml", "select: [ALL, GDN017]\n")  # opt-in: the limit is not confirmed today
    (p,) = [p for p in check_json(repo) if p["code"] == "GDN017"]
    assert f"review may not see it ({others}); put" in p["message"]
    _, section = _section(repo, "src/a.py", "copilot")
    assert any(f"; {others})" in note for note in section["files"][0]["notes"])


def test_context_says_nothing_of_review_for_a_file_excluded_from_it(repo: Path) -> None:
    write(repo, "src/a.py", "pass\n")
    write(repo, ".github/instructions/all.instructions.md", "---\napplyTo: '**'\nexcludeAgent: code-review\n---\n" + "x" * 5000 + "\n")
    assert not [p for p in check_json(repo) if p["code"] == "GDN017"]
    _, section = _section(repo, "src/a.py", "copilot")
    assert section["files"][0]["notes"] == []


@pytest.mark.parametrize(
    ("blank", "size"),
    [
        pytest.param("", 0, id="empty"),
        pytest.param("   \n\n\t\n", 7, id="whitespace"),
    ],
)
def test_codex_skips_blank_files_in_context_too(repo: Path, blank: str, size: int) -> None:
    write(repo, "AGENTS.md", _sized("# Root\n", 20_000))
    write(repo, "a/AGENTS.md", blank)
    write(repo, "a/b/AGENTS.md", _sized("# B\n", 12_768))
    assert not [p for p in check_json(repo) if p["code"] == "GDN016"]  # 20,000 + 12,768 fit exactly
    _, section = _section(repo, "a/b", "codex")
    root, a, b = section["files"]
    assert (a["bytes"], a["loaded"], a["kept_bytes"], a["reason"]) == (size, False, 0, "blank: Codex skips a file with no text")
    assert (b["loaded"], b["kept_bytes"]) == (True, 12_768) and section["tokens"] == (20_000 + 3) // 4 + 12_768 // 4


def test_an_empty_override_hides_agents_md_and_gives_codex_nothing(repo: Path) -> None:
    write(repo, "AGENTS.override.md", "")
    write(repo, "AGENTS.md", "use make\n")
    _, section = _section(repo, ".", "codex")
    assert [(f["file"], f["loaded"], f["reason"]) for f in section["files"]] == [
        ("AGENTS.override.md", False, "blank: Codex skips a file with no text; as an override it still hides this folder's AGENTS.md"),
        ("AGENTS.md", False, "Codex reads that folder's AGENTS.override.md instead"),
    ]
    assert section["tokens"] == 0
    assert "(AGENTS.override.md is blank: Codex gets nothing from this folder)" in _by(check_json(repo), "GDN015")["AGENTS.override.md"]


def test_codex_skips_a_cut_that_is_blank_without_spending_the_budget(repo: Path) -> None:
    # [CXS] the part of a/AGENTS.md that fits is "\n\n": blank, so skipped, and the 2
    # bytes still left go to a/b/AGENTS.md.
    write(repo, "AGENTS.md", _sized("# Root\n", 32_766))
    write(repo, "a/AGENTS.md", "\n\n" + "y" * 100 + "\n")
    write(repo, "a/b/AGENTS.md", "hi\n")
    found = {p["path"]: p["message"] for p in check_json(repo) if p["code"] == "GDN016"}
    assert found["a/AGENTS.md"].endswith(
        "plus 103 of its own: the 2 bytes of AGENTS.md that fit are blank, so Codex skips the whole file and goes on with them left for the files below; shorten the files on the way down"
    )
    assert "Codex keeps the first 2 bytes of AGENTS.md and cuts it from line 1 on" in found["a/b/AGENTS.md"]
    _, section = _section(repo, "a/b", "codex")
    _, a, b = section["files"]
    assert (a["loaded"], a["kept_bytes"]) == (False, 0) and "are blank, so Codex skips the whole file" in a["reason"]
    assert (b["cut"], b["kept_bytes"]) == (True, 2)


@pytest.mark.parametrize(
    ("files", "loaded", "reason"),
    [
        pytest.param({"CLAUDE.md": "c\n"}, True, "the coding agent reads one CLAUDE.md or GEMINI.md at the root", id="no-AGENTS.md"),
        pytest.param(
            {"CLAUDE.md": "c\n", "sub/AGENTS.md": "a\n"},
            None,
            "the coding agent reads AGENTS.md, or one CLAUDE.md or GEMINI.md at the root: whether it reads this one in a repository with AGENTS.md is unconfirmed",
            id="AGENTS.md-elsewhere",
        ),
    ],
)
def test_copilot_root_claude_md_claims_no_inferred_condition(repo: Path, files: dict[str, str], loaded: Any, reason: str) -> None:
    for name, text in files.items():
        write(repo, name, text)
    _, section = _section(repo, ".", "copilot")
    assert [(f["file"], f["loaded"], f["reason"]) for f in section["files"]] == [("CLAUDE.md", loaded, reason)]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        pytest.param(
            "---\nalwaysapply: true\nglob: '*.py'\n---\ntypos\n", "none of alwaysApply, globs, description", id="only-misspelt-keys"
        ),
        pytest.param(
            "---\ndescription: TS\nglobs: *.ts\nalwaysApply: false\n---\nts\n",
            "alwaysApply: false, globs: *.ts, description: TS",
            id="as-cursor-writes-them",
        ),
    ],
)
def test_cursor_rule_keys_are_shown_as_written(repo: Path, text: str, shown: str) -> None:
    write(repo, ".cursor/rules/r.mdc", text)
    _, section = _section(repo, ".", "cursor")
    (rule,) = [f for f in section["files"] if f["file"] == ".cursor/rules/r.mdc"]
    assert rule["reason"] == f"a project rule ({shown}); how Cursor applies its keys is unconfirmed"


def test_guidance_symlink_out_of_the_repository_is_named(repo: Path, tmp_path: Path) -> None:
    outside = write(tmp_path, "elsewhere/CLAUDE.md", "mine\n")
    write(repo, "AGENTS.md", "a\n")
    (repo / "CLAUDE.md").symlink_to(outside)
    (p,) = [p for p in check_json(repo) if p["path"] == "CLAUDE.md"]
    assert p["code"] == "GDN018" and p["severity"] == "warning"
    assert p["message"] == (
        f"CLAUDE.md is a symlink to {outside}, outside the repository, so memcheck does not follow it and checks nothing in it "
        "(Claude Code reads it; Cursor and Copilot may); keep the file in the repository to have it checked and in every clone"
    )
    _, section = _section(repo, ".", "claude-code")
    (entry,) = section["files"]
    assert entry["file"] == "CLAUDE.md" and entry["loaded"] is True and entry["bytes"] is None
    assert "memcheck does not follow it" in entry["notes"][0]
    text = run_cli(repo, "context", ".", "--agent", "claude-code").stdout
    assert "  project  CLAUDE.md  size not known  [loaded: every folder from the root down]" in text


# ---------------------------------------------------------------- Codex's loader, as its source reads


def _codex_reference(files: list[bytes], budget: int) -> list[int]:
    """Bytes Codex keeps of each file, transcribed from codex-rs/core/src/agents_md.rs:
    `if size > remaining { data.truncate(remaining) }; let text =
    String::from_utf8_lossy(&data); if !text.trim().is_empty() { push; remaining -=
    data.len() }`, the loop stopping once remaining is 0."""
    remaining = budget
    kept = []
    for data in files:
        if remaining == 0:
            kept.append(0)
            continue
        data = data[:remaining]
        if data.decode("utf-8", "replace").strip(readers.RUST_WHITESPACE):
            kept.append(len(data))
            remaining -= len(data)
        else:
            kept.append(0)
    return kept


_CHUNKS = st.sampled_from([b"", b" ", b"\n", b"\r\n", b"\t", b"\xc2\xa0", b"x", b"# Rules\n", "é".encode(), b"\xff", b"\xef\xbb\xbf"])


@settings(max_examples=300, deadline=None)
@given(files=st.lists(st.lists(_CHUNKS, max_size=12).map(b"".join), min_size=1, max_size=5), budget=st.integers(1, 40))
@pytest.mark.slow  # a property test: seconds of examples
def test_codex_budget_keeps_what_codex_s_loader_keeps(files: list[bytes], budget: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        paths = []
        for i, data in enumerate(files):
            path = "/".join(["d"] * i + ["AGENTS.md"])
            write(root, path, data)
            paths.append(path)
        ws = Workspace(config.default_config(root), DiskSource(root, files=paths))
        cuts = readers.codex_chain(ws, paths, budget)
    assert [c.kept for c in cuts] == _codex_reference(files, budget)


def _loads_via_imports_reference(ws: Workspace, agent: str, source: str, target: str) -> int:
    """The way before the import graph: expand the source and look for the target."""
    import os

    follows = agents.agent(agent).follows_imports
    if follows == agents.NO:
        return agents.NO
    depth = agents.agent(agent).import_depth
    for x in expansion.expand(ws, source, expansion.follow_depth(agent)).loaded[1:]:
        if os.path.realpath(ws.root / x.path) == os.path.realpath(ws.root / target):
            return agents.READS if follows == agents.READS and (depth is not None or x.depth == 1) else agents.MAYBE
    return agents.NO


_NAMES = ("AGENTS.md", "CLAUDE.md", "a/AGENTS.md", "a/CLAUDE.md", "x.md", "a/y.md", "z.md")


@settings(max_examples=150, deadline=None)
@given(
    imports=st.lists(st.tuples(st.sampled_from(_NAMES), st.sampled_from(_NAMES + ("gone.md",))), max_size=14),
    twin=st.booleans(),
)
@pytest.mark.slow  # a property test: seconds of examples
def test_gets_through_imports_answers_as_expanding_each_source(imports: list[tuple[str, str]], twin: bool) -> None:
    # Any graph of imports (chains past every depth limit, cycles, missing files, a
    # symlinked twin): the import graph says what expanding each source says.
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        body: dict[str, list[str]] = {n: [f"# {n}"] for n in _NAMES}
        for source, target in imports:
            depth = source.count("/")
            body[source].append("@" + "../" * depth + target)
        for name, lines in body.items():
            write(root, name, "\n".join(lines) + "\n")
        files = list(_NAMES)
        if twin:
            (root / "b").mkdir()
            (root / "b" / "AGENTS.md").symlink_to("../a/AGENTS.md")
            files.append("b/AGENTS.md")
        ws = Workspace(config.default_config(root), DiskSource(root, files=files))
        for source in files:
            for target in files:
                for agent in agents.ALL:
                    assert readers.loads_via_imports(ws, agent, source, target) == _loads_via_imports_reference(
                        ws, agent, source, target
                    ), (agent, source, target)


def test_folders_sharing_an_import_hub_expand_nothing_to_compare_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every folder's CLAUDE.md and AGENTS.md import one hub: neither loads the other,
    # which the import graph tells without expanding a file per pair (expanding each
    # took time in folders x files imported).
    files = ["hub.md"]
    write(tmp_path, "hub.md", "".join(f"@lib/f{j}.md\n" for j in range(8)))
    for j in range(8):
        files.append(f"lib/f{j}.md")
        write(tmp_path, f"lib/f{j}.md", "x\n")
    for i in range(6):
        files += [f"p{i}/CLAUDE.md", f"p{i}/AGENTS.md"]
        write(tmp_path, f"p{i}/CLAUDE.md", "# claude\n@../hub.md\n")
        write(tmp_path, f"p{i}/AGENTS.md", "# agents\n@../hub.md\n")
    ws = Workspace(config.default_config(tmp_path), DiskSource(tmp_path, files=files))
    expanded: list[str] = []
    real_expand = expansion.expand

    def counting(ws: Workspace, path: str, depth: int) -> expansion.Expansion:
        expanded.append(path)
        return real_expand(ws, path, depth)

    monkeypatch.setattr(expansion, "expand", counting)
    for i in range(6):
        for agent in agents.ALL:
            assert readers.loads_via_imports(ws, agent, f"p{i}/CLAUDE.md", f"p{i}/AGENTS.md") == agents.NO
            assert readers.loads_via_imports(ws, agent, f"p{i}/AGENTS.md", f"p{i}/CLAUDE.md") == agents.NO
    assert readers.loads_via_imports(ws, agents.CLAUDE_CODE, "p0/CLAUDE.md", "lib/f3.md") == agents.READS  # reached: expanded
    assert expanded == ["p0/CLAUDE.md"]


_TREE = ("AGENTS.md", "CLAUDE.md", "a/AGENTS.md", "hub.md", "lib/x.md", "lib/y.md", "lib/z.md")


@settings(max_examples=200, deadline=None)
@given(
    imports=st.lists(st.tuples(st.sampled_from(_TREE), st.sampled_from(_TREE + ("gone.md", "lib/*.md"))), max_size=18),
    asked=st.lists(st.tuples(st.sampled_from(_TREE), st.integers(0, 6)), min_size=1, max_size=10),
)
@pytest.mark.slow  # a property test: seconds of examples
def test_reach_in_sums_finds_what_expanding_finds(imports: list[tuple[str, str]], asked: list[tuple[str, int]]) -> None:
    # Any import graph (shared files, cycles, chains past the limit, missing files), files
    # asked in any order at any depth limit, sharing what earlier ones worked out.
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        body: dict[str, list[str]] = {n: [f"# {n}" * (1 + len(n) % 3)] for n in _TREE}
        for source, target in imports:
            body[source].append("@" + "../" * source.count("/") + target)
        for name, lines in body.items():
            write(root, name, "\n".join(lines) + "\n")
        ws = Workspace(config.default_config(root), DiskSource(root, files=list(_TREE)))
        for path, depth in asked:
            full, summed = expansion.expand(ws, path, depth), expansion.reach(ws, path, depth)
            for limit in range(depth + 2):
                within = [x for x in full.loaded if x.depth <= limit]
                assert summed.loaded(limit) == (len(within), sum(agents.approx_tokens(x.size) for x in within))
            assert (summed.cycles, summed.too_deep, summed.missing) == (full.cycles, full.too_deep, full.missing)


@settings(max_examples=300, deadline=None)
@given(edges=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=20))
@pytest.mark.slow  # a property test: seconds of examples
def test_files_on_import_cycles_are_the_ones_leading_back_to_themselves(edges: list[tuple[int, int]]) -> None:
    graph: dict[str, list[str]] = {str(n): [] for n in range(8)}
    for a, b in edges:
        graph[str(a)].append(str(b))

    def leads_back(node: str) -> bool:  # the reference: a walk from each node
        todo, seen = list(graph[node]), set()
        while todo:
            nxt = todo.pop()
            if nxt == node:
                return True
            if nxt not in seen:
                seen.add(nxt)
                todo.extend(graph[nxt])
        return False

    assert expansion._on_cycles(graph) == {n for n in graph if leads_back(n)}


# ---------------------------------------------------------------- real paths, a folder at a time

_PARTS = st.sampled_from(["a", "b", "c", ".", ".."])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=4),
            st.sampled_from(["folder", "file", "link"]),
            st.sampled_from(["..", "../..", "a", "/", "nowhere", "self", "b/c"]),
        ),
        max_size=14,
    ),
    st.lists(st.lists(_PARTS, min_size=1, max_size=6), min_size=1, max_size=25),
)
@pytest.mark.slow  # a property test: seconds of examples
def test_real_paths_resolved_a_folder_at_a_time_are_os_realpath(tree: list[tuple[list[str], str, str]], asked: list[list[str]]) -> None:
    """Symlinked folders and files, links to links, loops and dangling links: every
    answer is what os.path.realpath gives, whatever was asked before it."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for parts, kind, target in tree:
            full = root.joinpath(*parts)
            try:
                if kind == "folder":
                    full.mkdir(parents=True, exist_ok=True)
                elif kind == "file":
                    full.parent.mkdir(parents=True, exist_ok=True)
                    full.touch()
                else:
                    full.parent.mkdir(parents=True, exist_ok=True)
                    full.symlink_to(parts[-1] if target == "self" else target)
            except OSError:  # already there as something else: the tree is what it is
                pass
        ws = Workspace(config.default_config(root), DiskSource(root, files=[]))
        for parts in asked:
            path = "/".join(parts)
            assert expansion.realpath(ws, path) == os.path.realpath(root / path), path
