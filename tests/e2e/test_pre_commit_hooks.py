"""The hooks as pre-commit runs them: the manifest, its file patterns, and the real
pre-commit running them against temporary git repositories.

The hooks are installed once a session (the ``hooks`` fixture: the working tree
committed into a repository of its own, as try-repo does, and one pre-commit home);
one `pre-commit try-repo` smoke test checks that path too, which builds a fresh
virtualenv on every run.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Callable, Iterator, NamedTuple

import pytest
import yaml
from conftest import REPO_ROOT, git, memory, write

MANIFEST = REPO_ROOT / ".pre-commit-hooks.yaml"


def _hooks() -> dict[str, dict[str, object]]:
    return {h["id"]: h for h in yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))}


@pytest.mark.e2e
def test_manifest_validates() -> None:
    proc = subprocess.run([sys.executable, "-m", "pre_commit", "validate-manifest", str(MANIFEST)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_hook_ids_and_settings() -> None:
    hooks = _hooks()
    assert sorted(hooks) == ["memcheck", "memcheck-fix", "memcheck-guard", "memcheck-guard-message"]
    assert hooks["memcheck"]["entry"] == "memcheck check --changed"
    assert hooks["memcheck-fix"]["entry"] == "memcheck fix --changed --exit-non-zero-on-fix"
    # The lint hooks ask git what the commit does: no file list (so no batches), and
    # no `files:` pattern to keep in step with the kinds of file memcheck knows.
    for hook_id in ("memcheck", "memcheck-fix"):
        hook = hooks[hook_id]
        assert hook["pass_filenames"] is False and hook["always_run"] is True
        assert "files" not in hook and "types" not in hook
        assert hook["stages"] == ["pre-commit", "pre-merge-commit", "manual"]  # never at a push
    guard = hooks["memcheck-guard"]
    assert guard["entry"] == "memcheck guard"
    assert guard["pass_filenames"] is False
    assert guard["always_run"] is True
    assert guard["stages"] == ["pre-commit", "pre-push", "manual"]
    # git hands these two hooks the message file: pre-commit passes it on, after --message-file
    message = hooks["memcheck-guard-message"]
    assert message["entry"] == "memcheck guard --message-file"
    assert message["pass_filenames"] is True and message["always_run"] is True
    assert message["stages"] == ["prepare-commit-msg", "commit-msg"]
    # The stage names pre-commit/pre-push were added in pre-commit 3.2.0.
    for hook in hooks.values():
        assert tuple(int(x) for x in str(hook["minimum_pre_commit_version"]).split(".")) >= (3, 2, 0)
    assert all(h["language"] == "python" for h in hooks.values())


# --- real pre-commit ------------------------------------------------------------


def _is_work_tree(path: Path) -> bool:
    proc = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], cwd=path, capture_output=True, text=True)
    return proc.returncode == 0 and proc.stdout.strip() == "true"


_NOT_SOURCE = {".git", ".venv", "venv", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache", "build", "dist"}


def _source_files(root: Path) -> list[str]:
    """memcheck's own files: git's list in a checkout, else (an unpacked release) a
    walk that leaves out virtualenvs, caches and build output."""
    if _is_work_tree(root):
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root, capture_output=True, check=True
        ).stdout
        return [rel for rel in listed.decode().split("\0") if rel]
    found = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d not in _NOT_SOURCE and not d.endswith(".egg-info"))
        found += [os.path.relpath(os.path.join(folder, f), root) for f in sorted(files)]
    return found


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


@pytest.mark.e2e
@pytest.mark.slow
@needs_git_checkout
def test_try_repo_runs_the_working_tree(repo: Path, pre_commit_home: Path) -> None:
    # The one real try-repo run (it builds a virtualenv each time): memcheck's working
    # tree, uncommitted changes included, runs as a user's `pre-commit try-repo` would.
    _store_missing_an_entry(repo)
    fix = try_repo(repo, "memcheck-fix", pre_commit_home)
    assert fix.returncode == 1, fix.stdout + fix.stderr
    assert re.search(r"memcheck fix\.+Failed", fix.stdout)
    assert "- files were modified by this hook" in fix.stdout
    assert "Fixing .claude/memory/MEMORY.md" in fix.stdout
    assert "- [testing](feedback_testing.md) - Run pytest before committing" in (repo / ".claude/memory/MEMORY.md").read_text(
        encoding="utf-8"
    )


@pytest.mark.e2e
def test_lint_fix_lint_with_real_pre_commit(repo: Path, hooks: Hooks) -> None:
    _store_missing_an_entry(repo)

    # Only the new memory file is staged; the index it is missing from is checked too.
    lint = hooks.run(repo, "memcheck")
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert re.search(r"memcheck\.+Failed", lint.stdout)
    assert ".claude/memory/MEMORY.md:4:1: IDX003 memory file feedback_testing.md is not listed" in lint.stdout

    fix = hooks.run(repo, "memcheck-fix")
    assert fix.returncode == 1, fix.stdout + fix.stderr
    assert re.search(r"memcheck fix\.+Failed", fix.stdout)
    assert "- files were modified by this hook" in fix.stdout
    assert "Fixing .claude/memory/MEMORY.md" in fix.stdout
    assert "- [testing](feedback_testing.md) - Run pytest before committing" in (repo / ".claude/memory/MEMORY.md").read_text(
        encoding="utf-8"
    )

    git(repo, "add", "-A")
    again = hooks.run(repo, "memcheck")
    assert again.returncode == 0, again.stdout + again.stderr
    assert re.search(r"memcheck\.+Passed", again.stdout)
    fix_again = hooks.run(repo, "memcheck-fix", "--all-files")
    assert fix_again.returncode == 0, fix_again.stdout + fix_again.stderr


@pytest.mark.e2e
def test_fix_that_writes_a_new_index_fails_the_hook(repo: Path, hooks: Hooks) -> None:
    # A new MEMORY.md is untracked, so pre-commit's own "files were modified" check
    # cannot see it: the hook must fail by itself, or the commit goes in without it.
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user"))
    git(repo, "add", "-A")
    fix = hooks.run(repo, "memcheck-fix")
    assert fix.returncode == 1, fix.stdout + fix.stderr
    assert re.search(r"memcheck fix\.+Failed", fix.stdout)
    assert "Fixing .claude/memory/MEMORY.md" in fix.stdout
    # "Failed" then "No problems found": the last line says why, and what to do next.
    assert fix.stdout.rstrip().endswith(
        "memcheck fix wrote 1 file, so it fails this run: `git add .claude/memory/MEMORY.md` and commit again."
    ), fix.stdout
    assert (repo / ".claude/memory/MEMORY.md").read_text(
        encoding="utf-8"
    ) == "# Memory\n\n## User\n- [prefs](user_prefs.md) - Prefers short answers\n"


@pytest.mark.e2e
def test_fix_hook_keeps_an_entry_whose_memory_git_commit_a_leaves_unstaged(repo: Path, hooks: Hooks) -> None:
    # `git commit -a` stages the tracked MEMORY.md and never the new, untracked memory
    # it lists: the memory is on disk, and the hook must not take its entry out.
    commit_all(
        repo,
        {
            ".claude/memory/user_prefs.md": memory("prefs", "Prefers short answers", "user"),
            ".claude/memory/MEMORY.md": "# Memory\n\n## User\n- [prefs](user_prefs.md) - Prefers short answers\n",
        },
        "store",
    )
    write(repo, ".claude/memory/user_tone.md", memory("tone", "Plain words", "user"))
    entry = "- [tone](user_tone.md) - Plain words, hand-curated\n"
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n## User\n- [prefs](user_prefs.md) - Prefers short answers\n" + entry)
    git(repo, "add", "-u")
    fix = hooks.run(repo, "memcheck-fix")
    assert fix.returncode == 1, fix.stdout + fix.stderr
    assert entry in (repo / ".claude/memory/MEMORY.md").read_text(encoding="utf-8")
    assert "not staged" in fix.stdout
    assert "- files were modified by this hook" not in fix.stdout


def test_all_files_on_day_one_says_how_to_adopt_the_old_findings(repo: Path, hooks: Hooks) -> None:
    # A repository's first `pre-commit run --all-files`: its old findings fail the run,
    # and the run says how to adopt them; once adopted, it passes and counts them.
    commit_all(repo, {"AGENTS.md": "# Agents\n\nRead @docs/missing.md first.\n"}, "old")
    first = hooks.run(repo, "memcheck", "--all-files")
    assert first.returncode == 1, first.stdout + first.stderr
    adopt = "to fail only on new ones, adopt these: `memcheck check --write-baseline .memcheck-baseline.json`, then `baseline: .memcheck-baseline.json` in the config."
    assert adopt in first.stdout
    memcheck = Path(sys.executable).parent / "memcheck"
    subprocess.run([str(memcheck), "check", "--write-baseline", ".memcheck-baseline.json"], cwd=repo, check=True, capture_output=True)
    commit_all(repo, {".memcheck.yaml": "baseline: .memcheck-baseline.json\n"}, "adopt")
    adopted = hooks.run(repo, "memcheck", "--all-files", "--verbose")
    assert adopted.returncode == 0, adopted.stdout + adopted.stderr
    assert "1 accepted by the baseline." in adopted.stdout and "adopt these" not in adopted.stdout


@pytest.mark.e2e
def test_lint_passes_commits_without_memory_files(repo: Path, hooks: Hooks) -> None:
    # The tree has a finding, but the commit does not touch it.
    commit_all(repo, {".claude/memory/user_prefs.md": memory("prefs", "Prefers short answers", "user")}, "store without an index")
    write(repo, "src/app.py", "print('hi')\n")
    git(repo, "add", "-A")
    proc = hooks.run(repo, "memcheck")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"memcheck\.+Passed", proc.stdout)


@pytest.mark.e2e
def test_guard_blocks_a_staged_env_file(repo: Path, hooks: Hooks) -> None:
    commit_all(repo, {"README.md": "hello\n"}, "init")
    write(repo, ".env", "API_KEY=not-a-real-key\n")
    write(repo, "src/tokenizer.py", "def tokens(): ...\n")
    git(repo, "add", "-A")
    proc = hooks.run(repo, "memcheck-guard")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(r"memcheck guard\.+Failed", proc.stdout)
    assert ".env" in proc.stdout
    assert "tokenizer.py" not in proc.stdout

    git(repo, "rm", "-q", "--cached", ".env")
    clean = hooks.run(repo, "memcheck-guard")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert re.search(r"memcheck guard\.+Passed", clean.stdout)


@pytest.mark.e2e
def test_a_commit_whose_own_settings_drop_agents_md_still_has_its_token_found(repo: Path, hooks: Hooks) -> None:
    # The commit makes AGENTS.md no guidance file by its own settings and adds a token
    # there: the lint hook judges it by HEAD's settings too, the guard hook reports
    # the settings change.
    commit_all(repo, {"CLAUDE.md": "# Project\n\nRun the tests.\n"}, "init")
    write(repo, ".memcheck.yaml", "guidance: {filenames: [CLAUDE.md]}\n")
    write(repo, "AGENTS.md", "# Agents\n\nUse ghp_" + "a1B2c3D4" * 4 + "e5F6 to push.\n")
    git(repo, "add", "-A")
    lint = hooks.run(repo, "memcheck")
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "AGENTS.md:3:5: SEC002 " in lint.stdout
    # A person's own settings change is a warning at their commit (reviewed in the pull
    # request); from an agent's shell it fails there too.
    guard = hooks.run(repo, "memcheck-guard", "--verbose")
    assert guard.returncode == 0, guard.stdout + guard.stderr
    assert ".memcheck.yaml:1:1: GRD005 " in guard.stdout and "from guidance.filenames" in guard.stdout
    agent = hooks.run(repo, "memcheck-guard", env={"CLAUDECODE": "1"})
    assert agent.returncode == 1, agent.stdout + agent.stderr


@pytest.mark.e2e
@pytest.mark.slow
@needs_git_checkout
def test_a_commit_that_edits_the_file_claude_md_links_to_has_its_token_found(repo: Path, hooks: Hooks) -> None:
    # CLAUDE.md -> docs/guide.txt tracked: the commit touches docs/guide.txt alone,
    # which is what Claude Code reads as CLAUDE.md.
    write(repo, "docs/guide.txt", "# Guide\n\nRun the tests.\n")
    os.symlink("docs/guide.txt", repo / "CLAUDE.md")
    commit_all(repo, {}, "init")
    write(repo, "docs/guide.txt", "# Guide\n\nRun the tests.\nUse ghp_" + "a1B2c3D4" * 4 + "e5F6 to push.\n")
    git(repo, "add", "-A")
    lint = hooks.run(repo, "memcheck")
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "CLAUDE.md:4:5: SEC002 " in lint.stdout


@pytest.mark.e2e
def test_guard_at_pre_push_judges_the_pushed_commits(repo: Path, hooks: Hooks) -> None:
    base = commit_all(repo, {"README.md": "hello\n"}, "init")
    commit_all(repo, {"deploy/id_rsa": "not a real key\n"}, "add a key")
    git(repo, "rm", "-q", "deploy/id_rsa")
    git(repo, "commit", "-qm", "remove it again")  # the key is still in the pushed history
    head = git(repo, "rev-parse", "HEAD").strip()
    proc = hooks.run(repo, "memcheck-guard", "--hook-stage", "pre-push", "--from-ref", base, "--to-ref", head)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "deploy/id_rsa" in proc.stdout


class Hooks(NamedTuple):
    """memcheck's working tree committed into a repository of its own (what try-repo
    builds for every run) and a pre-commit home that installs it once a session:
    the real pre-commit runs the hooks as a user's would, without a fresh
    virtualenv for each run."""

    home: Path
    config: Path
    snapshot: Path
    rev: str

    def run(self, repo: Path, hook_id: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        full = {**os.environ, "PRE_COMMIT_HOME": str(self.home), "PRE_COMMIT_COLOR": "never", **(env or {})}
        full.pop("PRE_COMMIT", None)
        command = [sys.executable, "-m", "pre_commit", "run", "--config", str(self.config), hook_id, *args]
        return subprocess.run(command, cwd=repo, capture_output=True, text=True, env=full)


@pytest.fixture(scope="session")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hooks]:
    # Under `pytest -n`, one snapshot and one pre-commit home for all the workers (in
    # the folder their temporary folders share), made by the first to get the lock:
    # the hooks' virtualenv is built once a run. pre-commit locks its own store while
    # it installs, so workers running hooks at once are safe.
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER") and sys.platform != "win32":  # no fcntl there: a home per worker
        shared = shared.parent
    with _locked(shared / "pre-commit-hooks.lock"):
        snapshot, home = shared / "memcheck-snapshot", shared / "pre-commit-home-cached"
        if not (home / "pre-commit-config.yaml").exists():
            _snapshot(snapshot)
            rev = git(snapshot, "rev-parse", "HEAD").strip()
            home.mkdir()
            ids = "\n".join(f"      - id: {hook_id}" for hook_id in sorted(_hooks()))
            (home / "pre-commit-config.yaml").write_text(
                f"repos:\n  - repo: {snapshot}\n    rev: {rev}\n    hooks:\n{ids}\n", encoding="utf-8"
            )
    yield Hooks(home, home / "pre-commit-config.yaml", snapshot, git(snapshot, "rev-parse", "HEAD").strip())


def _snapshot(snapshot: Path) -> None:
    """memcheck's working tree, committed into a repository of its own."""
    for rel in _source_files(REPO_ROOT):
        source = REPO_ROOT / rel
        if source.is_file() and not source.is_symlink():
            target = snapshot / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    git(snapshot, "-c", "init.defaultBranch=main", "init", "-q")
    git(snapshot, "add", "-A")
    git(snapshot, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "snapshot")


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Held by one process at a time (on Windows, where each worker has its own
    folder, by the only one there is)."""
    if sys.platform == "win32":
        yield
        return
    import fcntl

    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _listed_store(repo: Path, folder: str = ".claude/memory") -> None:
    commit_all(
        repo,
        {
            f"{folder}/user_prefs.md": memory("prefs", "Prefers short answers", "user"),
            f"{folder}/feedback_testing.md": memory("testing", "Run pytest before committing", "feedback"),
            f"{folder}/MEMORY.md": "# Memory\n\n## User\n- [prefs](user_prefs.md) - Prefers short answers\n\n"
            "## Feedback\n- [testing](feedback_testing.md) - Run pytest before committing\n",
        },
        "store",
    )


@pytest.mark.e2e
def test_git_rm_of_a_listed_memory_fails_lint_and_fix_removes_the_entry(repo: Path, hooks: Hooks) -> None:
    # pre-commit never passes a deleted file to a hook: the hooks must read the
    # staged change themselves to see the entry the deletion leaves dead.
    _listed_store(repo)
    git(repo, "rm", "-q", ".claude/memory/feedback_testing.md")
    lint = hooks.run(repo, "memcheck")
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert ".claude/memory/MEMORY.md:7:3: IDX002 entry points at 'feedback_testing.md', which does not exist" in lint.stdout

    fix = hooks.run(repo, "memcheck-fix")
    assert fix.returncode == 1, fix.stdout + fix.stderr
    assert "Fixing .claude/memory/MEMORY.md" in fix.stdout
    assert "feedback_testing" not in (repo / ".claude/memory/MEMORY.md").read_text(encoding="utf-8")
    git(repo, "add", "-A")
    assert hooks.run(repo, "memcheck").returncode == 0


@pytest.mark.e2e
def test_a_renamed_memory_is_seen_from_both_sides(repo: Path, hooks: Hooks) -> None:
    _listed_store(repo)
    git(repo, "mv", ".claude/memory/feedback_testing.md", ".claude/memory/feedback_tests.md")
    lint = hooks.run(repo, "memcheck")
    assert lint.returncode == 1, lint.stdout + lint.stderr
    # The renamed file keeps its name, which the old entry still names: only the link is dead.
    assert "IDX002 entry points at 'feedback_testing.md'" in lint.stdout


@pytest.mark.e2e
def test_a_store_found_by_its_memory_md_is_reached(repo: Path, hooks: Hooks) -> None:
    # `memory/` is not a default store folder: it is a store because it holds a
    # MEMORY.md beside memory files (two real repositories keep one so).
    _listed_store(repo, "memory")
    write(repo, "memory/project_launch.md", memory("launch", "Launch is on the 3rd", "project"))
    git(repo, "add", "-A")
    lint = hooks.run(repo, "memcheck")
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "memory/MEMORY.md:7:1: IDX003 memory file project_launch.md is not listed" in lint.stdout
    fix = hooks.run(repo, "memcheck-fix")
    assert fix.returncode == 1 and "Fixing memory/MEMORY.md" in fix.stdout, fix.stdout


def _large_store(repo: Path, files: int = 1400) -> int:
    """A store without an index whose file names alone pass pre-commit's 128 KiB
    command line: pre-commit would split a list of them into several runs."""
    pad = "x" * 90
    names = [f".claude/memory/feedback_{i:04d}_{pad}.md" for i in range(files)]
    for i, name in enumerate(names):
        write(repo, name, memory(f"note {i}", "A note", "feedback"))
    return sum(len(n) + 1 for n in names)


@pytest.mark.e2e
@pytest.mark.slow
def test_a_store_larger_than_one_batch_is_reported_once(repo: Path, hooks: Hooks) -> None:
    size = _large_store(repo)
    assert size > 128 * 1024  # past pre-commit's limit for one command line
    git(repo, "add", "-A")
    # At commit, every file staged...
    staged = hooks.run(repo, "memcheck")
    assert staged.returncode == 1, staged.stdout + staged.stderr
    assert staged.stdout.count("IDX001") == 1, staged.stdout
    git(repo, "commit", "-qm", "store", "--no-verify")
    # ...and as CI runs it, on a clean checkout.
    everything = hooks.run(repo, "memcheck", "--all-files")
    assert everything.returncode == 1, everything.stdout + everything.stderr
    assert everything.stdout.count("IDX001") == 1, everything.stdout
    fix = hooks.run(repo, "memcheck-fix", "--all-files")
    assert fix.returncode == 1 and fix.stdout.count("Fixing .claude/memory/MEMORY.md") == 1, fix.stdout


@pytest.mark.e2e
def test_nothing_staged_inside_git_commit_checks_nothing_outside_it_everything(repo: Path, hooks: Hooks) -> None:
    commit_all(repo, {".claude/memory/user_prefs.md": memory("prefs", "Prefers short answers", "user")}, "store without an index")
    # `git commit --amend -m ...` with nothing staged: git sets GIT_INDEX_FILE for its hooks.
    amend = hooks.run(repo, "memcheck", env={"GIT_INDEX_FILE": ".git/index"})
    assert amend.returncode == 0, amend.stdout + amend.stderr
    # `pre-commit run --all-files` on a clean checkout, as CI runs it.
    ci = hooks.run(repo, "memcheck", "--all-files")
    assert ci.returncode == 1, ci.stdout + ci.stderr
    assert "IDX001" in ci.stdout


@pytest.mark.e2e
def test_from_ref_to_ref_judges_what_the_commits_bring(repo: Path, hooks: Hooks) -> None:
    _listed_store(repo)
    base = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "rm", "-q", ".claude/memory/user_prefs.md")
    git(repo, "commit", "-qm", "drop a memory", "--no-verify")
    head = git(repo, "rev-parse", "HEAD").strip()
    proc = hooks.run(repo, "memcheck", "--from-ref", base, "--to-ref", head)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "IDX002 entry points at 'user_prefs.md'" in proc.stdout


@pytest.mark.e2e
def test_warnings_do_not_block_a_commit(repo: Path, hooks: Hooks) -> None:
    _listed_store(repo)
    write(repo, ".claude/memory/user_prefs.md", memory("prefs", "Prefers short answers", "user", extra="tpye: user\n"))
    git(repo, "add", "-A")
    proc = hooks.run(repo, "memcheck")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"memcheck\.+Passed", proc.stdout)


class Installed(NamedTuple):
    run: Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def installed(repo: Path, tmp_path: Path, hooks: Hooks, monkeypatch: pytest.MonkeyPatch) -> Installed:
    """README's pre-commit configuration, installed in a repository with a remote,
    a valid store committed through the hooks and pushed."""
    # Commits made with ``git()`` run the installed hooks too: with the session's
    # pre-commit home, not one installed afresh in this test's $HOME.
    monkeypatch.setenv("PRE_COMMIT_HOME", str(hooks.home))
    monkeypatch.setenv("PRE_COMMIT_COLOR", "never")
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    snippet = re.search(r"<!-- snippet: pre-commit-config -->\n```yaml\n(.*?)```", readme, re.S)
    assert snippet is not None
    config = yaml.safe_load(snippet.group(1))
    assert set(config["default_install_hook_types"]) == {"pre-commit", "prepare-commit-msg", "commit-msg", "pre-push"}
    assert [hook["id"] for hook in config["repos"][0]["hooks"]] == ["memcheck-fix", "memcheck-guard", "memcheck-guard-message"]
    config["repos"][0].update(repo=str(hooks.snapshot), rev=hooks.rev)
    write(repo, ".pre-commit-config.yaml", yaml.safe_dump(config, sort_keys=False))
    remote = tmp_path / "remote.git"
    git(tmp_path, "-c", "init.defaultBranch=main", "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    env = {**os.environ, "PRE_COMMIT_HOME": str(hooks.home), "PRE_COMMIT_COLOR": "never"}
    env.pop("PRE_COMMIT", None)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(args, cwd=repo, env=env, capture_output=True, text=True)

    done = run(sys.executable, "-m", "pre_commit", "install")
    assert done.returncode == 0, done.stdout + done.stderr
    _listed_store(repo)  # committed through the hooks: they pass
    assert run("git", "push", "-q", "origin", "main").returncode == 0
    return Installed(run)


@pytest.mark.e2e
def test_installed_hooks_catch_a_git_rm_at_commit(repo: Path, installed: Installed) -> None:
    git(repo, "rm", "-q", ".claude/memory/feedback_testing.md")
    blocked = installed.run("git", "commit", "-qm", "forget a memory")
    assert blocked.returncode == 1, blocked.stdout + blocked.stderr
    assert "Fixing .claude/memory/MEMORY.md" in blocked.stdout + blocked.stderr
    git(repo, "add", "-A")
    assert installed.run("git", "commit", "-qm", "forget a memory").returncode == 0
    # A message-only amend has nothing staged: nothing to judge.
    assert installed.run("git", "commit", "-q", "--amend", "-m", "forget one memory").returncode == 0


@pytest.mark.e2e
def test_installed_hooks_let_a_team_stop_tracking_a_committed_env(repo: Path, installed: Installed) -> None:
    # A .env committed long ago (past the hooks) and pushed: the team's remedy is
    # `git rm --cached .env`, which passes at commit and at push, and every run that
    # sees the file says how to get there.
    write(repo, ".env", "API_KEY=not-a-real-key\n")
    git(repo, "add", ".env")
    assert installed.run("git", "commit", "-qm", "long ago", "--no-verify").returncode == 0
    assert installed.run("git", "push", "-q", "--no-verify", "origin", "main").returncode == 0
    every = installed.run(sys.executable, "-m", "pre_commit", "run", "--all-files", "memcheck-guard")
    assert every.returncode == 1, every.stdout + every.stderr
    assert "stop tracking it (git rm --cached -- .env, add it to .gitignore, and commit" in every.stdout
    assert "add it to .gitignore) and" not in every.stdout  # never the advice to gitignore a tracked file alone

    git(repo, "rm", "-q", "--cached", ".env")
    write(repo, ".gitignore", ".env\n")
    git(repo, "add", ".gitignore")
    told = installed.run(sys.executable, "-m", "pre_commit", "run", "--verbose", "memcheck-guard")
    assert told.returncode == 0, told.stdout + told.stderr
    assert "GRD001 rotate any secret it holds (deleting it stops tracking it, but it stays in the history" in told.stdout
    committed = installed.run("git", "commit", "-qm", "stop tracking .env")
    assert committed.returncode == 0, committed.stdout + committed.stderr
    pushed = installed.run("git", "push", "origin", "main")
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr
    assert re.search(r"memcheck guard\.+Passed", pushed.stdout + pushed.stderr)
    assert (repo / ".env").is_file()  # still there for the team's own use, untracked


@pytest.mark.e2e
def test_installed_hooks_commit_and_push_the_readmes_sample_config(repo: Path, installed: Installed) -> None:
    # The README's minimal config, as a team adopting memcheck commits it: its guard
    # allow loosens the guard (GRD003), a warning at a person's own commit and push.
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Configuration", 1)[1]
    block = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert block is not None and "guard:" in block.group(1)
    write(repo, ".memcheck.yaml", block.group(1))
    git(repo, "add", ".memcheck.yaml")
    committed = installed.run("git", "commit", "-qm", "adopt memcheck")
    assert committed.returncode == 0, committed.stdout + committed.stderr
    pushed = installed.run("git", "push", "origin", "main")
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr
    assert "reviews it and adds the override label" in section  # what the README says happens


@pytest.mark.e2e
def test_installed_hooks_never_fix_at_push(repo: Path, installed: Installed) -> None:
    # A memory committed past the hooks: at the push only guard runs, and passes; a
    # fix there would write an index the pushed commits do not hold, and block it.
    write(repo, ".claude/memory/project_x.md", memory("x", "Unlisted", "project"))
    git(repo, "add", "-A")
    assert installed.run("git", "commit", "-qm", "sneak", "--no-verify").returncode == 0
    pushed = installed.run("git", "push", "origin", "main")
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr
    assert "memcheck fix" not in pushed.stdout + pushed.stderr
    assert re.search(r"memcheck guard\.+Passed", pushed.stdout + pushed.stderr)
    assert git(repo, "status", "--porcelain") == ""  # nothing written at the push


# --- the commit, not the work tree ----------------------------------------------
# Agents write memory files all the time: untracked memories and an unstaged index
# are normal, and the hooks judge what the commit holds.


@pytest.mark.e2e
def test_an_untracked_memory_never_reaches_the_committed_index(repo: Path, hooks: Hooks) -> None:
    _listed_store(repo)
    write(repo, ".claude/memory/scratch.md", memory("scratch", "Half-written note", "project"))  # untracked
    write(repo, ".claude/memory/project_b.md", memory("b", "About b", "project"))
    git(repo, "add", ".claude/memory/project_b.md")

    lint = hooks.run(repo, "memcheck")
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "IDX003 memory file project_b.md is not listed" in lint.stdout
    assert "scratch" not in lint.stdout

    fix = hooks.run(repo, "memcheck-fix")
    assert fix.returncode == 1, fix.stdout + fix.stderr
    written = (repo / ".claude/memory/MEMORY.md").read_text(encoding="utf-8")
    assert "- [b](project_b.md) - About b" in written
    assert "scratch" not in written and "scratch" not in fix.stdout


@pytest.mark.e2e
def test_a_memory_committed_without_its_untracked_index_is_reported(repo: Path, hooks: Hooks) -> None:
    write(repo, ".claude/memory/project_a.md", memory("a", "About a", "project"))
    write(repo, ".claude/memory/MEMORY.md", "# Memory\n\n## Project\n- [a](project_a.md) - About a\n")
    git(repo, "add", ".claude/memory/project_a.md")  # the index is left untracked
    lint = hooks.run(repo, "memcheck")
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "IDX001 .claude/memory/MEMORY.md is not staged" in lint.stdout
    fix = hooks.run(repo, "memcheck-fix")
    assert fix.returncode == 1, fix.stdout + fix.stderr
    assert (repo / ".claude/memory/MEMORY.md").read_text(encoding="utf-8") == "# Memory\n\n## Project\n- [a](project_a.md) - About a\n"
    git(repo, "add", ".claude/memory/MEMORY.md")
    assert hooks.run(repo, "memcheck").returncode == 0


@pytest.mark.e2e
def test_git_rm_cached_of_a_listed_memory_is_reported(repo: Path, hooks: Hooks) -> None:
    _listed_store(repo)
    git(repo, "rm", "-q", "--cached", ".claude/memory/feedback_testing.md")  # still on disk
    lint = hooks.run(repo, "memcheck")
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "IDX002 entry points at 'feedback_testing.md'" in lint.stdout
    # The memory is still on disk: fix never takes out an entry whose file is there, and
    # says the commit does not hold it (a person who meant to drop it removes the line).
    fix = hooks.run(repo, "memcheck-fix")
    assert fix.returncode == 1, fix.stdout + fix.stderr
    assert "feedback_testing" in (repo / ".claude/memory/MEMORY.md").read_text(encoding="utf-8")
    assert "not staged" in fix.stdout or "does not hold" in fix.stdout, fix.stdout


@pytest.mark.e2e
def test_deleting_the_index_of_a_store_it_alone_made_is_reported(repo: Path, hooks: Hooks) -> None:
    # `memory/` is a store only because of its MEMORY.md: without it, still one.
    _listed_store(repo, "memory")
    git(repo, "rm", "-q", "memory/MEMORY.md")
    lint = hooks.run(repo, "memcheck")
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert "memory/MEMORY.md:1:1: IDX001 memory store memory/ has no MEMORY.md" in lint.stdout


@pytest.mark.e2e
def test_a_commit_that_weakens_the_hooks_fails_at_git_commit(repo: Path, hooks: Hooks) -> None:
    # The repository's own .pre-commit-config.yaml runs memcheck's hooks; an agent
    # commits a lock-file edit together with that config without memcheck-fix. The
    # config the commit leaves still runs memcheck-guard, which reports both: a
    # loosening of the hooks (GRD003, for everyone) and the agent's lock file (GRD004).
    config = f"default_install_hook_types: [pre-commit, pre-push]\nrepos:\n  - repo: {hooks.snapshot}\n    rev: {hooks.rev}\n    hooks:\n      - id: memcheck-fix\n      - id: memcheck-guard\n"
    commit_all(repo, {".pre-commit-config.yaml": config, "package-lock.json": "{}\n"}, "init")
    env = {**os.environ, "PRE_COMMIT_HOME": str(hooks.home), "PRE_COMMIT_COLOR": "never"}
    env.pop("PRE_COMMIT", None)
    subprocess.run([sys.executable, "-m", "pre_commit", "install", "-t", "pre-commit"], cwd=repo, env=env, check=True, capture_output=True)
    write(repo, ".pre-commit-config.yaml", config.replace("      - id: memcheck-fix\n", ""))
    write(repo, "package-lock.json", '{"lockfileVersion": 3}\n')
    git(repo, "add", "-A")
    agent = subprocess.run(["git", "commit", "-qm", "deps"], cwd=repo, env={**env, "CLAUDECODE": "1"}, capture_output=True, text=True)
    out = agent.stdout + agent.stderr  # git commit shows the hook's output on standard error
    assert agent.returncode == 1, out
    assert re.search(r"memcheck guard\.+Failed", out)
    assert ".pre-commit-config.yaml:1:1: GRD003 have a person review this and land it on its own." in out
    assert "loosens the guard: removes the memcheck-fix hook" in out
    assert "package-lock.json:1:1: GRD004" in out
    # A person's commit of the same: the lock file is theirs to change, the loosening
    # still needs a reviewer of its own.
    person = subprocess.run(["git", "commit", "-qm", "deps"], cwd=repo, env=env, capture_output=True, text=True)
    out = person.stdout + person.stderr
    assert person.returncode == 1, out
    assert "GRD003" in out and "GRD004" not in out


# --- the commit's message, and the commits git's sequencer makes --------------------
# git runs no pre-commit hook for a revert, a cherry-pick or a rebase's picks (nor for
# `git commit --no-verify`), but runs prepare-commit-msg for each, and fails the
# commit when it fails; commit-msg sees the message as written.

MESSAGE_HOOK_TYPES = ["pre-commit", "prepare-commit-msg", "commit-msg", "pre-push"]


@pytest.fixture
def message_hooks(repo: Path, tmp_path: Path, hooks: Hooks, monkeypatch: pytest.MonkeyPatch) -> Installed:
    """memcheck-guard and memcheck-guard-message installed for the four hook types, in
    a repository with a remote that holds its first commit (a lock file)."""
    monkeypatch.setenv("PRE_COMMIT_HOME", str(hooks.home))
    monkeypatch.setenv("PRE_COMMIT_COLOR", "never")
    monkeypatch.delenv("PRE_COMMIT", raising=False)
    config = {
        "default_install_hook_types": MESSAGE_HOOK_TYPES,
        "repos": [{"repo": str(hooks.snapshot), "rev": hooks.rev, "hooks": [{"id": "memcheck-guard"}, {"id": "memcheck-guard-message"}]}],
    }
    write(repo, ".pre-commit-config.yaml", yaml.safe_dump(config, sort_keys=False))
    remote = tmp_path / "remote.git"
    git(tmp_path, "-c", "init.defaultBranch=main", "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))

    def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(args, cwd=repo, env={**os.environ, **(env or {})}, capture_output=True, text=True)

    done = run(sys.executable, "-m", "pre_commit", "install")
    assert done.returncode == 0, done.stdout + done.stderr
    commit_all(repo, {"README.md": "hello\n", "package-lock.json": "{}\n"}, "init")
    assert run("git", "push", "-q", "origin", "main").returncode == 0
    return Installed(run)


AGENT_SHELL = {"CLAUDECODE": "1"}


@pytest.mark.e2e
def test_a_co_authored_by_claude_commit_is_caught_at_commit(repo: Path, message_hooks: Installed) -> None:
    write(repo, "package-lock.json", '{"v": 2}\n')
    git(repo, "add", "-A")
    blocked = message_hooks.run("git", "commit", "-qm", "bump deps\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
    assert blocked.returncode != 0, blocked.stdout + blocked.stderr
    out = blocked.stdout + blocked.stderr  # (git shows a hook's output on its stderr)
    assert re.search(r"memcheck guard \(the commit's message\)\.+Failed", out), out
    assert "GRD004" in out and "Claude Code made it: Co-Authored-By trailer" in out
    assert git(repo, "log", "--format=%s", "-1").strip() == "init"  # no commit was made
    # A person's own commit of it passes every stage.
    done = message_hooks.run("git", "commit", "-qm", "bump deps")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.e2e
def test_an_agents_revert_is_caught_though_no_pre_commit_hook_runs(repo: Path, message_hooks: Installed) -> None:
    write(repo, "package-lock.json", '{"v": 2}\n')
    git(repo, "add", "-A")
    assert message_hooks.run("git", "commit", "-qm", "a person bumps the lock file").returncode == 0
    reverted = message_hooks.run("git", "revert", "--no-edit", "HEAD", env=AGENT_SHELL)
    assert reverted.returncode != 0, reverted.stdout + reverted.stderr
    assert "memcheck guard (the commit's message)" in reverted.stderr and "GRD004" in reverted.stderr
    assert git(repo, "log", "--format=%s", "-1").strip() == "a person bumps the lock file"  # the revert made no commit
    git(repo, "reset", "-q", "--hard", "HEAD")  # (what the failed revert left staged)
    # --no-verify skips the pre-commit hook, not prepare-commit-msg
    write(repo, "package-lock.json", '{"v": 3}\n')
    git(repo, "add", "-A")
    skipped = message_hooks.run("git", "commit", "--no-verify", "-qm", "bump again", env=AGENT_SHELL)
    assert skipped.returncode != 0 and "GRD004" in skipped.stderr, skipped.stdout + skipped.stderr
    # The person's own revert passes.
    git(repo, "reset", "-q", "--hard", "HEAD")
    done = message_hooks.run("git", "revert", "--no-edit", "HEAD")
    assert done.returncode == 0, done.stdout + done.stderr


def _side_branch(repo: Path, hooks: Installed, main_lock: str | None) -> None:
    """A branch side whose commit (a person's) bumps the lock file, checked out, and a
    commit on main after it: ``main_lock`` the lock file there, None an empty commit."""
    git(repo, "checkout", "-q", "-b", "side")
    write(repo, "package-lock.json", '{"v": "side"}\n')
    git(repo, "add", "-A")
    assert hooks.run("git", "commit", "-qm", "a person bumps the lock file").returncode == 0
    git(repo, "checkout", "-q", "main")
    if main_lock is not None:
        write(repo, "package-lock.json", main_lock)
        git(repo, "add", "-A")
    assert hooks.run("git", "commit", "-q", "--allow-empty", "-m", "main moves on").returncode == 0
    git(repo, "checkout", "-q", "side")


@pytest.mark.e2e
def test_an_agents_rebase_pick_is_caught(repo: Path, message_hooks: Installed) -> None:
    _side_branch(repo, message_hooks, None)
    rebased = message_hooks.run("git", "rebase", "main", env=AGENT_SHELL)
    assert rebased.returncode != 0, rebased.stdout + rebased.stderr
    assert "GRD004" in rebased.stderr
    git(repo, "rebase", "--abort")


@pytest.mark.e2e
def test_an_agents_resolved_rebase_conflict_is_caught(repo: Path, message_hooks: Installed) -> None:
    _side_branch(repo, message_hooks, '{"v": "main"}\n')
    assert message_hooks.run("git", "rebase", "main", env=AGENT_SHELL).returncode != 0  # the conflict
    write(repo, "package-lock.json", '{"v": "resolved by the agent"}\n')
    git(repo, "add", "package-lock.json")
    resolved = message_hooks.run("git", "rebase", "--continue", env={**AGENT_SHELL, "GIT_EDITOR": "true"})
    assert resolved.returncode != 0, resolved.stdout + resolved.stderr
    assert "GRD004" in resolved.stderr and "Claude Code made it: its shell sets CLAUDECODE=1" in resolved.stderr
    assert git(repo, "log", "--format=%s", "-1").strip() == "main moves on"  # the resolution made no commit
    git(repo, "rebase", "--abort")


@pytest.mark.e2e
def test_a_push_from_an_agents_shell_judges_what_no_hook_saw(repo: Path, message_hooks: Installed) -> None:
    write(repo, "package-lock.json", '{"v": 2}\n')
    git(repo, "add", "-A")
    assert message_hooks.run("git", "commit", "-qm", "a person bumps the lock file").returncode == 0
    assert message_hooks.run("git", "push", "-q", "origin", "main").returncode == 0
    # A revert made with no hook at all (hooks off for one command), then pushed from Claude's shell.
    assert message_hooks.run("git", "-c", "core.hooksPath=/dev/null", "revert", "--no-edit", "HEAD").returncode == 0
    pushed = message_hooks.run("git", "push", "origin", "main", env=AGENT_SHELL)
    assert pushed.returncode != 0, pushed.stdout + pushed.stderr
    out = pushed.stdout + pushed.stderr
    assert "GRD004" in out and "Claude Code pushes it: the push is made from its shell, which sets CLAUDECODE=1" in out
    # The same push from a person's shell passes.
    done = message_hooks.run("git", "push", "-q", "origin", "main")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.e2e
def test_a_remote_tracking_ref_an_agent_writes_itself_is_not_the_remotes(repo: Path, message_hooks: Installed) -> None:
    # The session-8 attack's H1: a lock-file commit made with plumbing (past every
    # commit hook), then `git update-ref refs/remotes/origin/zz HEAD`, made the commit
    # "one the remote has". No fetch or push set that ref: it is not the remote's word.
    git(repo, "checkout", "-q", "-b", "feat")
    write(repo, "package-lock.json", '{"evil": 1}\n')
    git(repo, "add", "-A")
    made = git(repo, "commit-tree", "-p", "main", "-m", "bump", git(repo, "write-tree").strip()).strip()
    git(repo, "reset", "-q", "--hard", made)
    git(repo, "update-ref", "refs/remotes/origin/zz", "HEAD")
    git(repo, "checkout", "-q", "main")
    commit_all(repo, {"README.md": "hello again\n"}, "docs")
    # pre-commit runs the push hook for the first ref that brings commits (main);
    # memcheck judges every local branch, feat's commit among them.
    pushed = message_hooks.run("git", "push", "origin", "main", "feat", env=AGENT_SHELL)
    assert pushed.returncode != 0, pushed.stdout + pushed.stderr
    out = pushed.stdout + pushed.stderr
    assert "GRD004" in out and "package-lock.json" in out and "the commit is on feat" in out
