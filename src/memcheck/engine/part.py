"""Checking one part of a run (a store, the guidance files, or the skills): every
family's findings, suppression comments applied, secrets scrubbed, the part's
documents dropped."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memcheck.engine.cache import Cache
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.targets import Check, Targets


def check_part(ws: Workspace, part: Targets, checks: list[Check], enabled: set[str], cache: Cache | None = None) -> set[Problem]:
    """The part's findings; with ``cache``, kept there with what the part read."""
    if cache is None:
        return _check_part(ws, part, checks, enabled)
    from memcheck.engine.cache import store_files
    from memcheck.engine.store_values import StoreValues

    tracker = cache.tracker
    # A store's memories: what is worked out from each one's content alone is kept too.
    kept = tracker.kept = StoreValues(cache, part.stores[0].folder) if len(part.stores) == 1 else None
    try:
        with tracker.part(store_files(part)) as frame:
            found = _check_part(ws, part, checks, enabled)
    finally:
        tracker.kept = None
    if kept is not None:
        kept.save()
    cache.keep(part, frame, found)
    return found


def _check_part(ws: Workspace, part: Targets, checks: list[Check], enabled: set[str]) -> set[Problem]:
    if not all(ws.is_store(store) for store in part.stores):
        for store in part.stores:
            ws.forget(store.all_files)
        part = part._replace(stores=[store for store in part.stores if ws.is_store(store)])
    found = {p for check in checks for p in check(ws, part) if p.code in enabled}
    return settle(ws, part, found, enabled)


def settle(ws: Workspace, part: Targets, found: set[Problem], enabled: set[str]) -> set[Problem]:
    """A part's findings, however they were found, with its suppression comments
    applied and secrets scrubbed (the language server gathers a part's findings file
    by file, and settles them here as a check would)."""
    # Imported here, not with the module: a run whose parts are all kept needs neither.
    from memcheck import suppression
    from memcheck.checks import secrets

    commented = _commented(ws, part, found)
    if commented:
        found = set(suppression.apply(found, commented, enabled))
    if found:
        # Whatever rule quoted a value, no secret leaves in a message (SEC ignored
        # or not); scrubbed while the part's documents are still in memory.
        found = set(secrets.scrub(found, ws, secrets.files_of(part, ws)))
    for store in part.stores:
        ws.forget(store.all_files)
    return found


def _commented(ws: Workspace, part: Targets, found: set[Problem]) -> dict[str, Document]:
    """The part's files (and the files its findings are on or about) that hold a
    suppression comment; the part's own are in memory already."""
    from memcheck.checks import secrets
    from memcheck.problem import about_files

    paths = set(secrets.files_of(part, ws))
    paths.update(p.path for p in found)
    paths.update(about for p in found for about in about_files(p))
    # Whether a memory holds one is kept between runs: an unchanged memory is not read for it.
    return {
        path: ws.document(path)
        for path in sorted(paths)
        if ws.of_file("commented", path, lambda: "memcheck-" in ws.document(path).text, bool, bool)  # noqa: B023 (called at once)
    }


def check_parts(ws: Workspace, parts: list[Targets], checks: list[Check], enabled: set[str], cache: Cache | None = None) -> set[Problem]:
    found: set[Problem] = set()
    for part in parts:
        found |= check_part(ws, part, checks, enabled, cache)
    return found
