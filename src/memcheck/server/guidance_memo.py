"""The guidance files' findings, carried from one edit to the next.

Checking one guidance file needs the model of who reads what, made from every
guidance file of the tree (``readers.reading``): on a tree of a thousand of them,
reading and judging them all again took most of a second per keystroke. A file's own
findings come from its text, the texts its @-imports bring in, the listing, and what
the model says of it (who reads it, who reads it as a root). So an edit checks again
only the edited file, the files whose @-imports lead to it, and, when the edit
changed what the model takes from a file (the files its @-imports name, whether it
is over an agent's size limit), the files the model now says otherwise of; the model
itself is carried over when the edit cannot change it, and made again otherwise, and
with it what was worked out from the model alone (each ``once`` value declared ``@kept_with(MODEL)``: which files
no agent reads, each folder's sides, what a CLAUDE.local.md hides). The findings about
files together (who reads what, drift between a folder's files, Codex's budget) are
worked out again each time from those, and from the skills the workspace carries
while no skill changes (``Workspace.reuse_skills``).

A file created or deleted, new settings, a symlinked guidance file, or a change to a
file an @-import leads to that is no guidance file check every guidance file again,
as ``memcheck check`` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from memcheck.agents import NO, READS, readers
from memcheck.agents.expansion import import_graph, import_targets, known_import_targets, known_realpaths
from memcheck.agents.readers import Reading, new_reading
from memcheck.checks import agent_reading, guidance
from memcheck.engine.part import settle
from memcheck.problem import TREE
from memcheck.records import NamedTuple
from memcheck.workspace.memo import MODEL, basis_of
from memcheck.workspace.targets import Targets

if TYPE_CHECKING:
    from memcheck.agents.expansion import ImportGraph
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.targets import Check

# The rules whose findings come from all the guidance files together (their scope is
# the tree: guidance's tree-wide findings, and every rule of agent_reading): worked
# out again on each edit. Every other finding on a guidance file comes from that
# file, what it imports, and the model.
TREE_CODES = frozenset(r.code for r in (*guidance.RULES, *agent_reading.RULES) if r.scope == TREE)
# The ``once`` values carried over when the model cannot have changed.
_MODEL_KEYS = (new_reading, import_graph)
# The files each file's @-imports name, and where each path leads, symlinks followed
# (expansion.realpath: an lstat per folder): carried but for the files changed.
_PER_FILE_KEYS = (known_import_targets, known_realpaths)
_OVER_LIMIT = 1024 * 1024  # readers.Reading's size test: an agent may skip a file over it


class Shape(NamedTuple):
    """What the model of who reads what takes from one guidance file's text."""

    imports: tuple[str, ...]
    # The size of a file over the limit (0 under it): which agents skip it depends on
    # how far over it is (readers.skips_for_size).
    over_limit: int
    # A rule file's frontmatter keys: a key enough of a kind's files carry is the
    # team's convention (GDN026), judged over every file of the kind.
    keys: frozenset[str] = frozenset()


def shape(ws: Workspace, path: str) -> Shape:
    doc = ws.document(path)
    size = doc.size
    fm = doc.frontmatter if doc.error is None else None
    keys = frozenset(map(str, fm.data)) if fm is not None and fm.yaml_error is None else frozenset()
    return Shape(import_targets(ws, path), size if size > _OVER_LIMIT else 0, keys)


