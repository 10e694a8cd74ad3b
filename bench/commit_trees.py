"""Small repositories for the commit path, start-up and guard figures of bench/run.py.

Unlike generate.py's trees these are cheap (seconds), so each run builds them afresh:

- ``store_repo``: one store of 600 memories with its index, 200 guidance files and
  20 skills, committed, then one memory edited and staged: the commit hooks' case.
- ``empty_repo``: a git repository with one source file and no agent file: start-up.
- ``staged_repo``: 10,000 new paths staged: guard before a commit of that size.

Deterministic: fixed contents, dates and identities.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

import generate

KINDS = ("user", "feedback", "project", "reference")
EDITED = ".claude/memory/project_topic_002.md"


def _fresh(root: Path) -> Path:
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    generate.git(root, "-c", "init.defaultBranch=main", "init", "-q")
    generate.git(root, "config", "gc.auto", "0")
    return root


def _write(root: Path, path: str, text: str) -> None:
    full = root / path
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_text(text, encoding="utf-8")


def store_repo(root: Path, memories: int = 600, guidance: int = 200, skills: int = 20) -> Path:
    """One store of ``memories`` memories (links between them, mentions of source
    files), guidance files beside source files, skills; committed; then one memory's
    body edited and staged, its index still right."""
    _fresh(root)
    lines = ["# Memory", ""]
    for i in range(memories):
        kind = KINDS[i % 4]
        name = f"{kind}_topic_{i:03d}.md"
        nxt = f"{KINDS[(i + 1) % 4]}_topic_{(i + 1) % memories:03d}"
        body = f"Topic {i}: see `src/mod{i % 20}/main.py` and [[{nxt}]].\n" * 5
        _write(
            root,
            f".claude/memory/{name}",
            f"---\nname: topic {i}\ndescription: notes on topic {i} for the team\ntype: {kind}\n---\n\n{body}",
        )
        lines.append(f"- [topic {i}]({name}) - notes on topic {i} for the team")
    _write(root, ".claude/memory/MEMORY.md", "\n".join(lines) + "\n")
    for i in range(guidance):
        folder = f"src/mod{i % 20}/pkg{i}"
        _write(root, f"{folder}/main.py", "x = 1\n")
        _write(
            root, f"{folder}/{'AGENTS.md' if i % 2 else 'CLAUDE.md'}", f"# Package {i}\n\nRun the tests before committing. See `main.py`.\n"
        )
    for i in range(skills):
        _write(
            root,
            f".claude/skills/skill-{i}/SKILL.md",
            f"---\nname: skill-{i}\ndescription: Use when working on part {i}.\n---\n\nDo part {i}.\n",
        )
    generate.git(root, "add", "-A")
    generate.git(root, "commit", "-q", "--no-verify", "-m", "base", date=1)
    with open(root / EDITED, "a", encoding="utf-8") as f:
        f.write("One more line.\n")
    generate.git(root, "add", "-A")
    return root


def next_commit(root: Path, number: int, memories: int = 600) -> None:
    """Commit what is staged (as a user would once the hooks pass), then edit another
    memory's body and stage it: the commit after, whose hooks find in the cache what
    the last commit's hooks checked."""
    generate.git(root, "commit", "-q", "--no-verify", "-m", f"commit {number}", date=2 + number)
    memory = 2 + 4 * (number % (memories // 4))  # a project memory each time, another one
    with open(root / f".claude/memory/project_topic_{memory:03d}.md", "a", encoding="utf-8") as f:
        f.write(f"Edit {number}.\n")
    generate.git(root, "add", "-A")


def empty_repo(root: Path) -> Path:
    _fresh(root)
    _write(root, "main.py", "print('hello')\n")
    generate.git(root, "add", "-A")
    generate.git(root, "commit", "-q", "--no-verify", "-m", "base", date=1)
    return root


def staged_repo(root: Path, paths: int = 10_000) -> Path:
    """A commit's worth of ``paths`` new files staged on top of a small history: a
    tenth Markdown, none of them guarded (guard exits 0)."""
    _fresh(root)
    _write(root, "README.md", "# Staged\n")
    generate.git(root, "add", "-A")
    generate.git(root, "commit", "-q", "--no-verify", "-m", "base", date=1)
    for i in range(paths):
        ext = "md" if i % 10 == 0 else "py"
        _write(root, f"pkg{i // 100:03d}/mod_{i:05d}.{ext}", f"# file {i}\n")
    generate.git(root, "add", "-A")
    return root


def staged_state(root: Path) -> tuple[str, str]:
    """(index tree id, `git status --porcelain`): what the tree is before a hook runs."""
    tree = subprocess.run(["git", "write-tree"], cwd=root, capture_output=True, text=True, check=True).stdout.strip()
    return tree, _status(root)


def _status(root: Path) -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def restore(root: Path, state: tuple[str, str]) -> bool:
    """Put the index and the work tree back to ``state`` (a fix that wrote an index,
    a test that staged something); True when anything had changed."""
    tree, status = state
    if _status(root) == status:
        return False
    subprocess.run(["git", "read-tree", tree], cwd=root, check=True)
    subprocess.run(["git", "checkout-index", "-a", "-f"], cwd=root, check=True)
    subprocess.run(["git", "clean", "-fdq"], cwd=root, check=True)
    return True


def precommit_config(path: Path, hooks: list[tuple[str, list[str]]]) -> Path:
    """A .pre-commit-config.yaml of `repo: local` hooks that run the given commands
    (absolute paths to an environment's console scripts) on every commit."""
    out = ["repos:", "- repo: local", "  hooks:"]
    for hook_id, argv in hooks:
        out += [
            f"  - id: {hook_id}",
            f"    name: {hook_id}",
            f"    entry: {json.dumps(shlex.join(argv))}",  # a JSON string is a YAML one: `true` stays a string
            "    language: system",
            "    pass_filenames: false",
            "    always_run: true",
        ]
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path
