"""IDX: MEMORY.md indexes (SPEC §4, §5).

Agents load a store's MEMORY.md into every session and open the memory files it
lists on demand. These rules keep the index and the store in agreement and within
the size agents actually load (200 lines, 25,000 bytes by default).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

# The family's rules (every family module holds its RULES), written in rules.py.
from memcheck.checks.index.rules import (  # noqa: F401
    IDX001,
    IDX002,
    IDX003,
    IDX004,
    IDX005,
    IDX006,
    IDX007,
    IDX008,
    IDX009,
    IDX010,
    IDX011,
    IDX012,
    IDX013,
    IDX014,
    IDX015,
    RULES,
)
from memcheck.index.store import index_elsewhere, memories_key, move_advice, odd_index
from memcheck.problem import Problem, contained
from memcheck.text.blobs import content_key
from memcheck.workspace.discover import findings_kept, kept_findings
from memcheck.workspace.links_out import leads_to
from memcheck.workspace.stores import INDEX_NAME

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.stores import Store
    from memcheck.workspace.targets import Targets


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    for store in targets.stores:
        yield from contained(IDX011, store.index, check_store(ws, store))


def check_store(ws: Workspace, store: Store) -> Iterator[Problem]:
    path = store.index
    if not store.has_index:
        special = ws.special_kind(path)
        if special is not None:
            yield IDX011.at(path, 1, 1, f"{INDEX_NAME} is {special}, not a regular file; not read (agents cannot load it either): replace it with a file")
            return
        target = ws.link_out(path)
        if target is not None:
            yield IDX014.at(
                path, 1, 1,
                f"{INDEX_NAME} is a symlink to {leads_to(ws, path, target)}: agents load the index at the start of every session, so they read that file; "
                "memcheck does not follow it; make MEMORY.md a regular file in the repository (remove the link, then `memcheck fix` writes one)",
            )
            return
        odd = odd_index(ws, path)
        if odd is not None:
            yield IDX011.at(path, 1, 1, f"{INDEX_NAME} is {odd}; `memcheck fix` will not write through or replace it: make it a regular file")
            return
        if ws.staged is not None and ws.on_disk("is_file", path):  # judging a commit (see workspace.staged.StagedFiles)
            yield IDX001.at(path, 1, 1, f"{path} is not staged: the commit holds memories of {store.folder or '.'}/ without their index; `git add {path}`")
        elif (elsewhere := index_elsewhere(ws, store)) is not None:
            # fix leaves it: a second index here would leave the curated one behind.
            message = f"memory store {store.folder or '.'}/ has no {INDEX_NAME}, but {move_advice(elsewhere, path)}"
            yield IDX001.at(path, 1, 1, message)._replace(fixable=False)
        else:
            yield IDX001.at(path, 1, 1, f"memory store {store.folder or '.'}/ has no {INDEX_NAME}; run `memcheck fix` to write it")
        return
    if ws.ignores(path):
        yield IDX012.at(path, 1, 1, f"git ignores {path}, so other clones get the memories without their index; commit it: `git add -f {path}`")
    doc = ws.document(path)
    if doc.error is not None:
        yield IDX011.at(path, doc.error_line, 1, f"{INDEX_NAME} {doc.error}")
        return
    linked = ws.on_disk("islink", path)
    found = ws.remembered(
        lambda: f"index\0{path}\0{content_key(doc)}\0{memories_key(ws, store)}\0{store.by_glob}\0{store.judged}\0{store.outside}",
        lambda: list(_judged(ws, store, doc)),
        kept_findings,
        findings_kept,
        covers=(path, *store.files),
    )
    if linked and any(p.fixable for p in found):
        # fix never writes through a symlink: say so once, and claim nothing is fixable.
        target = ws.link_target(path)
        found = [p._replace(fixable=False) for p in found]
        found.append(IDX013.at(path, 1, 1, f"{INDEX_NAME} is a symlink to {target}; `memcheck fix` does not write through symlinks: edit {target}, or replace the link with a file"))
    yield from found



def _judged(ws: Workspace, store: Store, doc: Document) -> Iterator[Problem]:
    from memcheck.checks.index import judge

    return judge.judge_index(ws, store, doc)
