"""The in-memory tier of the guard (``judge_paths``) against git: every path of its
tables staged at once in a real repository, and every commit of its range tables
made in one, give through the CLI what ``judge_paths`` gives for the same changes,
finding for finding, message for message. What the tables assert is in
tests/unit/test_guard_judged_paths.py and tests/unit/test_guard_judged_agents.py;
this holds them to what a user sees."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

from conftest import Judged, commit, commit_text, git, judge_paths, link_added, run_cli, write
from test_guard_judged_agents import CLAUDE_TRAILER, LOCKFILES, SQUASHED, bumped
from test_guard_judged_paths import INVISIBLE, PROCESS_VIEWS, RUNS_COMMANDS, SECRET_FILES, SECRET_LOCATIONS, WHOLE_PLACES

ORDINARY_FOLDERS = ["docs", "../repo/docs", "/usr/share/doc", "/etc-notes", "/homework", "shared/.."]


def guarded(root: Path, *args: str, env: dict[str, str] | None = None) -> Judged:
    proc = run_cli(root, "guard", "--format", "json", *args, env=env)
    assert proc.returncode in (0, 1) and proc.stderr == "", proc.stderr
    return Judged(proc.returncode, [(p["path"], p["code"], p["message"]) for p in json.loads(proc.stdout)["problems"]])


def staged_tables() -> tuple[list[str], dict[str, str]]:
    """The files and the symlinks (path -> target) of the in-memory tables."""
    files = [*RUNS_COMMANDS, *SECRET_FILES, *(path for path, _ in INVISIBLE), "locales/en/auth.json"]
    links = {"s3": "/home/me/.s3cfg", "e": "/etc", "c": "e/shadow"}
    links.update({f".claude/memory/runtime-{i}.md": target for i, target in enumerate(SECRET_LOCATIONS)})
    links.update({f"h-{i}": case.values[0] for i, case in enumerate(WHOLE_PLACES)})
    links.update({f"o-{i}": target for i, target in enumerate(ORDINARY_FOLDERS)})
    links.update({f"notes-{i}.txt": target for i, target in enumerate(PROCESS_VIEWS)})
    return files, links


def test_the_staged_tables_judged_in_memory_are_what_git_gives(repo: Path) -> None:
    commit(repo, {"README.md": "x\n", "docs/a.md": "a\n", "shared/b.md": "b\n"}, "init")
    files, links = staged_tables()
    for path in files:
        write(repo, path, "echo hi\n")
    for path, target in links.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, repo / path)
    git(repo, "add", "-A")
    changes = [*files, *(link_added(path, target) for path, target in links.items())]
    for env in ({}, {"CLAUDECODE": "1"}):
        expected = judge_paths(*changes, env=env)
        assert guarded(repo, env=env) == expected
        assert len(expected.problems) > len(SECRET_FILES) + len(SECRET_LOCATIONS)  # (what the tables stop, stopped)


def _ranges_alike(judged: Judged) -> Judged:
    """A range's findings with its commits' names left out: the in-memory commits have none of git's."""
    return judged._replace(problems=[(p, c, re.sub(r" in [0-9a-f]{7}\b", " in <commit>", m)) for p, c, m in judged.problems])


# Who makes each commit of the range: (author, committer, message), and the lock file it bumps.
PERSON = "Test <test@example.com>"
COMMITS = [
    *((PERSON, PERSON, "bump" + CLAUDE_TRAILER, path) for path in LOCKFILES),
    ("Claude <noreply@anthropic.com>", PERSON, "bump deps", "a/package-lock.json"),
    (PERSON, "Codex <noreply@openai.com>", "bump deps", "b/package-lock.json"),
    ("aider (gpt-5) <aider@aider.chat>", PERSON, "bump deps", "c/package-lock.json"),
    (PERSON, "Copilot <223556219+Copilot@users.noreply.github.com>", "bump deps", "h/package-lock.json"),
    (PERSON, PERSON, "bump deps\n\nAssisted-by: Claude:claude-opus-4 coccinelle", "d/package-lock.json"),
    (PERSON, PERSON, "bump deps\n\nCo-developed-by: Claude <noreply@anthropic.com>", "e/package-lock.json"),
    (PERSON, PERSON, "bump deps\n\nCo-developed-by: Ana <ana@example.com>\nSigned-off-by: Alex <alex@example.com>", "f/package-lock.json"),
    (PERSON, PERSON, SQUASHED["indented"], "g/package-lock.json"),
]


def test_the_range_tables_judged_in_memory_are_what_git_gives(repo: Path) -> None:
    commit(repo, {"README.md": "x\n", **{path: "1\n" for *_, path in COMMITS}}, "init")
    # Every commit of the range in one git process, each with its own author and committer.
    stream = ["reset refs/heads/feature", "from refs/heads/main"]
    expected: list[tuple[str, str, str]] = []
    for author, committer, message, path in COMMITS:
        data = message.encode()
        stream += [
            "commit refs/heads/feature",
            f"author {author} 1700000000 +0000",
            f"committer {committer} 1700000000 +0000",
            f"data {len(data)}\n{message}",
            f"M 100644 inline {path}\ndata 2\n2\n",
        ]
        expected += judge_paths(bumped(path), commit=commit_text(message, author, committer)).problems
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input="\n".join(stream) + "\n", text=True, check=True)
    judged = guarded(repo, "--base", "main", "--head", "feature")
    assert _ranges_alike(judged) == _ranges_alike(Judged(1, sorted(expected)))
    assert len(judged.problems) == len(COMMITS) - 1  # (all but the people's trailers)
