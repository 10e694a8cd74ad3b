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
from typing import Any, NamedTuple, Sequence

from memcheck import document
from memcheck import index as idx
from memcheck.checks.index import cap_lines, loaded_lines, store_exists, store_memories, store_plan
from memcheck.config import Config
from memcheck.discover import Store, Workspace
from memcheck.hooks.lint import Targets, collect, find, finish, targets_for
from memcheck.hooks.report import destination, report
from memcheck.problem import Problem, failing


class UnsafeWrite(Exception):
    pass


def safe_target(root: Path, rel: str) -> Path:
    """The path to write, refusing symlinks and anything that resolves outside root."""
    path = root / rel
    if path.is_symlink():
        raise UnsafeWrite(f"{rel} is a symlink; not writing through it")
    try:
        special = document.special_kind(path.lstat().st_mode)
    except FileNotFoundError:
        special = None
    if special is not None:
        raise UnsafeWrite(f"{rel} is {special}, not a regular file; not replacing it")
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


class Fixed(NamedTuple):
    """One index ``fix`` wrote, and what it changed there."""

    path: str
    changes: idx.Changes
    past_cap: tuple[str, ...]  # memory files whose new entry agents never load


class Planned(NamedTuple):
    """What ``fix`` would write to one index, and from what."""

    text: bytes
    plan: idx.Plan
    existing: str | None
    memories: list[idx.Memory]


def planned(ws: Workspace, store: Store) -> Planned | None:
    """What ``fix`` would write to the store's index; None when it is right already
    (or unreadable: reported by IDX011, never overwritten)."""
    current: bytes | None = None
    existing: str | None = None
    if store.has_index:
        doc = ws.document(store.index)
        if doc.error is not None:
            return None
        existing = doc.text
        # Without a BOM or CRLF, the decoded text encodes back to the file's exact
        # bytes: no second read. With either, the normalised plan always differs.
        current = None if doc.bom or doc.crlf else existing.encode("utf-8")
    memories = store_memories(ws, store)
    plan = store_plan(ws, store, existing, memories)
    new = plan.text.encode("utf-8")
    return None if new == current else Planned(new, plan, existing, memories)


def fix_store(ws: Workspace, store: Store) -> Fixed | None:
    """Rewrite the store's index if it differs from its plan; what it did, if it wrote."""
    new = planned(ws, store)
    if new is None:
        return None
    atomic_write(safe_target(ws.root, store.index), new.text)
    changes = idx.changes_of(new.plan, new.existing, new.memories, store_exists(ws, store))
    cfg = ws.config.index
    loaded = loaded_lines(cap_lines(new.plan.text), cfg.max_lines, cfg.max_bytes)
    return Fixed(store.index, changes, tuple(name for name, line in changes.added if line > loaded))


def unified_diff(ws: Workspace, store: Store, new: bytes) -> str:
    """What writing ``new`` would change, as ``git diff`` shows it (``a/`` and ``b/``
    prefixes, ``/dev/null`` for a new index, the "No newline" marker)."""
    import difflib

    old = (ws.root / store.index).read_bytes() if store.has_index else b""
    a = old.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    b = new.decode("utf-8").splitlines(keepends=True)
    where = store.index
    lines = difflib.unified_diff(a, b, "a/" + where if store.has_index else "/dev/null", "b/" + where)
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def run(
    config: Config,
    paths: Sequence[str] | None,
    fmt: str = "text",
    exit_non_zero_on_fix: bool = False,
    *,
    deleted: Sequence[str] = (),
    diff: bool = False,
    output_file: str | None = None,
) -> int:
    if paths is not None and not paths and not deleted:
        targets = Targets([], [], [])  # a change that touches nothing
        ws = Workspace(config, files=[])
    else:
        ws = Workspace(config)
        targets = targets_for(ws, paths, deleted=deleted)
    if diff:
        return _show_diff(ws, targets, output_file)
    fixed: list[Fixed] = []
    found: set[Problem] = set()
    for store in targets.stores:
        try:
            done = fix_store(ws, store)
            if done is not None:
                fixed.append(done)
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
        problems = collect(after, targets_for(after, paths, deleted=deleted))
    else:
        problems = finish(config, found | find(ws, Targets([], targets.guidance, targets.skills)))
    with destination(output_file) as out:
        report(problems, fmt, out, fixed=[f.path for f in fixed], command="fix", changes={f.path: describe(f, config) for f in fixed})
    # An entry fix added where agents never read it is not a fix: say so, and fail,
    # whatever rules are selected.
    if failing(problems, config.fail_on) or any(f.past_cap for f in fixed) or (fixed and exit_non_zero_on_fix):
        return 1
    return 0


def describe(fixed: Fixed, config: Config) -> dict[str, Any]:
    """What ``fix`` did to one index, for the reporters."""
    cap = config.index
    return {**changes_record(fixed.changes), "past_cap": list(fixed.past_cap), "caps": {"lines": cap.max_lines, "bytes": cap.max_bytes}}


def changes_record(changes: idx.Changes) -> dict[str, Any]:
    return {
        "added": sorted(name for name, _line in changes.added),
        "repointed": [{"from": old, "to": new} for old, new in changes.repointed],
        "removed": list(changes.removed),
    }


def _show_diff(ws: Workspace, targets: Targets, output_file: str | None) -> int:
    """``fix --diff``: print what fix would write, write nothing; 1 when there is
    something to fix. The count goes to standard error, so the diff alone can be
    piped to ``git apply``."""
    changed = 0
    with destination(output_file) as out:
        for store in targets.stores:
            new = planned(ws, store)
            if new is not None:
                out.write(unified_diff(ws, store, new.text))
                changed += 1
            ws.forget([*store.files, store.index])
    if changed:
        print(f"memcheck: fix would rewrite {changed} index{'es' if changed != 1 else ''}", file=sys.stderr)
    return 1 if changed else 0