class GuidanceMemo:
    """The last guidance check: each file's own findings, and the shape of each file."""

    def __init__(
        self, ws: Workspace, own: dict[str, frozenset[Problem]], checked: frozenset[str], shapes: dict[str, Shape] | None = None
    ) -> None:
        self.ws = ws  # the workspace it was made on: its model is the one carried
        self.own = own
        self.checked = checked  # the files whose own findings this check worked out
        known = shapes or {}  # the shapes of the files unchanged since the last memo
        self.shapes = {path: known[path] if path in known else shape(ws, path) for path in ws.guidance}
        self.pending: set[str] = set()  # paths changed since, on disk or in the editor
        # Set by carry_into: the files to check again (more once the model is made
        # again, when ``remade`` holds the files whose shape changed).
        self.affected: set[str] | None = None
        self.remade: list[str] = []

    def carry_into(self, ws: Workspace) -> None:
        """Carry the model into ``ws`` (same listing, same settings) if no change since
        can have changed it; ``affected`` is then the files to check again."""
        self.affected, self.remade = None, []
        before = self.ws
        for name in _PER_FILE_KEYS:  # (the files changed since worked out again)
            carried = before.known(name)
            if isinstance(carried, dict):
                ws.preset(name, {p: t for p, t in carried.items() if p not in self.pending})
        symlinked = {*before.twins, *before.twins.values(), *before.outside_links}
        edited = sorted(p for p in self.pending if p in self.shapes)
        graph = before.once(import_graph)  # as the edit found the imports
        if any(p in symlinked for p in edited) or not isinstance(before.known(new_reading), Reading):
            return
        # Another Markdown file (a memory, a README) changes no guidance file's own
        # findings unless an @-import leads to it; any other file (settings) may.
        if any(not p.endswith(".md") or p in graph.imports or p in graph.importers for p in self.pending if p not in self.shapes):
            return
        now = {p: shape(ws, p) for p in edited}
        if any(now[p].keys != self.shapes[p].keys for p in edited):
            return  # every file of its kind may now carry a key by the team's convention or not (GDN026)
        self.affected = _importers(graph, edited)
        self.remade = [p for p in edited if now[p] != self.shapes[p]]
        old_model = before.known(new_reading)
        if self.remade and isinstance(old_model, Reading) and all(now[p].over_limit == self.shapes[p].over_limit for p in self.remade):
            # Only @-imports changed: who reads each file directly stands.
            ws.preset(new_reading, old_model.with_imports_of(ws))
        if not self.remade:
            for model_key in _MODEL_KEYS:
                ws.preset(model_key, before.known(model_key))
            for key, value in before.once_values():  # what was worked out from the model alone
                if basis_of(key) == MODEL:
                    ws.preset(key, value)

    def more_affected(self, ws: Workspace, files: Iterable[str]) -> set[str]:
        """Once the model is made again (an edit changed a file's shape): the files
        whose own findings it can change, beside those ``affected`` names: the files
        whose imports lead to the edited ones now, and those whose readers changed."""
        old = self.ws.known(new_reading)
        new = readers.reading(ws)
        assert isinstance(old, Reading)
        found = _importers(ws.once(import_graph), self.remade)
        configured = tuple(ws.config.agents)
        if new.direct is old.direct:  # (with_imports_of): only what the imports bring can differ
            reached = {r for a in configured for r in old.via[a].keys() | new.via[a].keys() if old.via[a].get(r) != new.via[a].get(r)}
            wanted = set(files)
            files = [p for r in sorted(reached) for p in old.names_of(r) if p in wanted]
        found.update(p for p in files if _read_as(old, configured, p) != _read_as(new, configured, p))
        return found


def _read_as(model: Reading, configured: tuple[str, ...], path: str) -> tuple[tuple[int, ...], frozenset[str]]:
    """What a guidance file's own checks take from the model: how sure it is that each
    configured agent reads it (guidance_model.readers), and which read it as a root of
    their reading (guidance_model.reads_as_root)."""
    names = model.names_of(path)
    roots = frozenset(a for a in configured if any(model.direct.get(n, {}).get(a, (NO, ""))[0] == READS for n in names))
    return tuple(model.state(a, path) for a in configured), roots


def _importers(graph: ImportGraph, paths: Iterable[str]) -> set[str]:
    """``paths`` and every file whose @-imports lead to one of them."""
    found = set(paths)
    todo = list(found)
    while todo:
        for importer in graph.importers.get(todo.pop(), ()):
            if importer not in found:
                found.add(importer)
                todo.append(importer)
    return found


def guidance_findings(
    ws: Workspace, memo: GuidanceMemo | None, checks: list[Check], enabled: set[str]
) -> tuple[set[Problem], GuidanceMemo]:
    """The guidance files' findings, as checking them all together finds them, and
    the memo for the next edit."""
    files = list(ws.guidance)
    shapes: dict[str, Shape] = {}
    if memo is not None and memo.affected is not None and memo.ws.guidance == ws.guidance:
        affected = memo.affected | memo.more_affected(ws, files) if memo.remade else memo.affected
        own = {p: memo.own[p] for p in files if p not in affected}
        shapes = {p: s for p, s in memo.shapes.items() if p not in memo.pending}
    else:
        own = {}
    checked = frozenset(p for p in files if p not in own)
    for path in sorted(checked):
        part = Targets([], [path], [])
        own[path] = frozenset(p for check in checks for p in check(ws, part) if p.code in enabled and p.code not in TREE_CODES)
    found = set(_tree_findings(ws, files, checks, enabled))
    for problems in own.values():
        found |= problems
    return settle(ws, Targets([], files, []), found, enabled), GuidanceMemo(ws, own, checked, shapes)


def _tree_findings(ws: Workspace, files: list[str], checks: list[Check], enabled: set[str]) -> Iterable[Problem]:
    if ws.user or not files:
        return
    wanted = set(files)
    if guidance.check in checks:
        yield from (p for p in ws.once(guidance.tree_findings_once) if p.path in wanted and p.code in enabled)
    if agent_reading.check in checks:
        yield from (p for p in agent_reading.check(ws, Targets([], files, [])) if p.code in enabled)
