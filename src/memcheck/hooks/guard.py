"""`memcheck guard`: fail when a change touches a guarded path (SPEC §6).

The changes come from the first of these that applies: paths named on the command
line or read with ``--paths-from``; a range (``--base``/``--head``); pre-push refs
(pre-commit's ``PRE_COMMIT_FROM_REF``/``PRE_COMMIT_TO_REF``); the staged changes.
Deletions and rename sources never reach a hook's file list, so the default mode
reads the staged diff itself.
"""
from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import BinaryIO, NamedTuple, Sequence

from memcheck import git
from memcheck.checks.guard import RULES, Guard, findings, guarded_tree, symlink_blobs, touches_guarded
from memcheck.config import Config, ConfigError, selected
from memcheck.git import SYMLINK_MODE, TREE_MODE, Change
from memcheck.hooks.report import drop_path_ignores, report
from memcheck.problem import Problem, shown


class Request(NamedTuple):
    """What the command line asked for."""

    paths: tuple[str, ...] = ()
    paths_from: str | None = None  # a file, or "-" for standard input
    base: str | None = None
    head: str | None = None


def split_path_list(data: bytes) -> list[str]:
    """A list of paths, NUL-separated when it holds a NUL, else one per line."""
    if b"\0" in data:
        names = data.split(b"\0")
    else:
        names = [line.rstrip(b"\r") for line in data.split(b"\n")]
    return [git.decode_name(name) for name in names if name]


def _read_path_list(source: str, stdin: BinaryIO | None) -> list[str]:
    if source == "-":
        return split_path_list((stdin or sys.stdin.buffer).read())
    try:
        return split_path_list(Path(source).read_bytes())
    except OSError as e:
        raise ConfigError(f"--paths-from {source}: cannot read: {e.strerror}") from None


def _listed(names: Sequence[str], root: Path, cwd: Path) -> tuple[list[Change], dict[str, str]]:
    """Named paths as changes, relative to the repository root; symlinks on disk keep their targets."""
    changes: list[Change] = []
    targets: dict[str, str] = {}
    for name in names:
        full = os.path.normpath(os.path.join(cwd, name))
        rel = Path(os.path.relpath(full, root)).as_posix()
        if os.path.islink(full):
            targets[f"path:{rel}"] = os.readlink(full)
            changes.append(Change("", rel, new_mode=SYMLINK_MODE, new_blob=f"path:{rel}"))
        else:
            changes.append(Change("", rel, new_mode=TREE_MODE if os.path.isdir(full) else ""))
    return changes, targets


def _range(request: Request, env: dict[str, str]) -> tuple[str, str] | None:
    if request.base or request.head:
        if not request.base:
            raise ConfigError("--head needs --base: the range is judged from their merge base")
        return request.base, request.head or "HEAD"
    from_ref, to_ref = env.get("PRE_COMMIT_FROM_REF"), env.get("PRE_COMMIT_TO_REF")
    if from_ref:
        return from_ref, to_ref or "HEAD"
    return None


def _git_changes(root: Path, request: Request, env: dict[str, str], config: Config) -> tuple[list[Change], dict[str, str], Guard]:
    refs = _range(request, env)
    if refs:
        reader = git.RangeReader(root, *refs)  # git starts on the range...
        guard = Guard(config.guard)  # ...while the patterns are compiled
        changes = reader.read(while_reading=guard.judge)
    else:
        guard = Guard(config.guard)
        changes = git.staged_changes(root)
    blobs = git.read_blobs(root, symlink_blobs(changes))
    targets = {sha: git.decode_name(content) for sha, content in blobs.items()}
    if refs:
        # A range is read without rename detection (see git._RANGE_OPTIONS): commits
        # whose additions or deletions are findings are read again with it, so a
        # finding says "renamed from notes.txt" rather than "added".
        commits = {c.commit for c in changes if c.status in ("A", "D") and touches_guarded(c, guard, targets)}
        changes = git.with_renames(root, changes, commits)
    return changes, targets, guard


def _enabled(config: Config) -> set[str]:
    """GRD rules left on. A ``select`` naming no GRD rule is a lint selection: it must
    not silently switch the gate off, so only ``ignore`` applies then."""
    codes = [r.code for r in RULES]
    if not any(code.startswith(s) or s == "ALL" for s in config.select for code in codes):
        config = dataclasses.replace(config, select=())
    return selected(codes, config)


def changes_for(config: Config, request: Request, cwd: Path, stdin: BinaryIO | None = None) -> tuple[list[Change], dict[str, str], Guard]:
    """What the request names, symlink targets by blob, and the guard to judge them."""
    if request.paths or request.paths_from:
        if request.base or request.head:
            raise ConfigError("give paths or --base/--head, not both")
        names = list(request.paths)
        if request.paths_from:
            names += _read_path_list(request.paths_from, stdin)
        return (*_listed(names, config.root, cwd), Guard(config.guard))
    return _git_changes(git.toplevel(cwd), request, dict(os.environ), config)


def check(config: Config, request: Request, cwd: Path, stdin: BinaryIO | None = None) -> list[Problem]:
    changes, targets, guard = changes_for(config, request, cwd, stdin)
    enabled = _enabled(config)
    problems = {p for p in findings(changes, guard, targets) if p.code in enabled}
    return sorted(drop_path_ignores(problems, config))


def list_tree(config: Config, cwd: Path, fmt: str) -> int:
    """What in the tree is guarded today, by category."""
    guard = Guard(config.guard)
    tree = guarded_tree(git.tracked_files(git.toplevel(cwd)), guard)
    if fmt == "json":
        doc = {name: [{"path": p, "pattern": pat} for p, pat in rows] for name, rows in tree.items()}
        sys.stdout.write(json.dumps({"categories": doc, "total": sum(map(len, tree.values()))}, ensure_ascii=False, indent=2) + "\n")
        return 0
    for name, rows in tree.items():
        sys.stdout.write(f"{name} ({len(rows)})\n")
        sys.stdout.writelines(f"  {shown(path)}  [{pattern}]\n" for path, pattern in rows)
    total = sum(map(len, tree.values()))
    sys.stdout.write(f"{total} guarded path{'' if total == 1 else 's'} in {len(tree)} categor{'y' if len(tree) == 1 else 'ies'}.\n" if total else "No guarded paths in the tree.\n")
    return 0


def run(config: Config, request: Request, fmt: str = "text", list_only: bool = False, stdin: BinaryIO | None = None) -> int:
    cwd = Path.cwd()
    if list_only:
        return list_tree(config, cwd, fmt)
    problems = check(config, request, cwd, stdin)
    report(problems, fmt, command="guard")
    return 1 if problems else 0
