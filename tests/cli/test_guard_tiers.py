"""Who a guarded category is for: secrets guard every change, the agents tier guards
the changes an agent made (by commit author, committer or trailer, or from an agent's
shell at commit time); and a symlink or submodule named like a guarded folder, in
every mode. Real repositories, the CLI through main(). The tables of signatures, of
settings that guard a person's change too, and of links through a process's view of
the file system are judged in memory in tests/unit/test_guard_judged_agents.py and
test_guard_judged_paths.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import commit, git, plain_message, run_cli, write

CLAUDE_TRAILER = "\n\nCo-Authored-By: Claude <noreply@anthropic.com>"
AGENT_SHELL = {"CLAUDECODE": "1"}


def guard_json(root: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, list[dict[str, str]]]:
    proc = run_cli(root, "guard", "--format", "json", *args, env=env)
    assert proc.returncode in (0, 1) and proc.stderr == "", proc.stderr
    return proc.returncode, json.loads(proc.stdout)["problems"]


def found(problems: list[dict[str, str]]) -> list[tuple[str, str]]:
    return [(p["path"], p["code"]) for p in problems]


@pytest.fixture
def base(repo: Path) -> Path:
    commit(repo, {"README.md": "x\n", "package-lock.json": "{}\n"}, "init")
    git(repo, "checkout", "-q", "-b", "feature")
    return repo


# --- a person's routine work passes ---------------------------------------------------


def test_a_persons_lockfile_bump_in_a_range_passes(base: Path) -> None:
    commit(base, {"package-lock.json": '{"lockfileVersion": 3}\n'}, "bump deps")
    commit(base, {"yarn.lock": "x\n", "dist/app.js": "x\n"}, "Dependabot-style bump")
    assert guard_json(base, "--base", "main") == (0, [])


# --- an agent's change is stopped -----------------------------------------------------


def test_an_agents_lockfile_commit_is_blocked_by_its_trailer(base: Path) -> None:
    sha = commit(base, {"package-lock.json": '{"lockfileVersion": 3}\n'}, "bump deps" + CLAUDE_TRAILER)
    code, problems = guard_json(base, "--base", "main")
    assert code == 1 and found(problems) == [("package-lock.json", "GRD004")]
    message = problems[0]["message"]
    assert message.startswith("drop it from the agent's commit and have a person make this change")
    assert "Claude Code made it: Co-Authored-By trailer" in message
    assert plain_message(message).startswith(f"modified in {sha[:7]}: guarded by category lockfiles (pattern package-lock.json)")


def test_an_agents_lockfile_commit_from_its_shell_is_blocked(base: Path) -> None:
    write(base, "package-lock.json", '{"lockfileVersion": 3}\n')
    git(base, "add", "-A")
    code, problems = guard_json(base, env=AGENT_SHELL)
    assert code == 1 and found(problems) == [("package-lock.json", "GRD004")]
    assert problems[0]["message"].startswith(
        "unstage it (git restore --staged -- package-lock.json) and have a person make this change (Claude Code made it"
    )


def test_a_person_committing_while_an_agent_coauthored_an_earlier_commit(base: Path) -> None:
    commit(base, {"src/a.py": "x\n"}, "agent work" + CLAUDE_TRAILER)
    commit(base, {"package-lock.json": '{"v": 2}\n'}, "a person bumps the lock file")
    assert guard_json(base, "--base", "main") == (0, [])


# --- a secret is stopped whoever commits it ------------------------------------------


@pytest.mark.parametrize("env", [{}, AGENT_SHELL], ids=["person", "agent"])
def test_an_env_is_blocked_whoever_commits_it(base: Path, env: dict[str, str]) -> None:
    write(base, ".env", "SECRET=1\n")
    git(base, "add", "-A")
    code, problems = guard_json(base, env=env)
    assert code == 1 and found(problems) == [(".env", "GRD001")]
    assert problems[0]["message"].startswith("unstage it (git restore --staged -- .env) and rotate any secret it holds")
    git(base, "commit", "-q", "-m", "oops")
    code, problems = guard_json(base, "--base", "main")
    assert code == 1 and found(problems) == [(".env", "GRD001")]
    assert problems[0]["message"].startswith("rotate any secret it holds, and rewrite the branch to drop it before pushing")


# --- config: everyone, tiers, signatures ----------------------------------------------


@pytest.mark.parametrize(
    ("settings", "loosens"),
    [
        ("guard: {tiers: {env: agents}}\n", "moves category env to the agents tier"),
        ("guard: {agents: {remove: [claude-code-co-author]}}\n", "stops recognising the agent signature claude-code-co-author"),
    ],
)
def test_moving_a_secret_to_the_agents_tier_or_dropping_a_signature_is_a_loosening(base: Path, settings: str, loosens: str) -> None:
    commit(base, {".memcheck.yaml": settings}, "settings")
    code, problems = guard_json(base, "--base", "main")
    assert code == 1 and found(problems) == [(".memcheck.yaml", "GRD003")]
    assert loosens in problems[0]["message"]


def test_a_signature_without_what_it_matches_is_a_config_error(repo: Path) -> None:
    write(repo, ".memcheck.yaml", "guard: {agents: {add: [{kind: trailer, key: Co-Authored-By}]}}\n")
    proc = run_cli(repo, "guard", "package-lock.json")
    assert proc.returncode == 2
    assert "guard.agents.add.0: a trailer signature needs email or name or name-suffix" in proc.stderr


def test_signatures_are_listed_with_their_sources(repo: Path) -> None:
    proc = run_cli(repo, "guard", "--signatures")
    assert proc.returncode == 0
    assert "claude-code-env: Claude Code: its shell sets CLAUDECODE=1  [https://" in proc.stdout
    assert "secrets tier, guarding every change: env, credentials" in proc.stdout
    doc = json.loads(run_cli(repo, "guard", "--signatures", "--format", "json").stdout)
    assert doc["tiers"]["lockfiles"] == "agents" and doc["everyone"] is False
    assert all(row["url"] and row["url"].startswith("https://") for row in doc["signatures"])


# --- turning the secret rules off is a finding of its own -----------------------------


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ("ignore: [SEC]\n", "turns SEC001, SEC002, SEC003 off"),
        # The hidden-text rules too: a lint selection that leaves them out hides an
        # instruction in invisible characters as surely as `ignore: [HID]`.
        ("select: [MEM, SEC]\n", "turns HID001, HID002, HID003, HID004, HID005 off"),
        ("per-path-ignores: {CLAUDE.md: [HID001]}\n", "ignores HID001 under CLAUDE.md"),
        # Which files are agent files: one that is no longer one is read by no rule.
        (
            "guidance: {filenames: [CLAUDE.md]}\n",
            "drops AGENT.md, AGENTS.md, AGENTS.override.md, Agent.md, Agents.md and 4 more from guidance.filenames",
        ),
        ("memory: {stores: [nowhere]}\n", "from memory.stores (no rule reads those files, secrets included)"),
    ],
)
def test_a_change_that_turns_a_secret_rule_off_is_a_finding(base: Path, settings: str, says: str) -> None:
    token = "ghp_" + "a1B2" * 9
    commit(
        base,
        {".memcheck.yaml": settings, ".claude/memory/notes.md": f"---\nname: n\ndescription: d\ntype: user\n---\n{token}\n"},
        "silence",
    )
    code, problems = guard_json(base, "--base", "main")
    assert code == 1 and ("." + "memcheck.yaml", "GRD005") in found(problems)
    (finding,) = [p for p in problems if p["code"] == "GRD005"]
    assert finding["message"].startswith("land this on its own and have it reviewed")
    assert says in finding["message"]


def test_settings_linked_to_another_file_are_judged_through_the_link(repo: Path) -> None:
    # main's .memcheck.yaml links to conf/memcheck.yaml; the branch edits what it links
    # to, so that AGENTS.md is no guidance file, and adds a token there.
    commit(repo, {"README.md": "x\n", "conf/memcheck.yaml": "fail-on: error\n"}, "init")
    os.symlink("conf/memcheck.yaml", repo / ".memcheck.yaml")
    commit(repo, {}, "link the settings")
    git(repo, "checkout", "-q", "-b", "feature")
    commit(
        repo,
        {"conf/memcheck.yaml": "guidance: {filenames: [CLAUDE.md]}\n", "AGENTS.md": "# Agents\n\nUse ghp_" + "a1B2" * 9 + " to push.\n"},
        "hide",
    )
    code, problems = guard_json(repo, "--base", "main")
    assert code == 1 and ("." + "memcheck.yaml", "GRD005") in found(problems), problems
    (finding,) = [p for p in problems if p["code"] == "GRD005"]
    assert "from guidance.filenames" in finding["message"]


def test_lint_settings_that_keep_the_secret_rules_pass(base: Path) -> None:
    commit(
        base,
        {
            ".memcheck.yaml": "select: [MEM, SEC, HID]\nignore: [MEM010]\nguidance: {filenames: [AGENTS.md, CLAUDE.md, GEMINI.md, agents.md, Agents.md, AGENT.md, Agent.md, agent.md, AGENTS.override.md, CLAUDE.local.md, NOTES.md]}\n"
        },
        "lint settings",
    )
    assert guard_json(base, "--base", "main") == (0, [])


# --- a symlink or submodule named like a guarded folder -------------------------------


def link(root: Path, name: str, target: str) -> None:
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, root / name)


@pytest.mark.parametrize(
    ("name", "target", "files", "category"),
    [
        (".ssh", "keys", {"keys/id_work": "x\n"}, "ssh"),
        (".aws", "/srv/shared", {}, "aws"),  # out of the repository (a link to /etc is GRD002 too)
        ("deploy/.kube", "../cluster", {"cluster/config": "x\n"}, "kubernetes"),
    ],
)
def test_a_link_named_like_a_secret_folder_is_blocked_for_everyone(
    base: Path, name: str, target: str, files: dict[str, str], category: str
) -> None:
    commit(base, files, "files")
    link(base, name, target)
    git(base, "add", "-A")
    code, problems = guard_json(base)
    assert code == 1 and found(problems) == [(name, "GRD001")], problems
    assert f"by category {category}" in problems[0]["message"] and "a folder named like a guarded one" in problems[0]["message"]
    git(base, "commit", "-q", "-m", "link")
    code, problems = guard_json(base, "--base", "main")
    # and what the range put in the target, as seen through the link (.ssh/id_work)
    assert code == 1 and (name, "GRD001") in found(problems)
    proc = run_cli(base, "guard", "--list")
    assert f"\n  {name} -> {target}" in proc.stdout or f"{category} (1; guarded for every change)\n  {name}" in proc.stdout


@pytest.mark.parametrize(
    ("name", "target"),
    [(".vscode", "conf"), (".vscode", "."), ("sub/.claude", "../cl"), ("node_modules", "vend"), (".idea", "conf"), ("dist", "conf")],
)
def test_a_link_named_like_an_agents_folder_is_blocked_in_an_agents_change(base: Path, name: str, target: str) -> None:
    commit(base, {"conf/settings.json": "{}\n", "cl/settings.local.json": "{}\n", "vend/x.js": "x\n"}, "files")
    link(base, name, target)
    git(base, "add", "-A")
    assert guard_json(base) == (0, [])  # a person's link
    code, problems = guard_json(base, env=AGENT_SHELL)
    assert code == 1 and found(problems) == [(name, "GRD004")]
    git(base, "commit", "-q", "-m", "link" + CLAUDE_TRAILER)
    code, problems = guard_json(base, "--base", "main")
    assert code == 1 and (name, "GRD004") in found(problems)
    listed = run_cli(base, "guard", "--list").stdout
    assert f"  {name} -> {target}" in listed or f"  {name}  [" in listed


def test_a_submodule_named_like_a_guarded_folder(base: Path, tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    git(sub, "-c", "init.defaultBranch=main", "init", "-q")
    commit(sub, {"settings.json": "{}\n"})
    git(base, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), ".vscode")
    code, problems = guard_json(base, env=AGENT_SHELL)
    assert code == 1 and (".vscode", "GRD004") in found(problems)
    assert "a submodule" in next(p["message"] for p in problems if p["path"] == ".vscode")
    git(base, "commit", "-q", "-m", "sub")
    listed = run_cli(base, "guard", "--list").stdout
    assert "ide (1; guarded for an agent's changes)\n  .vscode  [**/.vscode/settings.json]" in listed


def test_an_ordinary_link_and_folder_pass(base: Path) -> None:
    commit(base, {"docs/a.md": "x\n"}, "docs")
    link(base, "documentation", "docs")
    link(base, "run", "scripts")
    git(base, "add", "-A")
    assert guard_json(base, env=AGENT_SHELL) == (0, [])


# --- found by an outside attack on the tiers -------------------------------------------


def test_an_agents_change_under_a_folder_a_tracked_symlink_shows_elsewhere(base: Path) -> None:
    commit(base, {"tools/vscode/extensions.json": "{}\n", "tools/claude/README.md": "x\n"}, "shared editor config")
    link(base, ".vscode", "tools/vscode")
    link(base, ".claude", "tools/claude")
    git(base, "add", "-A")
    git(base, "commit", "-q", "-m", "a person links it")
    write(base, "tools/vscode/tasks.json", '{"tasks": [{"runOptions": {"runOn": "folderOpen"}}]}\n')
    write(base, "tools/claude/settings.json", '{"hooks": {}}\n')
    git(base, "add", "-A")
    assert guard_json(base) == (0, [])  # a person's
    code, problems = guard_json(base, env=AGENT_SHELL)
    assert code == 1 and found(problems) == [(".claude/settings.json", "GRD004"), (".vscode/tasks.json", "GRD004")]
    assert problems[1]["message"].startswith("unstage it (git restore --staged -- tools/vscode/tasks.json)")
    assert "added (through the symlink .vscode)" in problems[1]["message"]
    git(base, "commit", "-q", "-m", "tasks" + CLAUDE_TRAILER)
    code, problems = guard_json(base, "--base", "main")
    assert code == 1 and found(problems) == [(".claude/settings.json", "GRD004"), (".vscode/tasks.json", "GRD004")]


def test_a_secret_under_a_folder_a_tracked_symlink_shows_as_ssh(base: Path) -> None:
    commit(base, {"keys/README.md": "x\n"}, "keys")
    link(base, ".ssh", "keys")
    git(base, "add", "-A")
    git(base, "commit", "-q", "-m", "link")  # the link itself is reported in its own change
    commit(base, {"keys/config": "Host *\n"}, "ssh config")
    code, problems = guard_json(base, "--base", "HEAD~1")
    assert code == 1 and found(problems) == [(".ssh/config", "GRD001")]


def test_a_commit_encoding_header_does_not_hide_the_agent(base: Path) -> None:
    write(base, "package-lock.json", '{"v": 3}\n')
    git(base, "add", "-A")
    git(base, "-c", "i18n.commitEncoding=UTF-16", "commit", "-q", "-m", "bump" + CLAUDE_TRAILER)
    code, problems = guard_json(base, "--base", "main")
    assert code == 1 and found(problems) == [("package-lock.json", "GRD004")]


# --- a guarded file that is a tracked symlink to another file of the repository ---------

PRE_COMMIT_HOOKS = "repos:\n  - repo: https://github.com/memcheck/memcheck\n    rev: v0.1.0\n    hooks:\n      - id: memcheck\n      - id: memcheck-guard\n"


@pytest.mark.parametrize("name", [".mcp.json", ".claude/settings.json", "package-lock.json", ".pre-commit-config.yaml"])
def test_an_agents_edit_to_the_file_a_guarded_link_names_is_an_edit_of_the_link(base: Path, name: str) -> None:
    write(base, "tools/t", PRE_COMMIT_HOOKS)
    (base / name).unlink(missing_ok=True)
    link(base, name, os.path.relpath(base / "tools/t", (base / name).parent))
    git(base, "add", "-A")
    git(base, "commit", "-q", "-m", "a person links it")
    write(base, "tools/t", PRE_COMMIT_HOOKS + "# edited\n")
    git(base, "add", "-A")
    assert guard_json(base) == (0, [])  # a person's
    code, problems = guard_json(base, env=AGENT_SHELL)
    assert code == 1 and (name, "GRD004") in found(problems), problems
    assert f"(through the symlink {name})" in next(p["message"] for p in problems if p["path"] == name)
    git(base, "commit", "-q", "-m", "edit" + CLAUDE_TRAILER)
    code, problems = guard_json(base, "--base", "HEAD~1")
    assert code == 1 and (name, "GRD004") in found(problems), problems


def test_a_person_emptying_the_file_a_pre_commit_config_link_names_loosens_the_hooks(base: Path) -> None:
    write(base, "tools/t", PRE_COMMIT_HOOKS)
    link(base, ".pre-commit-config.yaml", "tools/t")
    git(base, "add", "-A")
    git(base, "commit", "-q", "-m", "a person links it")
    write(base, "tools/t", "repos: []\n")
    git(base, "add", "-A")
    code, problems = guard_json(base)
    assert code == 1 and (".pre-commit-config.yaml", "GRD003") in found(problems), problems
