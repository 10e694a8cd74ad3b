"""`memcheck index STORE`: print the index `fix` would write, or explain the choice."""

from __future__ import annotations

import os
import sys

from memcheck.config import Config, ConfigError
from memcheck.hooks.fix import changes_record
from memcheck.hooks.options import config_for
from memcheck.index.plan import changes_of
from memcheck.index.store import index_elsewhere, move_advice, store_exists, store_memories, store_plan
from memcheck.output.text import what_changed
from memcheck.paths import parent
from memcheck.problem import escaped, shown
from memcheck.workspace.discover import Workspace, relative_path


def run(store_path: str, explain: bool, config_file: str | None) -> int:
    """The command as the command line gives it. A store that does not exist is said
    so, with the stores there are (the settings are then the working folder's)."""
    return show(config_for(config_file, (store_path,) if os.path.lexists(store_path) else ()), store_path, explain)


def show(config: Config, store_path: str, explain: bool) -> int:
    """Print the index fix would write for the store at ``store_path``."""
    ws = Workspace(config)
    rel = relative_path(ws.root, store_path)
    if rel is not None and rel.endswith("MEMORY.md"):
        rel = parent(rel)
    store = next((s for s in ws.stores if s.folder == rel), None)
    if store is None:
        known = ", ".join(s.folder or "." for s in ws.stores) or "none found"
        what = "is not a memory store" if os.path.lexists(store_path) else "does not exist"
        raise ConfigError(f"{store_path} {what} (stores here: {known})")
    existing = ws.document(store.index).text if store.has_index else None
    memories = store_memories(ws, store)
    plan = store_plan(ws, store, existing, memories)
    if explain:
        print(f"{shown(store.index)}: {escaped(plan.reason)}")
        elsewhere = index_elsewhere(ws, store) if existing is None else None
        if elsewhere is not None:
            changed = move_advice(elsewhere, store.index)
        elif existing == plan.text:
            changed = "already up to date"
        else:
            changed = "fix would write it" if existing is None else "fix would rewrite it"
            done = what_changed(changes_record(changes_of(plan, existing, memories, store_exists(ws, store))))
            changed += f": {done}" if done else ""
        if plan.refused:
            n = len(plan.refused)
            names = ", ".join(plan.refused[:5]) + (f" and {n - 5} more" if n > 5 else "")
            changed += f"; {n} new {'entry does' if n == 1 else 'entries do'} not fit under the caps: {names}"
        print(f"{shown(store.index)}: {escaped(changed)}")
    else:
        sys.stdout.write(plan.text)
    return 0
