"""IDX: MEMORY.md indexes.

Agents load a store's MEMORY.md into every session and open the memory files it
lists on demand. These rules keep the index and the store in agreement and within
the size agents actually load (200 lines, 25,000 bytes by default).

One module per rule (``caps`` holds IDX007-009 and ``links`` IDX002, IDX004 and
IDX005); this package's ``check_store`` is the family's one pass over a store: the
gates (an index that is missing, links out, or cannot be read stops the rules after
it), then the index judged (``judged``: kept from an earlier run where its memories
and text are unchanged), then IDX013 over what that found.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.checks.index import (
    caps,
    ignored_index,
    index_encoding,
    index_out_of_date,
    index_symlink,
    index_symlink_outside,
    links,
    missing_index,
    placeholder_description,
    unlisted_memory,
    unreadable_index,
)
from memcheck.checks.index.caps import IDX007, IDX008, IDX009
from memcheck.checks.index.ignored_index import IDX012
from memcheck.checks.index.index_encoding import IDX010
from memcheck.checks.index.index_out_of_date import IDX006
from memcheck.checks.index.index_symlink import IDX013
from memcheck.checks.index.index_symlink_outside import IDX014
from memcheck.checks.index.links import IDX002, IDX004, IDX005
from memcheck.checks.index.missing_index import IDX001
from memcheck.checks.index.placeholder_description import IDX015
from memcheck.checks.index.unlisted_memory import IDX003
from memcheck.checks.index.unreadable_index import IDX011
from memcheck.index.store import memories_key
from memcheck.problem import contained
from memcheck.text.blobs import content_key
from memcheck.workspace.derived import findings_kept, kept_findings

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.stores import Store
    from memcheck.workspace.targets import Targets

RULES = (IDX001, IDX002, IDX003, IDX004, IDX005, IDX006, IDX007, IDX008, IDX009, IDX010, IDX011, IDX012, IDX013, IDX014, IDX015)


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    for store in targets.stores:
        yield from contained(IDX011, store.index, check_store(ws, store))


def check_store(ws: Workspace, store: Store) -> Iterator[Problem]:
    """A store's index rules, in order: each gate stops the rules after it."""
    path = store.index
    if not store.has_index:
        gate = unreadable_index.special(ws, path) or index_symlink_outside.check(ws, path) or unreadable_index.odd(ws, path)
        yield gate or missing_index.check(ws, store)
        return
    ignored = ignored_index.check(ws, path)
    if ignored is not None:
        yield ignored
    doc = ws.document(path)
    unreadable = unreadable_index.check(doc)
    if unreadable is not None:
        yield unreadable
        return
    linked = ws.on_disk("islink", path)
    found = ws.remembered(
        lambda: f"index\0{path}\0{content_key(doc)}\0{memories_key(ws, store)}\0{store.by_glob}\0{store.judged}\0{store.outside}",
        lambda: judged(ws, store, doc),
        kept_findings,
        findings_kept,
        covers=(path, *store.files, *store.own),
    )
    yield from index_symlink.wrap(ws, path, found) if linked else found


def judged(ws: Workspace, store: Store, doc: Document) -> list[Problem]:
    """What the rules after the gates find in the index ``doc`` against the store's
    memories, judged afresh (not kept from an earlier run), in order."""
    # The index engine is imported here, where an index is judged afresh, not with the
    # package: it is a tenth of a commit hook's imports, and a store whose index is
    # kept from an earlier run never needs it.
    from memcheck.checks.index.state import IndexState

    state = IndexState(ws, store, doc)
    found: list[Problem] = []
    encoding = index_encoding.check(state)
    if encoding is not None:
        found.append(encoding)
    found += caps.check(ws, state)
    if state.own_render():
        return found  # every entry links to its own memory file, once: nothing more to find
    found += links.check(ws, store, state)
    found += unlisted_memory.check(ws, store, state)
    holes = placeholder_description.check(state)
    if holes is not None:
        found.append(holes)
    stale = index_out_of_date.check(store, state, found)  # after the others: it reads what they found
    if stale is not None:
        found.append(stale)
    return found
