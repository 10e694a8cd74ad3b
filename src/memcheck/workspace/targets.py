"""What a check covers (the stores, guidance files and skills), and the type every
rule family's ``check`` has: what the rules are given, below the rules themselves
(engine/targets.py finds them in a tree)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from memcheck.problem import Problem
from memcheck.records import NamedTuple
from memcheck.workspace.stores import Store

if TYPE_CHECKING:
    from memcheck.workspace.discover import Workspace


class Targets(NamedTuple):
    stores: list[Store]
    guidance: list[str]
    skills: list[str]
    # The other files agents load (subagents, custom agents, prompt files, Kiro
    # steering, Cline rules) and skill folders agents load nothing from: see
    # workspace/agentfiles.py. Each family picks the ones it reports on.
    kind_files: Sequence[str] = ()
    # memcheck configs below the root, which it does not read (MCK003 says so)
    configs: Sequence[str] = ()

    def agent_files(self) -> list[str]:
        """Every file of the targets an agent reads: guidance files, skills, and each
        store's memories, index and own documents (SOUL.md, which agents load by name):
        the files the SEC and HID rules read."""
        paths: set[str] = set(self.guidance) | set(self.skills) | set(self.kind_files)
        for store in self.stores:
            paths.update(store.files)
            paths.update(store.own)
            if store.has_index:
                paths.add(store.index)
        return sorted(paths)


Check = Callable[["Workspace", Targets], Iterable[Problem]]
