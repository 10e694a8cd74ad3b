"""What the IDX rules after the gates read of a store's index, worked out once per
index judged afresh (``IndexState``). Imported only where the store's index is not
kept from an earlier run (see ``judged`` in the package's ``__init__``): the index
engine it needs is a tenth of a commit hook's imports."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from memcheck.index.plan import GENERATE, is_own_render, line_breaks
from memcheck.index.store import (
    archived,
    listed_by_linked_indexes,
    store_exists,
    store_ignored,
    store_memories,
    store_plan,
    store_unstaged,
    superseded,
)
from memcheck.index.survey import survey

if TYPE_CHECKING:
    from memcheck.index.survey import Survey
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.stores import Store


class IndexState:
    """A store's index as the rules after the gates read it: its text (CRLF read as
    LF), the store's memories and ``fix``'s plan for the index; and, asked only past an
    index that is its own render, the reading of the whole index (``whole``) and the
    lines ``fix`` generates (``generated``)."""

    def __init__(self, ws: Workspace, store: Store, doc: Document) -> None:
        self.path = store.index
        self.doc = doc
        self.text = line_breaks(doc.text)
        self.memories = store_memories(ws, store)
        self.plan = store_plan(ws, store, self.text, self.memories)
        self._ws = ws
        self._store = store

    def own_render(self) -> bool:
        """Every entry links to its own memory file, once: nothing more to find."""
        return is_own_render(self.plan, self.text, self.memories)

    @cached_property
    def whole(self) -> Survey:
        # The plan's own reading of the index when it read the whole of it (sync mode, no
        # markers): check and fix then judge the same lines the same way.
        if self.plan.survey is not None and not self.plan.marked:
            return self.plan.survey
        ws, store = self._ws, self._store
        return survey(
            self.text,
            self.memories,
            store_exists(ws, store),
            store_folder=store.folder,
            ignored=store_ignored(ws, store),
            unstaged=store_unstaged(ws, store),
            also_listed=self._listed_elsewhere,
        )

    @cached_property
    def _listed_elsewhere(self) -> frozenset[str]:
        ws, store, text, memories = self._ws, self._store, self.text, self.memories
        return listed_by_linked_indexes(ws, store, text, memories) | archived(ws, store, text, memories) | superseded(store, text, memories)

    @cached_property
    def generated(self) -> frozenset[str]:
        # The generated index's lines, split once and not once per dead link: the
        # judge_dead probe (n dead links, n unlisted memories) took 0.63 / 1.11 / 2.61 s
        # at n = 1,000 / 2,000 / 4,000, now 0.42 / 0.73 / 1.28 s.
        return frozenset(self.plan.text.split("\n")) if self.whole.dead and self.plan.mode == GENERATE else frozenset()
