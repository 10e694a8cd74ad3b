"""What ``check -v`` and ``fix -v`` say on standard error, one line each
(``memcheck: ...``): the config read, what was checked, what was passed over, and
how long each step took. Never on standard output, so ``-v`` leaves the report (and
``--output-file``) as it is.

Each kind of note is a function of the run's workspace and what it checked, in
``NOTES``, whose lines come out in that order, each kind's sorted: a new kind is
one more function there. The timing line comes last, after the report.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

from memcheck.problem import escaped

if TYPE_CHECKING:
    from memcheck.config import Config
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.targets import Targets

# Whether a path is among what the run was given (every path, for the whole tree).
Scope = Callable[[str], bool]


def config_note(config: Config) -> list[str]:
    """Which settings the run uses: the file read, or none."""
    if config.source == "defaults":
        return ["config: none found at the repository root (.memcheck.yaml, pyproject.toml [tool.memcheck]): defaults"]
    return [f"config: {config.source}"]


def _config(ws: Workspace, targets: Targets, wanted: Scope) -> Iterator[str]:
    yield from config_note(ws.config)


def _stores(ws: Workspace, targets: Targets, wanted: Scope) -> Iterator[str]:
    """Each store with its memories and how ``fix`` keeps its index (as ``memcheck
    index --explain`` decides it: worked out again here, for ``-v`` only)."""
    from memcheck.index.store import store_memories, store_plan

    for store in sorted(targets.stores, key=lambda s: s.folder):
        count = len(store.files)
        existing = ws.document(store.index) if store.has_index else None
        if existing is not None and existing.error is not None:
            index = f"{store.index} unreadable"
        else:
            plan = store_plan(ws, store, existing.text if existing is not None else None, store_memories(ws, store))
            index = (
                f"{store.index}, mode {plan.mode}, style {plan.style}"
                if store.has_index
                else f"no index yet (fix writes {store.index}, mode {plan.mode})"
            )
        yield f"store {store.folder or '.'}: {count} memor{'y' if count == 1 else 'ies'}; {index}"
        ws.forget(store.all_files)


def _guidance(ws: Workspace, targets: Targets, wanted: Scope) -> Iterator[str]:
    for path in sorted(targets.guidance):
        yield f"guidance file {path}"


def _skills(ws: Workspace, targets: Targets, wanted: Scope) -> Iterator[str]:
    outside = set(ws.skill_links_out)
    for path in sorted(targets.skills):
        yield f"skill {path}" if path not in outside else f"skill file {path}: a link out of the repository, not read"


def _other_agent_files(ws: Workspace, targets: Targets, wanted: Scope) -> Iterator[str]:
    """Subagents, custom agents, prompt files, steering and Cline rules: the files the
    summary counts as other agent files (a skill folder with no SKILL.md is no file)."""
    for path in sorted(targets.kind_files):
        if path in ws.file_set:
            yield f"agent file {path}"


def _skills_passed_over(ws: Workspace, targets: Targets, wanted: Scope) -> Iterator[str]:
    for path, why in ws.skills_passed_over:
        if wanted(path):
            yield f"passed over {path}: {why}"


def _cache(ws: Workspace, targets: Targets, wanted: Scope) -> Iterator[str]:
    if ws.cache_note is not None:
        kept, parts, folder = ws.cache_note
        yield f"cache: {kept} of {parts} parts kept from earlier runs, in {folder}"
    elif ws.config.no_cache:
        yield "cache: off (--no-cache)"


NOTES: tuple[Callable[[Workspace, Targets, Scope], Iterable[str]], ...] = (
    _config,
    _stores,
    _guidance,
    _skills,
    _other_agent_files,
    _skills_passed_over,
    _cache,
)


def notes(ws: Workspace, paths: Sequence[str] | None, deleted: Sequence[str] = ()) -> list[str]:
    """The lines ``-v`` prints for this run, in order (``paths``: what it was given)."""
    from memcheck.engine.targets import targets_for
    from memcheck.workspace.discover import relative_path
    from memcheck.workspace.selection import given

    wanted = given(None if paths is None else [w for w in (relative_path(ws.root, p) for p in paths) if w is not None])
    # The stores judged, as fix finds them: a folder whose MEMORY.md stands beside
    # ordinary documents is not listed as a store.
    targets = targets_for(ws, paths, deleted=deleted)
    return [line for note in NOTES for line in note(ws, targets, wanted)]


class Timing:
    """How long each step of a run took, from the moment it was made."""

    def __init__(self) -> None:
        self._last = time.perf_counter()
        self._laps: list[tuple[str, float]] = []

    def lap(self, step: str) -> None:
        now = time.perf_counter()
        self._laps.append((step, now - self._last))
        self._last = now

    def lines(self) -> list[str]:
        return ["timing: " + ", ".join(f"{step} {seconds:.3f} s" for step, seconds in self._laps)] if self._laps else []


def show(lines: Iterable[str]) -> None:
    for line in lines:
        print(f"memcheck: {escaped(line)}", file=sys.stderr)
