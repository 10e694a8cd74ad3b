"""Running every enabled rule family over the targets, part by part, in one process or
several, and the findings that come of it."""

from __future__ import annotations

import gc
import importlib
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Iterator

from memcheck.engine.finish import finish
from memcheck.engine.part import check_parts
from memcheck.engine.queue import Workers, find_in_processes, jobs
from memcheck.engine.targets import part_kinds, size
from memcheck.rules import FAMILY_MODULES, FAMILY_PARTS
from memcheck.text import frontmatter_reading
from memcheck.workspace.targets import Targets

if TYPE_CHECKING:
    from memcheck.engine.cache import Cache
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.stores import Store
    from memcheck.workspace.targets import Check


def collect(ws: Workspace, targets: Targets, last: bool = False, early: EarlyStart | None = None) -> list[Problem]:
    """Every enabled finding for the targets, sorted and without repeats. ``last``:
    nothing reads ``ws``'s documents after this (see ``find``)."""
    return finish(ws.config, find(ws, targets, last, early))


class EarlyStart:
    """The checking processes of a whole tree's first run, forked as soon as
    discovery has found the stores (``stores_found``, called by ``targets_for``)
    rather than once it has found everything: they check stores while this process
    finds the guidance files, the skills and the other agent files (on bench/'s M
    tree two thirds of discovery, 65 ms that the second CPU otherwise spent idle).

    Only where no part can be kept from an earlier run (no cache, or an empty one,
    as CI's first run): a warm run looks its parts up first (see ``find``). ``find``
    then gives this process the parts that are not stores, and the store parts to
    share with the children; ``close`` (in a ``finally``) ends any child left."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.workers = Workers()
        self.cache: Cache | None = None
        self.opened = False  # whether ``cache`` is the run's (kept_run), asked already

    def stores_found(self, stores: list[Store]) -> None:
        ws = self.ws
        parts = [Targets([store], [], []) for store in stores]
        # How many processes, from the stores alone (the rest is not found yet): a tree
        # of a few stores and many other files waits for discovery, and ``find`` forks.
        count = jobs(sum(map(size, parts)), len(parts))
        if count < 2:
            return
        self.cache, self.opened = kept_run(ws), True
        if self.cache is not None and not self.cache.empty:
            return
        self.workers.fork(ws, parts, wanted_checks(ws, frozenset({"stores"})), set(ws.rules_on), count, self.cache)

    def close(self) -> None:
        self.workers.close()


def find(ws: Workspace, targets: Targets, last: bool = False, early: EarlyStart | None = None) -> set[Problem]:
    """Every enabled finding for the targets, one part at a time.

    A part is a store, the guidance files, or the skills. Each family checks a
    part, then a store's documents are dropped: memory stays flat however many
    stores the tree holds, and no document is read twice. On a large tree the
    parts are shared out between processes (see ``queue.jobs``).
    """
    cache = early.cache if early is not None and early.opened else kept_run(ws)
    enabled = set(ws.rules_on)
    # The guidance files are one part: their findings come from one model of who reads
    # what, built from all of them (see queue.find_in_processes). The skills too, since
    # SKL009/SKL011 compare each skill with all the others.
    guidance = [Targets([], targets.guidance, [])] if targets.guidance else []
    parts = [Targets([store], [], []) for store in targets.stores]
    if targets.skills:
        parts.append(Targets([], [], targets.skills))
    if targets.kind_files:
        parts.append(Targets([], [], [], kind_files=targets.kind_files))
    if targets.configs:
        parts.append(Targets([], [], [], configs=targets.configs))
    kept: set[Problem] = set()
    if cache is not None:  # the parts whose findings hold as they were kept are not checked
        total = len(guidance) + len(parts)
        guidance, parts, kept = _unkept(cache, guidance), _unkept(cache, parts), cache.found
        ws.cache_note = (cache.hits, total, str(cache.folder))
    workers = jobs(sum(map(size, [*guidance, *parts])), len(guidance) + len(parts))
    # The families are imported only now, and only those that check a kind of part left
    # (a commit that touches one store imports no guidance or skill family).
    checks = wanted_checks(ws, part_kinds([*guidance, *parts])) if guidance or parts else []

    def done() -> None:
        """This process's checking is over: the cache writes what it checked. Where
        other processes check too, called before their results are waited for, so
        that this process writes while they finish (on bench/'s M tree the write
        took 0.06 s of the run's wall time, after the last child's own)."""
        if cache is None:
            return
        if last:
            # Nothing reads the run's documents after the checks (``last``: a check of
            # the tree, not fix or a comparison with HEAD, which read them again): let
            # them go before the cache writes what this process read, so that writing
            # it takes their memory rather than adding to it (on bench/'s M tree the
            # context written last is 0.7 MB of JSON, and a few times that while built).
            ws.forget_all()
        cache.flush()

    with no_cycle_collection():
        if early is not None and early.workers.forked:
            # The store parts are the children's queue already: this process checks the
            # rest (the guidance files first), then joins them.
            if [p.stores for p in early.workers.parts] != [p.stores for p in parts if p.stores]:
                raise RuntimeError("the stores checked are not the stores found")
            found = early.workers.finish(ws, [*guidance, *(p for p in parts if not p.stores)], checks, enabled, cache, done)
        elif workers > 1:
            # PyYAML, which some frontmatter is sure to need on a tree this large, once
            # for every process (each would otherwise import it on its own). Where the
            # processes are forked early, each imports it if it needs it: the children
            # start sooner, and on bench/'s M tree, whose frontmatter needs none, no
            # process imports it (17 ms).
            frontmatter_reading.load_yaml()
            found = find_in_processes(ws, guidance, parts, checks, enabled, workers, cache, done)
        else:
            found = check_parts(ws, [*parts, *guidance], checks, enabled, cache)
            done()
    return found | kept


def wanted_checks(ws: Workspace, kinds: frozenset[str] | None = None) -> list[Check]:
    """The families' checks to run: a family whose rules are all off is not run at all
    (see Workspace.wants for the rules within a family); with ``kinds``, only the
    families that check parts of those kinds (``rules.FAMILY_PARTS``)."""
    return [check for codes, check in family_checks(kinds) if ws.wants(*codes)]


def kept_run(ws: Workspace) -> Cache | None:
    """The cache of ``ws``'s run (see Cache.open), keyed by the rules it checks, which
    the cache itself tells where it has seen this code before: no rule family is
    imported to say which are on (``ws.rules_on`` is set from the same catalogue)."""
    from memcheck.config import selected
    from memcheck.engine.cache import Cache, family_catalogue

    cache = Cache.open(ws, "")
    families = family_catalogue(cache, _catalogue)
    if "rules_on" not in vars(ws):  # (worked out already where discovery asked: the same codes)
        vars(ws)["rules_on"] = frozenset(selected([code for _, codes, _ in families for code in codes], ws.config))
    if cache is not None:
        names = [check for _, codes, check in families if check is not None and ws.wants(*codes)]
        cache.keyed_by(repr((sorted(names), sorted(ws.rules_on))))
    return cache


def _catalogue() -> list[tuple[str, list[str], str | None]]:
    """Each family's module, rule codes and check's qualified name (what the cache knows a run's rules by)."""
    found: list[tuple[str, list[str], str | None]] = []
    for name in FAMILY_MODULES:
        family = importlib.import_module(name)
        check = getattr(family, "check", None)
        found.append((name, sorted(r.code for r in family.RULES), None if check is None else f"{check.__module__}.{check.__qualname__}"))
    return found


def _unkept(cache: Cache, parts: list[Targets]) -> list[Targets]:
    """The parts the cache holds no findings for (those it does, it adds to ``cache.found``)."""
    left = []
    for part in parts:
        found = cache.lookup(part)
        if found is None:
            left.append(part)
        else:
            cache.found |= found
    return left


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Checking allocates hundreds of thousands of objects that live for one part
    (documents, lines, findings) and makes no reference cycles (a test in
    tests/cli/test_fast_paths.py keeps it so): the cycle collector would walk the live
    ones again and again (a seventh of the run), and find nothing. Memory is still
    freed as usual, by reference counting; the collector is back on as soon as the
    check ends."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@cache
def family_checks(kinds: frozenset[str] | None = None) -> list[tuple[frozenset[str], Check]]:
    """Each rule family's codes and check (guard has none: it judges paths, not files);
    with ``kinds``, of the families that check parts of those kinds only, the others
    not imported."""
    names = [name for name in FAMILY_MODULES if kinds is None or FAMILY_PARTS[name] & kinds]
    families = [importlib.import_module(name) for name in names]
    return [(frozenset(r.code for r in f.RULES), f.check) for f in families if hasattr(f, "check")]
