"""`memcheck index STORE`: print the index `fix` would write, or explain the choice."""
from __future__ import annotations

import sys

from memcheck.checks.index import store_plan
from memcheck.config import Config, ConfigError
from memcheck.discover import Workspace, relative_path


def run(config: Config, store_path: str, explain: bool) -> int:
    ws = Workspace(config)
    rel = relative_path(ws.root, store_path)
    if rel is not None and rel.endswith("MEMORY.md"):
        rel = rel.rpartition("/")[0]
    store = next((s for s in ws.stores if s.folder == rel), None)
    if store is None:
        known = ", ".join(s.folder or "." for s in ws.stores) or "none found"
        raise ConfigError(f"{store_path} is not a memory store (stores here: {known})")
    existing = ws.document(store.index).text if store.has_index else None
    plan = store_plan(ws, store, existing)
    if explain:
        print(f"{store.index}: {plan.reason}")
        if existing is None:
            changed = "fix would write it"
        else:
            changed = "already up to date" if existing == plan.text else "fix would rewrite it"
        print(f"{store.index}: {changed}")
    else:
        sys.stdout.write(plan.text)
    return 0
