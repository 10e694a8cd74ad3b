"""A store's own documents: files named in capitals without a memory field beside the
memories (SOUL.md, USER.md, an agent harness's identity files, loaded by name and not
through MEMORY.md). They are no memories: no memory or index rule reads them and fix
never lists them. They are agent files all the same: the secret and hidden-text rules
read them, and the commit hooks see a change to one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import commit_all, cpu_limit, git, memory, run_cli, write
from test_secrets import TOKENS

# Each layout: where the store is, and the settings that make it one (none: its
# MEMORY.md does; a store the settings name has none yet).
LAYOUTS = [
    pytest.param("memory", None, id="store-found-by-its-MEMORY.md"),
    pytest.param("agents/ops/memory", "memory:\n  stores: ['agents/*/memory']\n", id="store-named-by-a-glob"),
]


def a_store(root: Path, folder: str = "memory", settings: str | None = None) -> None:
    write(root, f"{folder}/review.md", memory("review", "Concise reviews", "user"))
    if settings is None:
        write(root, f"{folder}/MEMORY.md", "# Memory\n\n## User\n- [Review](review.md) - Concise reviews\n")
    else:
        write(root, ".memcheck.yaml", settings)
    write(root, f"{folder}/SOUL.md", "# Soul\n\nBe kind and brief.\n")


def found(root: Path, *args: str) -> tuple[int, list[tuple[str, str]]]:
    proc = run_cli(root, *args, "--format", "json")
    assert proc.stderr == "", proc.stderr
    return proc.returncode, [(p["path"], p["code"]) for p in json.loads(proc.stdout)["problems"]]


@pytest.mark.parametrize(("folder", "settings"), LAYOUTS)
def test_the_commit_hook_reports_a_token_staged_into_soul_md(repo: Path, folder: str, settings: str | None) -> None:
    a_store(repo, folder, settings)
    commit_all(repo)
    write(repo, f"{folder}/SOUL.md", f"# Soul\n\nBe kind and brief.\nDeploy with {TOKENS['github']}\n")
    git(repo, "add", f"{folder}/SOUL.md")
    assert found(repo, "check", "--changed") == (1, [(f"{folder}/SOUL.md", "SEC002")])


@pytest.mark.parametrize(("folder", "settings"), LAYOUTS)
def test_new_since_reports_a_token_a_commit_put_in_soul_md(repo: Path, folder: str, settings: str | None) -> None:
    a_store(repo, folder, settings)
    commit_all(repo)
    write(repo, f"{folder}/SOUL.md", f"# Soul\n\nDeploy with {TOKENS['gitlab']}\n")
    commit_all(repo, "a token")
    assert found(repo, "check", "--new-since", "HEAD~1") == (1, [(f"{folder}/SOUL.md", "SEC002")])


def test_the_commit_hook_reports_hidden_text_staged_into_user_md(repo: Path) -> None:
    a_store(repo)
    commit_all(repo)
    write(repo, "memory/USER.md", "# User\n\nPrefers short answers.\u200b\u200c\u200b\u200d\u200b\u200c\n")
    git(repo, "add", "memory/USER.md")
    assert found(repo, "check", "--changed") == (1, [("memory/USER.md", "HID003")])


def test_fix_never_lists_soul_md_and_reports_its_token(repo: Path) -> None:
    a_store(repo)
    write(repo, "memory/SOUL.md", f"# Soul\n\nDeploy with {TOKENS['github']}\n")
    write(repo, "memory/deploy.md", memory("deploy", "How to deploy", "reference"))
    (repo / "memory/USER.md").symlink_to("/proc/self/environ")
    commit_all(repo)
    proc = run_cli(repo, "fix", "--format", "json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert report["changes"]["memory/MEMORY.md"]["added"] == ["deploy.md"]
    assert [(p["path"], p["code"]) for p in report["problems"]] == [("memory/SOUL.md", "SEC002"), ("memory/USER.md", "MEM022")]
    index = (repo / "memory/MEMORY.md").read_text()
    assert "deploy.md" in index and "SOUL.md" not in index and "USER.md" not in index


# ---------------------------------------------------------------- hostile shapes


def _hostile(root: Path, shape: str, tmp_path: Path) -> None:
    soul = root / "memory/SOUL.md"
    if shape == "fifo":
        os.mkfifo(soul)
    elif shape == "link-to-a-folder-inside":
        write(root, "docs/notes.md", "# Notes\n")
        soul.symlink_to("../docs")
    elif shape == "link-to-a-folder-outside":
        soul.symlink_to(tmp_path)
    elif shape == "binary":
        soul.write_bytes(b"\x00\xff\xfe SOUL " + TOKENS["github"].encode() + b"\n\x00\x01")
    elif shape == "huge":  # 12 MB: read up to the 1 MiB every rule reads
        soul.write_bytes(b"# Soul\n\n" + TOKENS["github"].encode() + b"\n" + (b"Be kind. " * 11 + b"\n") * 120_000)


@pytest.mark.parametrize(
    ("shape", "on_soul"),
    [
        pytest.param("fifo", [], id="fifo"),
        pytest.param("link-to-a-folder-inside", [], id="link-to-a-folder-inside"),
        pytest.param("link-to-a-folder-outside", ["MEM022"], id="link-to-a-folder-outside"),
        # Read as an agent reads it: the NUL and the invalid bytes as U+FFFD; and said
        # to be unreadable (MEM001), as what is past the first MiB of the huge one is.
        pytest.param("binary", ["MEM001", "SEC002", "HID005"], id="binary"),
        pytest.param("huge", ["MEM001", "SEC002"], id="huge"),
    ],
)
def test_a_hostile_soul_md_gives_the_same_clean_run_each_time(repo: Path, tmp_path: Path, shape: str, on_soul: list[str]) -> None:
    # Beside it, USER.md with a token: what SOUL.md is never keeps the store's other
    # own documents from being read.
    a_store(repo)
    (repo / "memory/SOUL.md").unlink()
    _hostile(repo, shape, tmp_path)
    write(repo, "memory/USER.md", f"# User\n\nThe user's token: {TOKENS['gitlab']}\n")
    with cpu_limit(30, f"a check of a SOUL.md that is {shape}"):
        first = run_cli(repo, "check", "--format", "json")
        again = run_cli(repo, "check", "--format", "json", "--no-cache")
    assert first.stderr == "" and "Traceback" not in first.stdout, first.stderr
    assert (first.returncode, first.stdout) == (again.returncode, again.stdout)
    problems = [(p["path"], p["code"]) for p in json.loads(first.stdout)["problems"]]
    assert problems == [*(("memory/SOUL.md", code) for code in on_soul), ("memory/USER.md", "SEC002")]
