"""Shared fixtures: real git repositories in temporary folders, an isolated $HOME
and git config, and the CLI both through click's runner and as a subprocess."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
from click.testing import CliRunner, Result
from hypothesis import settings

from memcheck.cli import cli

# Property tests draw the same examples on every machine and run, so the suite's
# verdict is the same everywhere (CI included); `HYPOTHESIS_PROFILE=explore` draws
# fresh examples each run, to look for new failures.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
FILELISTS = SHARED / "filelists"
SCHEMAS = SHARED / "schemas"


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    home = tmp_path_factory.mktemp("home")
    gitconfig = home / ".gitconfig-empty"
    gitconfig.write_text("")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name, value in {
        "GIT_AUTHOR_NAME": "Test",
        "GIT_AUTHOR_EMAIL": "test@example.com",
        "GIT_COMMITTER_NAME": "Test",
        "GIT_COMMITTER_EMAIL": "test@example.com",
    }.items():
        monkeypatch.setenv(name, value)
    for name in (
        "GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR", "MEMCHECK_JOBS",
        "PRE_COMMIT_FROM_REF", "PRE_COMMIT_TO_REF", "PRE_COMMIT_REMOTE_NAME", "PRE_COMMIT_REMOTE_URL", "PRE_COMMIT_REMOTE_BRANCH", "PRE_COMMIT_LOCAL_BRANCH",
        "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "CODEX_HOME",
    ):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    yield


def corpus_frontmatter() -> Iterator[tuple[Path, str]]:
    """(file, the text between its fences) for every corpus file with frontmatter."""
    from memcheck.document import parse

    for path in sorted(CORPUS.rglob("*.md")):
        if path.is_symlink() or not path.is_file():
            continue
        doc = parse(str(path), path.read_bytes())
        if doc.frontmatter is not None:
            yield path, "\n".join(doc.lines[1 : doc.frontmatter.end_line - 1])


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout


def write(root: Path, rel: str, text: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_bytes(text.encode("utf-8"))
    return path


def symlink_as_text(root: Path, rel: str, target: str) -> None:
    """A symlink as git checks it out with core.symlinks=false (Windows, some CI):
    a plain file holding the target's path, which the index records as a link (mode 120000)."""
    write(root, rel, target)
    blob = git(root, "hash-object", "-w", "--", rel).strip()
    git(root, "update-index", "--add", "--cacheinfo", f"120000,{blob},{rel}")


def memory(name: str, description: str, kind: str, body: str = "Body.\n", extra: str = "") -> str:
    """A memory file as seed 003's write_file writes it."""
    return f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n{extra}---\n\n{body}"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "-c", "init.defaultBranch=main", "init", "-q")
    return root


def run_cli(root: Path, *args: str, input: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The CLI as a user runs it: a real subprocess in the repository."""
    return subprocess.run(
        [sys.executable, "-m", "memcheck", *args],
        cwd=root,
        capture_output=True,
        text=True,
        input=input,
        env={**os.environ, **(env or {})},
    )


def invoke(root: Path, *args: str, monkeypatch: pytest.MonkeyPatch) -> Result:
    """The CLI through click's runner, from inside the repository."""
    monkeypatch.chdir(root)
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def check_json(root: Path, *args: str) -> list[dict[str, Any]]:
    """`memcheck check --format json` as a subprocess: its problems, after checking
    that it ran cleanly (exit 0 or 1, nothing on stderr)."""
    proc = run_cli(root, "check", "--format", "json", *args)
    assert proc.returncode in (0, 1) and proc.stderr == "", proc.stderr
    problems: list[dict[str, Any]] = json.loads(proc.stdout)["problems"]
    # Exit 1 when an error is found; warnings are shown but pass (the default fail-on).
    assert (proc.returncode == 1) == any(p["severity"] == "error" for p in problems)
    return problems


def fix_json(root: Path, *args: str) -> tuple[int, dict[str, Any]]:
    """`memcheck fix --format json` as a subprocess: its exit code and report, after
    checking that it ran cleanly (exit 0 or 1, nothing on stderr)."""
    proc = run_cli(root, "fix", "--format", "json", *args)
    assert proc.returncode in (0, 1) and proc.stderr == "", proc.stderr
    report: dict[str, Any] = json.loads(proc.stdout)
    return proc.returncode, report


def index_findings(root: Path, index: str, code: str | None = None) -> list[dict[str, Any]]:
    """What `check` reports about one MEMORY.md (only ``code``'s findings, if given)."""
    return [p for p in check_json(root) if p["path"] == index and (code is None or p["code"] == code)]


def unlisted(root: Path, index: str) -> set[str]:
    """The memory files `check` reports the index does not list (IDX003)."""
    prefix, suffix = "memory file ", " is not listed in "
    return {str(p["message"]).removeprefix(prefix).partition(suffix)[0] for p in index_findings(root, index, "IDX003")}
