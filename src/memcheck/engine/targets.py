"""What a check covers (the stores, guidance files and skills), and the type every
rule family's ``check`` has."""
from __future__ import annotations

from typing import Callable, Iterable, NamedTuple, Sequence

from memcheck.problem import Problem
from memcheck.workspace.discover import Workspace
from memcheck.workspace.selection import select_targets
from memcheck.workspace.stores import Store


class Targets(NamedTuple):
    stores: list[Store]
    guidance: list[str]
    skills: list[str]

    def agent_files(self) -> list[str]:
        """Every file of the targets an agent reads: guidance files, skills, and each
        store's memories and index (the files the SEC and HID rules read)."""
        paths: set[str] = set(self.guidance) | set(self.skills)
        for store in self.stores:
            paths.update(store.files)
            if store.has_index:
                paths.add(store.index)
        return sorted(paths)


Check = Callable[[Workspace, Targets], Iterable[Problem]]


def targets_for(ws: Workspace, paths: Sequence[str] | None, judge: bool = True, deleted: Sequence[str] = ()) -> Targets:
    """What to check; with ``judge`` False, possibly stores that ``find`` finds are not
    (see ``select_targets``): only for checking, never for writing indexes."""
    return Targets(*select_targets(ws, paths, judge, deleted))


def size(part: Targets) -> int:
    """About how many files a part reads (skills count double: each is compared with
    the others)."""
    return len(part.guidance) + 2 * len(part.skills) + sum(len(s.files) + 1 for s in part.stores)
