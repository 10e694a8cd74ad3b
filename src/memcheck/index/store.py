"""The index engine applied to one store of a workspace: its memories, its disk, its plan.

The engine's functions take a store's memories and callbacks for the disk and git;
these build them from a ``Workspace``, the same way for ``memcheck check``, ``fix``
and ``memcheck index``, so each command judges a store as the others do.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Sequence

from memcheck.index.memory import memory_of
from memcheck.index.plan import plan
from memcheck.paths import basename, join

if TYPE_CHECKING:
    from memcheck.index.memory import Exists, Ignored, Memory
    from memcheck.index.plan import Plan
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.stores import Store


def store_memories(ws: Workspace, store: Store) -> list[Memory]:
    return [memory_of(basename(p), ws.document(p)) for p in store.files]


def store_exists(ws: Workspace, store: Store) -> Exists:
    """Whether a path relative to the store's folder names a file or folder on disk:
    git's listing first, then the disk (a folder, a file git ignores). A symlink git
    lists names something only when what it points at exists."""
    folder, files = store.folder, ws.file_set

    def exists(path: str) -> bool:
        full = join(folder, path) if path != "." else folder
        if full in files:
            return os.path.exists(os.path.join(ws.root, full))
        return ws.exists(full or ".")

    return exists


def store_ignored(ws: Workspace, store: Store) -> Ignored:
    """Of some paths relative to the store's folder, the ones git ignores."""

    def ignored(paths: Sequence[str]) -> set[str]:
        full = {join(store.folder, p): p for p in paths}
        return {full[p] for p in ws.ignored_by_git(full)}

    return ignored


def store_plan(ws: Workspace, store: Store, existing: str | None, memories: list[Memory] | None = None, exists: Exists | None = None) -> Plan:
    if memories is None:
        memories = store_memories(ws, store)
    cfg = ws.config
    return plan(
        existing,
        memories,
        store_exists(ws, store) if exists is None else exists,
        cfg.memory.types,
        cfg.index.mode,
        cfg.index.style,
        store_folder=store.folder,
        ignored=store_ignored(ws, store),
        caps=(cfg.index.max_lines, cfg.index.max_bytes),
    )


def odd_index(ws: Workspace, path: str) -> str | None:
    """What a store's MEMORY.md is, and what follows, when it is on disk but not a
    file memcheck reads and writes: a folder, a symlink that leaves the repository
    or points at nothing."""
    full = os.path.join(ws.root, path)
    if os.path.islink(full):
        target = os.readlink(full)
        if not os.path.exists(full):
            return f"a symlink to {target}, which does not exist: agents load no index from it"
        if not ws.is_inside_root(path):
            return f"a symlink to {target}, outside the repository: other clones get no index from it, and memcheck does not read it"
        if os.path.isdir(full):
            return f"a symlink to the folder {target}: agents load no index from it"
        return None
    if os.path.isdir(full):
        return "a folder, not a file: agents load no index from it"
    return None
