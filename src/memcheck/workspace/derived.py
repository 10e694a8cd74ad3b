"""What a run works out from the files, kept so it is worked out once
(``DerivedFacts``): a value per document (``derived``), a value per run (``once``,
keyed as workspace/memo.py says), the pieces of a store's check kept between runs
(``of_file``, ``remembered``), and what the settings leave on.

Each kind of value is keyed by the module-level function that works it out, whose
return type is the value's: ``ws.once(f)`` has the type ``f`` returns, and so do
``known(f)`` and ``preset(f, value)``.
"""

from __future__ import annotations

import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, Sequence, TypeVar, cast

from memcheck.config import enabled_codes
from memcheck.problem import Problem
from memcheck.text.document import Document, OfContent
from memcheck.workspace import tracking as _tracking
from memcheck.workspace.memo import Basis, basis_of
from memcheck.workspace.source_files import SourceFiles

if TYPE_CHECKING:
    from memcheck.config import Config
    from memcheck.workspace.source import Source

T = TypeVar("T")
W = TypeVar("W", bound="DerivedFacts")  # the workspace asked: the type its keys take


class DerivedFacts(SourceFiles):
    """What is worked out from a run's files, once."""

    def __init__(self, config: Config, source: Source | None = None) -> None:
        super().__init__(config, source)
        # What ``derived`` and ``once`` worked out: keyed by the function that did,
        # whose return type is the value's (see workspace/memo.py); ``derived``'s
        # by path first, so that forgetting a store's files drops their entries alone:
        # a scan of every entry made each store's forget walk the guidance files' too
        # (0.09 s of checking bench/'s M tree in one process, the stores after the guidance).
        self._derived: dict[str, dict[object, tuple[Document, object]]] = {}
        self._once: dict[Callable[..., object], object] = {}

    def take_derived(self, other: DerivedFacts, dropped: set[str]) -> None:
        """Take over what ``other`` worked out from each document but for the
        ``dropped`` paths (see discover.Workspace.reuse_documents)."""
        derived = {path: hits for path, hits in other._derived.items() if path not in dropped}
        for path, hits in self._derived.items():  # this workspace's own, over the other's
            derived[path] = {**derived.get(path, {}), **hits}
        self._derived = derived

    def take_once(self, other: DerivedFacts, basis: Basis) -> None:
        """Take over the ``once`` values ``other`` worked out from ``basis`` alone."""
        for key, value in other._once.items():
            if basis_of(key) is basis:  # (see workspace/memo.py)
                self._once.setdefault(key, value)

    def forget(self, paths: Iterable[str]) -> None:
        """Drop documents no check will read again, and what was worked out from each."""
        dropped = set(paths).difference(self.kept)
        super().forget(dropped)
        for path in dropped:
            self._derived.pop(path, None)

    def derived(self: W, doc: Document, compute: Callable[[W, Document], T]) -> T:
        """``compute(ws, doc)``, worked out once per document (imports, prose lines):
        several rules ask, and so does every file that imports it. ``compute`` is a
        module-level function: it is the key (see ``once``)."""
        hits = self._derived.get(doc.path)
        if hits is None:
            hits = self._derived[doc.path] = {}
        hit = hits.get(compute)
        tracker = self.tracker
        if hit is None or hit[0] is not doc:  # a document read again is worked out again
            kept = tracker.kept if tracker is not None else None
            if kept is not None and isinstance(compute, OfContent):
                # A function of the file's content alone: its value is kept between runs.
                function = compute
                found: T = kept.value(function, doc, lambda: function(self, doc))
                hits[compute] = (doc, found)
                return found
            if tracker is not None:
                tracker.start_value()
            try:
                _check_key(compute)
                value: object = compute(self, doc)
            finally:
                if tracker is not None:
                    tracker.end_value()
            hit = hits[compute] = (doc, value)
        return cast(T, hit[1])

    def remembered(
        self,
        key: Callable[[], str],
        work: Callable[[], T],
        encode: Callable[[T], object],
        decode: Callable[[object], T],
        covers: Collection[str] = (),
    ) -> T:
        """``work()``: a piece of a store's check, kept between runs where a cache is
        (see engine/store_values.StoreValues.remembered; ``encode`` gives None for a value
        not to keep), else worked out."""
        kept = self.tracker.kept if self.tracker is not None else None
        if kept is None or not kept.keeps_pieces:
            return work()
        return kept.remembered(key, work, encode, decode, covers)

    @property
    def keeps_pieces(self) -> bool:
        """Whether ``of_file`` and ``remembered`` keep their work this run (a cache that
        holds something, or a commit hook's run, which checks the tree twice): where they
        do not, work that would only key a kept piece is not worth doing."""
        kept = self.tracker.kept if self.tracker is not None else None
        return kept is not None and kept.keeps_pieces

    def of_file(
        self, name: str | Callable[[], str], path: str, work: Callable[[], T], encode: Callable[[T], object], decode: Callable[[object], T]
    ) -> T:
        """``work()`` on the file at ``path`` alone (``name`` says which work, or gives
        it when asked: a name dear to work out is worked out only where kept), kept
        between runs by the file's content where a cache is: a store's memories whose
        work is kept are not read at all (see engine/store_values.StoreValues.of_file)."""
        kept = self.tracker.kept if self.tracker is not None else None
        if kept is None or not kept.keeps_pieces:
            return work()
        return kept.of_file(name, path, work, encode, decode)

    def findings_of_file(self, name: str, path: str, work: Callable[[], Iterable[Problem]]) -> list[Problem]:
        """``of_file`` for findings."""
        return self.of_file(name, path, lambda: list(work()), kept_findings, findings_kept)

    def once(self: W, compute: Callable[[W], T]) -> T:
        """``compute(ws)``, worked out once per run: what every part of a check needs
        about the whole tree (guidance files sharing folders, case collisions).

        ``compute`` is a module-level function, and the key: one function, one value,
        of the type it returns. A value worked out from the listing, the skills or the
        agents' reading alone says so where its function is defined (workspace/memo.py),
        and a workspace made again on the same is given it (``take_once``)."""
        if compute not in self._once:
            tracker = self.tracker
            if tracker is not None:
                tracker.start_value()
            try:
                _check_key(compute)
                self._once[compute] = compute(self)
            finally:
                if tracker is not None:
                    tracker.end_value()
        return cast(T, self._once[compute])

    def known(self: W, key: Callable[[W], T]) -> T | None:
        """What ``once(key)`` worked out, if it was asked."""
        return cast("T | None", self._once.get(key))

    def once_values(self) -> list[tuple[Callable[..., object], object]]:
        """Every ``once`` key asked so far, with its value."""
        return list(self._once.items())

    def preset(self: W, key: Callable[[W], T], value: T) -> None:
        """Give ``once(key)`` a value worked out on an earlier workspace of the same
        tree, which the changes since cannot have changed (the language server's)."""
        self._once[key] = value

    @cached_property
    def rules_on(self) -> frozenset[str]:
        """The rule codes the config's select and ignore leave on."""
        return enabled_codes(self.config)

    def wants(self, *codes: str) -> bool:
        """Whether any of ``codes`` is on: work that serves only rules that are off is
        skipped, so a rule turned off costs nothing."""
        return not self.rules_on.isdisjoint(codes)

    def today(self) -> datetime.date:
        """Today's date, for a finding that counts days: noted, so that the cache
        believes such a finding again only on the day it was found."""
        found = _tracking.today()
        if self.tracker is not None:
            self.tracker.asked("today", "", found.isoformat())
        return found


def _check_key(compute: Callable[..., object]) -> None:
    """A lambda or a nested function is a new object each time: as a key, it would
    never be found again, and the value would be worked out on every call."""
    name = compute.name if isinstance(compute, OfContent) else getattr(compute, "__qualname__", "")
    if "<lambda>" in name or "<locals>" in name:
        raise TypeError(f"{name} is a key of Workspace.once/derived: define it at module level")


def kept_findings(found: Sequence[Problem]) -> list[list[object]] | None:
    """Findings as a cache keeps them between runs; None (not kept) where a message
    quotes a secret: the cache keeps nothing that the report would not show."""
    from memcheck.text.secrets import holds_secret

    if any(holds_secret(p.message) for p in found):
        return None
    return [list(p) for p in found]


def findings_kept(kept: object) -> list[Problem]:
    return [Problem(*fields) for fields in cast("list[list[Any]]", kept)]
