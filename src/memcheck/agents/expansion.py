"""@-imports: the files a guidance file imports, and how far they lead.

Agents that follow `@path` imports (Claude Code, Gemini CLI, Amp: each agent's
``[imports]`` facts) load the imported file's text with the importing file's; this
module finds the imports (outside code, as the agents skip those), expands them depth
first as the agents do, and answers "can this file lead to that one" without work per
pair of files. It reads files through a workspace and knows no agent.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterator, Mapping, Sequence

from memcheck.agents import NO, agent, approx_tokens, links
from memcheck.paths import parent
from memcheck.records import NamedTuple
from memcheck.text import mentions

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace


class Import(NamedTuple):
    line: int
    col: int
    token: str  # as written, without the @
    kind: str  # mentions.PATH / HOME / ABSOLUTE / OUTSIDE
    target: str  # repository-relative path for PATH and OUTSIDE


def imports(ws: Workspace, doc: Document) -> list[Import]:
    """The @-imports of a document, in order (frontmatter excluded)."""
    return ws.derived(doc, _imports)


def _imports(ws: Workspace, doc: Document) -> list[Import]:
    if doc.error is not None or "@" not in doc.body:
        return []
    folder = parent(doc.path)
    found = []
    for token in mentions.mentions(links.prose(ws, doc)):
        kind = mentions.classify(token.text, folder, ws.exists)
        if kind is not None:
            found.append(Import(token.line, token.col, token.text, kind[0], kind[1]))
    return found


def is_glob_mention(imp: Import) -> bool:
    return imp.kind == mentions.PATH and any(c in imp.token for c in "*?[")


class Loaded(NamedTuple):
    path: str
    depth: int  # 0 for the guidance file itself
    size: int  # bytes
    via: tuple[str, ...]  # the chain of files that led here, the guidance file first


class Expansion(NamedTuple):
    loaded: list[Loaded]  # every file read, in reading order, each once
    cycles: list[tuple[Import, tuple[str, ...]]]  # (first-hop import of the root, cycle path)
    too_deep: list[tuple[Import, tuple[str, ...]]]  # (first-hop import, chain to the unloaded file)
    missing: list[tuple[str, Import]]  # (file holding the import, import)


# Agents whose depth is unknown are followed this far in `memcheck context` and in
# the import reach below: far past any limit the reference gives.
FOLLOW_UNKNOWN = 50


def expand(ws: Workspace, path: str, max_depth: int) -> Expansion:
    """Follow @-imports depth first, as agents expand them: each file once, at most
    ``max_depth`` hops from ``path``, stopping at cycles."""
    result = Expansion([], [], [], [])
    _visit(ws, path, (path,), None, max_depth, result, set())
    return result


def _file_imports(
    ws: Workspace, current: str, doc: Document, first: Import | None, missing: list[tuple[str, Import]]
) -> Iterator[tuple[Import, Import]]:
    """(the root's first-hop import, the import) for each @-import of ``doc`` naming a
    file on disk (globs aside); an import of nothing on disk goes to ``missing``. The
    step that ``_visit`` and ``_walk`` share."""
    for imp in imports(ws, doc):
        if imp.kind != mentions.PATH or is_glob_mention(imp):
            continue
        if not ws.is_file(imp.target):
            if not ws.exists(imp.target) and ws.is_inside_root(imp.target):  # a link out is not followed: not known
                missing.append((current, imp))
            continue
        yield first or imp, imp


# A function of the module rather than a closure inside expand(): a closure that calls
# itself is a reference cycle, and checks run with the cycle collector off.
def _visit(
    ws: Workspace, current: str, chain: tuple[str, ...], first: Import | None, max_depth: int, result: Expansion, seen: set[str]
) -> None:
    doc = ws.document(current)
    seen.add(current)
    result.loaded.append(Loaded(current, len(chain) - 1, doc.size, chain))
    for hop, imp in _file_imports(ws, current, doc, first, result.missing):
        if imp.target in chain:
            result.cycles.append((hop, (*chain[chain.index(imp.target) :], imp.target)))
            continue
        if imp.target in seen:
            continue
        if len(chain) > max_depth:
            result.too_deep.append((hop, (*chain, imp.target)))
            continue
        _visit(ws, imp.target, (*chain, imp.target), hop, max_depth, result, seen)


class Reach:
    """What ``expand`` finds, told in sums: the files and tokens loaded at each depth,
    and its cycles, too-deep chains and missing imports, in the same order.

    Every guidance file importing one shared file would otherwise expand that file's
    imports again: time in files x files imported (expand_hub, 150/300/600 files
    importing one hub of as many: 0.56/1.72/4.51 s). A file's own reach is worked out
    once per depth limit (at most ``FOLLOW_UNKNOWN`` + 1 of them) and taken whole by a
    file importing it, when none of the files it looked at is already on the way
    there: then expanding it there finds exactly what it found alone."""

    # (Slots: a run holds one per guidance file and depth limit, 2,000 on bench/'s M tree.)
    __slots__ = ("files", "tokens", "cycles", "too_deep", "missing", "_seen", "_looked", "_parts", "_visited", "_touched")

    def __init__(self) -> None:
        self.files: list[int] = []  # files loaded at each depth (0: the file itself)
        self.tokens: list[int] = []  # their approximate tokens, at each depth
        self.cycles: list[tuple[Import, tuple[str, ...]]] = []
        self.too_deep: list[tuple[Import, tuple[str, ...]]] = []
        self.missing: list[tuple[str, Import]] = []
        self._seen: set[str] = set()  # loaded, not counting the parts taken whole
        self._looked: set[str] = set()  # loaded or named by an import followed, likewise
        self._parts: list[Reach] = []  # reaches taken whole
        self._visited: frozenset[str] | None = None
        self._touched: frozenset[str] | None = None

    def loaded(self, depth: int) -> tuple[int, int]:
        """(files, tokens) loaded at most ``depth`` hops down."""
        return sum(self.files[: depth + 1]), sum(self.tokens[: depth + 1])

    def visited(self) -> frozenset[str]:
        if self._visited is None:  # only for a file another imports, and once
            self._visited = frozenset(self._seen.union(*(p.visited() for p in self._parts)))
        return self._visited

    def touched(self) -> frozenset[str]:
        if self._touched is None:
            self._touched = frozenset(self._looked.union(*(p.touched() for p in self._parts)))
        return self._touched

    def _has_seen(self, path: str) -> bool:
        return path in self._seen or any(path in p.visited() for p in self._parts)

    def _add(self, depth: int, files: int, tokens: int) -> None:
        while len(self.files) <= depth:
            self.files.append(0)
            self.tokens.append(0)
        self.files[depth] += files
        self.tokens[depth] += tokens


# A file keeps at most this many reaches it took whole unmerged; each later import asks
# each of them whether it was loaded.
_MAX_PARTS = 8


def reach(ws: Workspace, path: str, max_depth: int) -> Reach:
    """``expand(ws, path, max_depth)`` in sums (see ``Reach``), worked out once per run."""
    known = ws.once(_reaches)
    found = known.get((path, max_depth))
    if found is None:
        found = Reach()
        _walk(ws, path, (path,), None, max_depth, found)
        known[(path, max_depth)] = found
    return found


def _walk(ws: Workspace, current: str, chain: tuple[str, ...], first: Import | None, max_depth: int, result: Reach) -> None:
    # _visit's walk, step for step, but for the files taken whole.
    doc = ws.document(current)
    result._seen.add(current)
    result._looked.add(current)
    result._add(len(chain) - 1, 1, approx_tokens(doc.size))
    for hop, imp in _file_imports(ws, current, doc, first, result.missing):
        result._looked.add(imp.target)
        if imp.target in chain:
            result.cycles.append((hop, (*chain[chain.index(imp.target) :], imp.target)))
            continue
        if result._has_seen(imp.target):
            continue
        if len(chain) > max_depth:
            result.too_deep.append((hop, (*chain, imp.target)))
            continue
        if ws.once(import_graph).cyclic(ws, imp.target):
            # A file on a cycle of imports: its reach would hold the files leading to it,
            # never taken whole; working it out at every depth limit cost files x files.
            _walk(ws, imp.target, (*chain, imp.target), hop, max_depth, result)
            continue
        part = reach(ws, imp.target, max_depth - len(chain))
        touched = part.touched()
        if (
            any(p in touched for p in chain)
            or not touched.isdisjoint(result._seen)
            or any(not touched.isdisjoint(p.visited()) for p in result._parts)
        ):
            _walk(ws, imp.target, (*chain, imp.target), hop, max_depth, result)
            continue
        if len(part.visited()) <= len(result._seen) or len(result._parts) >= _MAX_PARTS:
            result._seen |= part.visited()  # small: copied, so that few parts are asked
            result._looked |= touched
        else:
            result._parts.append(part)  # large: shared, not copied
        for depth, (files, tokens) in enumerate(zip(part.files, part.tokens), len(chain)):
            result._add(depth, files, tokens)
        result.cycles.extend((hop, cycle) for _, cycle in part.cycles)
        result.too_deep.extend((hop, (*chain, *deep)) for _, deep in part.too_deep)
        result.missing.extend(part.missing)


def _reaches(ws: Workspace) -> dict[tuple[str, int], Reach]:
    """``reach``'s answers this run, by (path, depth limit)."""
    return {}


def follow_depth(agent_id: str) -> int:
    """The import hops ``agent_id`` follows: its documented limit, none for an agent
    that follows no imports, and ``FOLLOW_UNKNOWN`` where the limit is not known."""
    a = agent(agent_id)
    if a.follows_imports == NO:
        return 0
    return FOLLOW_UNKNOWN if a.import_depth is None else a.import_depth


def import_targets(ws: Workspace, path: str) -> tuple[str, ...]:
    """The files an @-import in ``path`` names that exist (globs aside), worked out
    once per run: the model of who reads what asks once per agent, and each answer
    costs an lstat per import."""
    known = ws.once(known_import_targets)
    found = known.get(path)
    if found is None:
        found = known[path] = tuple(
            i.target for i in imports(ws, ws.document(path)) if i.kind == mentions.PATH and not is_glob_mention(i) and ws.is_file(i.target)
        )
    return found


def with_imports(ws: Workspace, files: Sequence[str], roots: Sequence[str]) -> list[str]:
    """``files``, ``roots`` and every file of the repository that an @-import of ``roots`` leads
    to, however many hops away, sorted: an agent that follows imports loads each at
    start-up with the file that imports it, whatever its name (what the SEC and HID
    rules read)."""
    seen = {*files, *roots}
    todo = list(roots)
    while todo:
        for target in import_targets(ws, todo.pop()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return sorted(seen)


def known_import_targets(ws: Workspace) -> dict[str, tuple[str, ...]]:
    """``import_targets``'s answers this run, by path (the language server carries
    them to the next edit's workspace but for the files changed)."""
    return {}


def known_realpaths(ws: Workspace) -> dict[str, str]:
    """``realpath``'s answers this run, by path (carried as known_import_targets)."""
    return {}


def realpath(ws: Workspace, path: str) -> str:
    """``os.path.realpath`` of a repository path, worked out once per run.

    A plain path (no ``.``, ``..`` or empty part) is its folder's real path and its
    name, the name followed only if it is a symlink: each folder is resolved once,
    not once per file below it (``os.path.realpath`` looks at every part of the
    path, an lstat each: a tenth of a check on a tree of guidance files ten folders
    deep)."""
    known = ws.once(known_realpaths)
    found = known.get(path)
    if found is not None:
        return found
    parts = path.split("/")
    if path.startswith("/") or any(p in ("", ".", "..") for p in parts):
        found = known[path] = ws.real_path(path)
        return found
    # Up to the nearest folder already resolved (the root at the latest), then down,
    # resolving each folder on the way once: no recursion, however deep the path.
    ends = [i for i, c in enumerate(path) if c == "/"] + [len(path)]  # where each prefix ends
    resolved = len(ends) - 1  # how many leading parts are known
    while resolved and path[: ends[resolved - 1]] not in known:
        resolved -= 1
    found = known[path[: ends[resolved - 1]]] if resolved else known.get("") or known.setdefault("", os.path.realpath(ws.root))
    for level in range(resolved, len(ends)):
        found = os.path.join(found, parts[level])
        # The same question as os.path.islink(found): the system follows the folders on the way.
        if ws.on_disk("islink", path[: ends[level]]):
            found = ws.real_path(path[: ends[level]])
        known[path[: ends[level]]] = found
    return found


class ImportGraph:
    """The files @-imports lead to (as ``expand`` follows them: existing files named
    by a path, globs aside), to tell whether a file can load another at all.

    Each file's imports are looked at once per run, and each target's importers
    (direct or not) are found once, walking the imports backwards: the cost is the
    files and imports reached, not pairs of files. No depth limit applies here, so
    "does not reach" is exact and "reaches" is left to ``expand``."""

    def __init__(self, ws: Workspace) -> None:
        # No reference to ``ws`` is kept (see Reading).
        self.imports: dict[str, tuple[str, ...]] = {}  # file -> the files it imports
        self.importers: dict[str, list[str]] = {}  # file -> the files importing it
        self.by_real: dict[str, list[str]] = {}  # real path -> the repository paths that are it
        self.above: dict[str, frozenset[str]] = {}  # real path -> every file leading to it
        self._cyclic: frozenset[str] | None = None  # the files on a cycle of imports
        # Every guidance file from the start: a file added later forgets what was
        # worked out (it may lead to a target already asked about).
        for path in sorted({*ws.guidance, *ws.twins, *ws.twins.values()}):
            self._add(ws, path)

    def _add(self, ws: Workspace, start: str) -> None:
        todo = [start]
        while todo:
            path = todo.pop()
            if path in self.imports:
                continue
            self.by_real.setdefault(realpath(ws, path), []).append(path)
            self.imports[path] = targets = import_targets(ws, path)
            for target in targets:
                self.importers.setdefault(target, []).append(path)
                todo.append(target)
        self.above.clear()  # new files may lead to a target already asked about
        self._cyclic = None

    def cyclic(self, ws: Workspace, path: str) -> bool:
        """Does ``path`` lead back to itself through imports?"""
        if path not in self.imports:
            self._add(ws, path)
        if self._cyclic is None:
            self._cyclic = _on_cycles(self.imports)
        return path in self._cyclic

    def reaches(self, ws: Workspace, source: str, target: str) -> bool:
        """Is there a chain of one import or more from ``source`` to ``target`` (or
        to a file that is ``target`` under another name)?"""
        if source not in self.imports:
            self._add(ws, source)
        real = realpath(ws, target)
        above = self.above.get(real)
        if above is None:
            found: set[str] = set()
            todo = [i for p in self.by_real.get(real, ()) for i in self.importers.get(p, ())]
            while todo:
                path = todo.pop()
                if path not in found:
                    found.add(path)
                    todo.extend(self.importers.get(path, ()))
            above = self.above[real] = frozenset(found)
        return source in above


def import_graph(ws: Workspace) -> ImportGraph:
    """The tree's @-import graph, made once per run (``ws.once(import_graph)``)."""
    return ImportGraph(ws)


def _on_cycles(edges: Mapping[str, Sequence[str]]) -> frozenset[str]:
    """The nodes of a graph that lie on a cycle: Tarjan's strongly connected
    components, without recursion (a chain of imports can be thousands long)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[str] = set()
    for start in edges:
        if start in index:
            continue
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work = [(start, iter(edges.get(start, ())))]
        while work:
            node, following = work[-1]
            for nxt in following:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(edges.get(nxt, ()))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    above = work[-1][0]
                    low[above] = min(low[above], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in edges.get(node, ()):
                        found.update(component)
    return frozenset(found)
