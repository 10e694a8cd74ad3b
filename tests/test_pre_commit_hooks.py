"""The hooks as pre-commit runs them: the manifest, its file patterns, and real
`pre-commit try-repo` runs against temporary git repositories.

try-repo installs this repository's working tree (committed, staged and modified
tracked files; see pre-commit's ``try_repo._repo_ref``) into a fresh virtualenv, so
these tests exercise the hooks exactly as a user's pre-commit would.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO_ROOT, git, memory, write

MANIFEST = REPO_ROOT / ".pre-commit-hooks.yaml"


def _hooks() -> dict[str, dict[str, object]]:
    return {h["id"]: h for h in yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))}


def test_manifest_validates() -> None:
    proc = subprocess.run([sys.executable, "-m", "pre_commit", "validate-manifest", str(MANIFEST)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_hook_ids_and_settings() -> None:
    hooks = _hooks()
    assert sorted(hooks) == ["memcheck", "memcheck-fix", "memcheck-guard"]
    assert hooks["memcheck"]["entry"] == "memcheck check"
    assert hooks["memcheck-fix"]["entry"] == "memcheck fix --exit-non-zero-on-fix"
    assert hooks["memcheck-fix"]["require_serial"] is True
    guard = hooks["memcheck-guard"]
    assert guard["entry"] == "memcheck guard"
    assert guard["pass_filenames"] is False
    assert guard["always_run"] is True
    assert guard["stages"] == ["pre-commit", "pre-push", "manual"]
    # The stage names pre-commit/pre-push were added in pre-commit 3.2.0.
    assert tuple(int(x) for x in str(guard["minimum_pre_commit_version"]).split(".")) >= (3, 2, 0)
    assert all(h["language"] == "python" for h in hooks.values())


MATCH = [
    "AGENTS.md",
    "Agents.md",
    "agents.md",
    "AGENT.md",
    "Agent.md",
    "agent.md",
    "CLAUDE.md",
    "packages/web/AGENTS.md",
    "docs/CLAUDE.md",
    "MEMORY.md",
    "notes/memory/MEMORY.md",
    ".memory/user_prefs.md",
    ".agh/memory/project_x.md",
    ".nano_claude/memory/feedback.md",
    ".cheetahclaws/memory/a.md",
    ".claude/memory/feedback_testing.md",
    ".claude/memory/MEMORY.md",
    ".claude/agent-memory/reviewer/notes.md",
    ".agents/memory/reference_api.md",
    "sub/project/.claude/memory/user.md",
    ".claude/skills/pdf/SKILL.md",
    ".claude/skills/pdf/reference.md",
    ".claude/skills/pdf/scripts/extract.py",
    ".agents/skills/flat-skill.md",
    "tools/SKILL.md",
    "apps/api/.agents/skills/deploy/SKILL.md",
    "AGENTS.override.md",
    "pkg/CLAUDE.local.md",
    "GEMINI.md",
    ".claude/CLAUDE.md",
    ".claude/rules/testing.md",
    "apps/web/.claude/rules/frontend/react.md",
    ".cursor/rules/style.mdc",
    ".cursor/rules/style.md",  # Cursor ignores it: memcheck says so
    ".github/copilot-instructions.md",
    ".github/instructions/frontend/react.instructions.md",
]

NO_MATCH = [
    "README.md",
    "src/agents.py",
    "AGENTS.md.bak",
    "OLD_AGENTS.md",
    "claude.md",  # not a name any agent reads
    ".github/instructions/react.md",  # Copilot reads *.instructions.md only
    ".github/workflows/ci.yml",
    ".cursor/rules/notes.txt",
    "gemini.md",
    "docs/MEMORY.txt",
    "my.memory/notes.md",
    ".memory/sub/notes.md",  # stores are not recursive
    ".claude/memory/image.png",
    ".claude/settings.json",
    ".claude/agent-memory/notes.md",  # the store is one folder deeper
    ".claude/commands/review.md",
    "skills/pdf/reference.md",
    ".claude/skillset/x.md",
    "memory/notes.md",
    "SKILL.md.orig",
]


@pytest.mark.parametrize("hook_id", ["memcheck", "memcheck-fix"])
@pytest.mark.parametrize("path", MATCH)
def test_files_pattern_matches(hook_id: str, path: str) -> None:
    # pre-commit applies `files` with re.search to repository-relative paths.
    assert re.search(str(_hooks()[hook_id]["files"]), path)


@pytest.mark.parametrize("hook_id", ["memcheck", "memcheck-fix"])
@pytest.mark.parametrize("path", NO_MATCH)
def test_files_pattern_does_not_match(hook_id: str, path: str) -> None:
    assert not re.search(str(_hooks()[hook_id]["files"]), path)


def test_files_pattern_covers_the_default_config() -> None:
    import json

    defaults = json.loads((REPO_ROOT / "src/memcheck/resources/default-config.json").read_text(encoding="utf-8"))
    pattern = str(_hooks()["memcheck"]["files"])
    for name in defaults["guidance"]["filenames"]:
        assert re.search(pattern, f"x/{name}"), name
    for glob in defaults["memory"]["stores"]:
        assert re.search(pattern, glob.replace("*", "one") + "/note.md"), glob
    for root in defaults["skills"]["roots"]:
        assert re.search(pattern, f"{root}/s/SKILL.md") and re.search(pattern, f"{root}/flat.md"), root


# --- real pre-commit ------------------------------------------------------------


def _is_work_tree(path: Path) -> bool:
    proc = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], cwd=path, capture_output=True, text=True)
    return proc.returncode == 0 and proc.stdout.strip() == "true"


needs_git_checkout = pytest.mark.skipif(not _is_work_tree(REPO_ROOT), reason="try-repo needs memcheck's own source as a git work tree")


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # try-repo builds its own throw-away store per run; this only keeps pre-commit's
    # logs and any other cache away from the real home.
    return tmp_path_factory.mktemp("pre-commit-home")


def try_repo(root: Path, hook_id: str, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    env.pop("PRE_COMMIT", None)
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO_ROOT), hook_id, *args],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
    )


def commit_all(repo: Path, files: dict[str, str], message: str) -> str:
    for rel, text in files.items():
        write(repo, rel, text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)
    return git(repo, "rev-parse", "HEAD").strip()


def _store_missing_an_entry(repo: Path) -> None:
    """A committed, valid store; then a new memory file staged without an index line."""
    store = {
        ".claude/memory/user_prefs.md": memory("prefs", "Prefers short answers", "user"),
        ".claude/memory/MEMORY.md": "# Memory\n\n## User\n- [prefs](user_prefs.md) - Prefers short answers\n",
    }
    commit_all(repo, store, "store")
    write(repo, ".claude/memory/feedback_testing.md", memory("testing", "Run pytest before committing", "feedback"))
    git(repo, "add", ".claude/memory/feedback_testing.md")


@needs_git_checkout
def test_lint_fix_lint_with_real_pre_commit(repo: Path, pre_commit_home: Path) -> None:
    _store_missing_an_entry(repo)

    # Only the new memory file is staged; the index it is missing from is checked too.
    lint = try_repo(repo, "memcheck", pre_commit_home)
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert re.search(r"memcheck\.+Failed", lint.stdout)
    assert ".claude/memory/MEMORY.md:4:1: IDX003 memory file feedback_testing.md is not listed" in lint.stdout

    fix = try_repo(repo, "memcheck-fix", pre_commit_home)
    assert fix.returncode == 1, fix.stdout + fix.stderr
    assert re.search(r"memcheck fix\.+Failed", fix.stdout)
    assert "- files were modified by this hook" in fix.stdout
    assert "Fixing .claude/memory/MEMORY.md" in fix.stdout
    assert "- [testing](feedback_testing.md) - Run pytest before committing" in (repo / ".claude/memory/MEMORY.md").read_text(encoding="utf-8")

    git(repo, "add", "-A")
    again = try_repo(repo, "memcheck", pre_commit_home)
    assert again.returncode == 0, again.stdout + again.stderr
    assert re.search(r"memcheck\.+Passed", again.stdout)
    fix_again = try_repo(repo, "memcheck-fix", pre_commit_home, "--all-files")
    assert fix_again.returncode == 0, fix_again.stdout + fix_again.stderr


@needs_git_checkout
def test_fix_that_writes_a_new_index_fails_the_hook(repo: Path, pre_commit_home: Path) -> None:
    # A new MEMORY.md is untracked, so pre-commit's own "files were modified" check
    # cannot see it: the hook must fail by itself, or the commit goes in without it.
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    git(repo, "add", "-A")
    fix = try_repo(repo, "memcheck-fix", pre_commit_home)
    assert fix.returncode == 1, fix.stdout + fix.stderr
    assert re.search(r"memcheck fix\.+Failed", fix.stdout)
    assert "Fixing .claude/memory/MEMORY.md" in fix.stdout
    assert (repo / ".claude/memory/MEMORY.md").read_text(encoding="utf-8") == "# Memory\n\n## User\n- [prefs](user_prefs.md) - Prefers short answers\n"


@needs_git_checkout
def test_lint_skips_commits_without_memory_files(repo: Path, pre_commit_home: Path) -> None:
    write(repo, "src/app.py", "print('hi')\n")
    git(repo, "add", "-A")
    proc = try_repo(repo, "memcheck", pre_commit_home)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"memcheck\.+\(no files to check\)Skipped", proc.stdout)


@needs_git_checkout
def test_guard_blocks_a_staged_env_file(repo: Path, pre_commit_home: Path) -> None:
    commit_all(repo, {"README.md": "hello\n"}, "init")
    write(repo, ".env", "API_KEY=not-a-real-key\n")
    write(repo, "src/tokenizer.py", "def tokens(): ...\n")
    git(repo, "add", "-A")
    proc = try_repo(repo, "memcheck-guard", pre_commit_home)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(r"memcheck guard\.+Failed", proc.stdout)
    assert ".env" in proc.stdout
    assert "tokenizer.py" not in proc.stdout

    git(repo, "rm", "-q", "--cached", ".env")
    clean = try_repo(repo, "memcheck-guard", pre_commit_home)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert re.search(r"memcheck guard\.+Passed", clean.stdout)


@needs_git_checkout
def test_guard_at_pre_push_judges_the_pushed_commits(repo: Path, pre_commit_home: Path) -> None:
    base = commit_all(repo, {"README.md": "hello\n"}, "init")
    commit_all(repo, {"deploy/id_rsa": "not a real key\n"}, "add a key")
    git(repo, "rm", "-q", "deploy/id_rsa")
    git(repo, "commit", "-qm", "remove it again")  # the key is still in the pushed history
    head = git(repo, "rev-parse", "HEAD").strip()
    proc = try_repo(repo, "memcheck-guard", pre_commit_home, "--hook-stage", "pre-push", "--from-ref", base, "--to-ref", head)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "deploy/id_rsa" in proc.stdout
