"""`memcheck fix`: make each MEMORY.md agree with its store, then report what is left.

Writes are atomic (a temporary file in the same folder, then a rename), keep the
file's mode, never go through a symlink or outside the repository, and happen only
when the bytes change. Memory files themselves are never written.
"""
from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Sequence

from memcheck.checks.index import store_plan
from memcheck.config import Config
from memcheck.discover import Store, Workspace
from memcheck.hooks.lint import Targets, collect, find, finish, targets_for
from memcheck.hooks.report import report
from memcheck.problem import Problem


class UnsafeWrite(Exception):
    pass


def safe_target(root: Path, rel: str) -> Path:
    """The path to write, refusing symlinks and anything that resolves outside root."""
    path = root / rel
    if path.is_symlink():
        raise UnsafeWrite(f"{rel} is a symlink; not writing through it")
    real_root = root.resolve()
    try:
        path.parent.resolve().relative_to(real_root)
    except ValueError:
        raise UnsafeWrite(f"{rel} resolves outside the repository; not writing it") from None
    return path


def atomic_write(path: Path, data: bytes) -> None:
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def fix_store(ws: Workspace, store: Store) -> bool:
    """Rewrite the store's index if it differs from its plan; True when written."""
    existing: str | None = None
    current: bytes | None = None
    if store.has_index:
        doc = ws.document(store.index)
        if doc.error is not None:
            return False  # unreadable: reported by IDX011, never overwritten
        existing = doc.text
        # Without a BOM or CRLF, the decoded text encodes back to the file's exact
        # bytes: no second read. With either, the normalised plan always differs.
        current = None if doc.bom or doc.crlf else existing.encode("utf-8")
    new = store_plan(ws, store, existing).text.encode("utf-8")
    if new == current:
        return False
    atomic_write(safe_target(ws.root, store.index), new)
    return True


def run(config: Config, paths: Sequence[str] | None, fmt: str = "text", exit_non_zero_on_fix: bool = False) -> int:
    ws = Workspace(config)
    targets = targets_for(ws, paths)
    fixed: list[str] = []
    found: set[Problem] = set()
    for store in targets.stores:
        try:
            if fix_store(ws, store):
                fixed.append(store.index)
        except (UnsafeWrite, OSError) as e:
            print(f"memcheck: not fixing {store.index}: {e}", file=sys.stderr)
        if not fixed:
            # Nothing written yet: the documents just read are still the tree, so
            # check the store now instead of reading it again (find() drops them).
            found |= find(ws, Targets([store], [], []))
        ws.forget([*store.files, store.index])
    if fixed:
        # Read the tree again after a write: what is left is what the user sees now.
        after = Workspace(config)
        problems = collect(after, targets_for(after, paths))
    else:
        problems = finish(config, found | find(ws, Targets([], targets.guidance, targets.skills)))
    report(problems, fmt, fixed=fixed, command="fix")
    if problems or (fixed and exit_non_zero_on_fix):
        return 1
    return 0
