"""Who reads each guidance file of a tree, directly or through @-imports, and what
one agent loads working on a path (`memcheck context`): the agent facts
(``memcheck.agents``) applied to the files a workspace found.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from memcheck.agents import (
    ALL,
    CODEX,
    K_AGENTS,
    K_CLAUDE,
    K_COPILOT,
    K_COPILOT_PATH,
    K_CURSOR_RULE,
    K_GEMINI,
    MAYBE,
    NO,
    READS,
    Facts,
    Setting,
    expansion,
    find_settings,
    folder_kinds,
    judge,
    kind_of,
    named_kinds,
    owner_of,
    reading_order,
    skips_for_size,
    user_files,
    user_rules,
    with_settings,
)  # fmt: skip
from memcheck.agents import agent as agent_facts
from memcheck.agents.expansion import FOLLOW_UNKNOWN, follow_depth, import_graph, import_targets, realpath
from memcheck.paths import basename, down_from_root, parent
from memcheck.records import NamedTuple
from memcheck.text import document

if TYPE_CHECKING:
    from memcheck.config import Config
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace


def gets(ws: Workspace, agent: str, source: str, target: str) -> int:
    """Does ``agent``, reading ``source``, also get ``target``'s text: by reading it
    itself (or a symlinked twin of it), or through an @-import of ``source``?"""
    model = reading(ws)
    direct_state = max(
        (model.direct.get(n, {}).get(agent, (NO, ""))[0] for n in model.names_of(model.real.get(target, target))), default=NO
    )
    return max(direct_state, loads_via_imports(ws, agent, source, target))


def loads_via_imports(ws: Workspace, agent_id: str, source: str, target: str) -> int:
    """Does ``agent``, reading ``source``, load ``target`` through its @-imports?"""
    facts = agent_facts(agent_id)
    follows = facts.follows_imports
    if follows == NO:
        return NO
    # Most pairs of files import nothing of each other: the import graph answers that
    # once per target, and only a source that reaches it is expanded (its depth limit
    # and reading order decide). Expanding every source of every pair took time in
    # pairs x files imported (drift_hub at 150/300/600 folders: 7.45/29.48/113.95 s).
    if not ws.once(import_graph).reaches(ws, source, target):
        return NO
    wanted = realpath(ws, target)
    for x in expansion.expand(ws, source, follow_depth(agent_id)).loaded[1:]:
        if realpath(ws, x.path) == wanted:
            if follows == READS and (facts.import_depth is not None or x.depth == 1):
                return READS
            return MAYBE
    return NO


# ------------------------------------------------------------------ the whole tree


class Reading:
    """Who reads each guidance file of a tree, directly or through @-imports."""

    def __init__(self, ws: Workspace):
        # No reference to ``ws`` is kept: the workspace holds this object (Workspace.once),
        # and checks run with the cycle collector off.
        self.configured = tuple(ws.config.agents)
        self.real = dict(ws.twins)  # a symlinked twin -> the file it is
        self._twins: dict[str, list[str]] = {}  # the file -> its twins
        for twin, real in sorted(self.real.items()):
            self._twins.setdefault(real, []).append(twin)
        paths = sorted({*ws.guidance, *ws.twins})
        filenames = ws.config.guidance.filenames
        self.kind = {p: k for p in paths if (k := kind_of(p, filenames)) is not None}
        self.owner = {p: owner_of(p, k) for p, k in self.kind.items()}
        # Symlinks out of the root: agents read them, memcheck never follows them.
        self.outside = frozenset(ws.outside_links) & self.kind.keys()
        folder_files = folder_kinds()
        by_folder: dict[str, dict[str, list[str]]] = {}  # folder -> kind -> its files there
        named_at: dict[str, set[str]] = {}  # folder -> the kinds found by name there (CLAUDE.local.md too)
        for p, k in self.kind.items():
            if k in folder_files:
                by_folder.setdefault(self.owner[p], {}).setdefault(k, []).append(p)
            if k in named_kinds():
                named_at.setdefault(self.owner[p], set()).add(k)
        self.folder_kinds = {f: frozenset(ks) for f, ks in by_folder.items()}
        self.facts = repository_facts(ws, self.kind.values(), frozenset(named_at.get("", ())))
        # The other files of each file's folder, by kind (agents.md beside Agents.md keeps its kind).
        self.siblings: dict[str, dict[str, str]] = {}
        for p, k in self.kind.items():
            own = self.owner[p]
            self.siblings[p] = {
                kk: name_in(own, others[0])
                for kk, ps in by_folder.get(own, {}).items()
                if k in folder_files and (others := [q for q in ps if q != p])
            }

        # The kinds in each file's folder and every folder above it (Claude Code leaves
        # AGENTS.md aside below a CLAUDE.md). Worked out once per folder, from the root down.
        def kinds_in(folder: str) -> frozenset[str]:
            return frozenset(named_at.get(folder, ()))

        def with_those_above(up: frozenset[str], here: frozenset[str]) -> frozenset[str]:
            return up | here

        above = down_from_root(self.owner.values(), kinds_in, with_those_above)
        # Files an agent skips for their size (memcheck reads 1 MiB, but knows the size).
        self.too_big: dict[str, frozenset[str]] = {}
        for p, k in self.kind.items():
            size = ws.document(self.real.get(p, p)).size
            if size > 1024 * 1024:
                self.too_big[p] = frozenset(a for a in ALL if skips_for_size(a, k, size))
        self.verdicts = {
            p: {a: judge(a, k, p, self.siblings[p], self.facts, a in self.too_big.get(p, ()), above[self.owner[p]]) for a in ALL}
            for p, k in self.kind.items()
        }
        self.direct = {
            p: {a: with_settings(a, self.kind[p], v.sure, v.why, self.siblings[p], self.facts.settings) for a, v in verdicts.items()}
            for p, verdicts in self.verdicts.items()
        }
        self._walk(ws)

    def with_imports_of(self, ws: Workspace) -> Reading:
        """This reading for ``ws``: the same tree and settings, where files changed
        their @-imports only (none crossed a size limit). Who reads each file directly
        stands; what the imports bring is walked again (the language server's edit)."""
        new = copy.copy(self)
        new._walk(ws)
        return new

    def _walk(self, ws: Workspace) -> None:
        # Files each agent loads through @-imports of the files it reads, and how sure:
        # agents that follow imports alike from the same files share one walk.
        walks: dict[tuple[object, ...], dict[str, int]] = {}
        self.via: dict[str, dict[str, int]] = {}
        for a in ALL:
            facts = agent_facts(a)
            start = tuple(sorted((p, min(s[0], facts.follows_imports)) for p, states in self.direct.items() if (s := states[a])[0] != NO))
            key = (facts.follows_imports, facts.import_depth, start)
            if key not in walks:
                walks[key] = self._reach(ws, a)
            self.via[a] = walks[key]

    def _reach(self, ws: Workspace, agent: str) -> dict[str, int]:
        # Breadth first from every file the agent reads, one hop at a time: each file's
        # imports are looked at once per level of certainty (at most twice), however
        # many files import it.
        facts = agent_facts(agent)
        follows = facts.follows_imports
        if follows == NO:
            return {}
        depth = facts.import_depth
        limit = FOLLOW_UNKNOWN if depth is None else depth
        frontier = {p: min(s[0], follows) for p, states in self.direct.items() if (s := states[agent])[0] != NO}
        reached: dict[str, int] = {}
        for hop in range(1, limit + 1):
            nxt: dict[str, int] = {}
            for path, sure in frontier.items():
                for target in import_targets(ws, self.real.get(path, path)):  # a twin's text is its file's
                    target = self.real.get(target, target)
                    got = sure if depth is not None or hop == 1 else min(sure, MAYBE)
                    if got > reached.get(target, NO):
                        reached[target] = got
                        nxt[target] = max(nxt.get(target, NO), got)
            if not nxt:
                break
            frontier = nxt
        return reached

    def direct_with(self, path: str, agent: str, settings: Sequence[Setting] = ()) -> tuple[int, str]:
        """``direct[path][agent]``, with more settings files (the user's) taken into account."""
        state, why = self.direct[path][agent]
        return with_settings(agent, self.kind[path], state, why, self.siblings[path], settings) if settings else (state, why)

    def state(self, agent: str, path: str) -> int:
        """How sure it is that ``agent`` reads ``path`` (or a symlinked twin of it)."""
        real = self.real.get(path, path)
        best = self.via[agent].get(real, NO)
        for p in self.names_of(real):
            best = max(best, self.direct.get(p, {}).get(agent, (NO, ""))[0])
        return best

    def names_of(self, real: str) -> list[str]:
        """The paths that are this file: itself and its symlinked twins."""
        return [real, *self._twins.get(real, ())]

    def readers(self, path: str, among: Iterable[str] | None = None) -> dict[str, int]:
        return {a: self.state(a, path) for a in (among if among is not None else ALL)}


def name_in(folder: str, path: str) -> str:
    """A guidance file as named from its folder (`CLAUDE.md`, `.claude/CLAUDE.md`)."""
    return path[len(folder) + 1 :] if folder and path.startswith(folder + "/") else path


def repository_facts(ws: Workspace, kinds: Iterable[str], root_kinds: frozenset[str]) -> Facts:
    return Facts(frozenset(kinds), root_kinds, find_settings(lambda f: _settings_text(ws, f), lambda f: f"this repository's {f}"))


def _settings_text(ws: Workspace, path: str) -> str:
    if path not in ws.file_set:
        return ""
    doc = ws.document(path)
    return doc.text if doc.error is None else ""


def reading(ws: Workspace) -> Reading:
    """The tree's reading, worked out once per run."""
    return ws.once(new_reading)


def new_reading(ws: Workspace) -> Reading:
    """The tree's reading, made afresh: the key ``reading`` keeps it under, which the
    language server gives the next edit's workspace where the edit cannot change it."""
    return Reading(ws)


# ------------------------------------------------------------------ Codex's budget


def codex_budget() -> int:
    """Codex's default project_doc_max_bytes: bytes of project files it reads in all."""
    value = agent_facts(CODEX).numbers["project_budget"]
    return value if isinstance(value, int) else 0


# How Codex takes one project file [CXS agents_md.rs]: it reads the whole file; when
# it is larger than what is left of the budget it keeps only that much; the text
# (decoded lossily) is skipped when `trim()` leaves nothing, and then costs nothing;
# otherwise it is kept and its bytes are taken from the budget. The loop stops once
# the budget is spent.
WHOLE, BLANK, CUT, CUT_BLANK, DROPPED, UNKNOWN_SIZE = "whole", "blank", "cut", "cut-blank", "dropped", "unknown"
# What Rust's str::trim() strips: Unicode White_Space (Python's str.strip() takes more).
RUST_WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


class Cut(NamedTuple):
    path: str
    size: int  # bytes of the file
    kept: int  # bytes Codex keeps of it
    how: str  # WHOLE, BLANK (skipped), CUT, CUT_BLANK (the part that fits is blank: skipped), DROPPED, UNKNOWN_SIZE
    spent: int  # bytes the files before it took from the budget
    line: int = 1  # CUT, CUT_BLANK: the line holding the first byte that does not fit
    blank: bool = False  # the whole file is blank (a DROPPED one loses nothing)


def is_blank(doc: Document) -> bool:
    """Codex skips a file whose text `trim()` empties. Its text keeps a BOM (not
    whitespace); invalid UTF-8, decoded lossily, is never blank."""
    return doc.error is None and not doc.bom and not doc.text.strip(RUST_WHITESPACE)


def codex_takes(ws: Workspace, path: str, remaining: int | None, budget: int | None = None) -> tuple[Cut, int | None]:
    """(what Codex does with ``path`` when ``remaining`` bytes of the budget are left,
    what is left after it); None when the budget left is not known (a symlink out of
    the repository, which memcheck does not follow, was taken before)."""
    doc = ws.document(path)
    if remaining is None:
        return Cut(path, doc.size, 0, UNKNOWN_SIZE, 0), None
    spent = (codex_budget() if budget is None else budget) - remaining
    blank = is_blank(doc)
    if remaining == 0:  # the loop stops before reading it
        return Cut(path, doc.size, 0, DROPPED, spent, 1, blank), 0
    if path in ws.outside_links:
        return Cut(path, doc.size, 0, UNKNOWN_SIZE, spent), None
    if doc.size > remaining:
        # Only the part that fits matters: read that much (a file over memcheck's 1 MiB
        # read cap included), to find where the cut falls and whether that part is blank.
        head = _head(ws, path, remaining)
        line = (head or b"").count(b"\n") + 1
        if head is not None and not head.decode("utf-8", "replace").strip(RUST_WHITESPACE):
            return Cut(path, doc.size, 0, CUT_BLANK, spent, line), remaining
        return Cut(path, doc.size, remaining, CUT, spent, line), 0
    if blank:
        return Cut(path, doc.size, 0, BLANK, spent, 1, True), remaining
    return Cut(path, doc.size, doc.size, WHOLE, spent), remaining - doc.size


def codex_chain(ws: Workspace, paths: Sequence[str], budget: int | None = None) -> list[Cut]:
    """What Codex keeps of each project file, from the root down."""
    remaining: int | None = codex_budget() if budget is None else budget
    cuts = []
    for path in paths:
        cut, remaining = codex_takes(ws, path, remaining, budget)
        cuts.append(cut)
    return cuts


def _head(ws: Workspace, path: str, size: int) -> bytes | None:
    if ws.tracker is not None:
        ws.tracker.read(path, None)  # read here rather than through the source: still what the part depends on
    try:
        with open(os.path.join(ws.root, path), "rb") as f:
            return f.read(size)
    except OSError:
        return None


# ------------------------------------------------------------------ user-level files


def user_reader(path: str) -> dict[str, int]:
    """Who reads a user-level file (``~/``-relative)."""
    found = {a: READS for a, files in user_files().items() if path in files}
    for a, folder in user_rules().items():
        if path.startswith(folder + "/") and path.endswith(".md"):
            found[a] = READS
    return found


def codex_home(home: Path) -> Path:
    """Codex's global folder: $CODEX_HOME, by default ~/.codex (its ``[agent]`` facts)."""
    facts = agent_facts(CODEX).numbers
    value = os.environ.get(str(facts["home_env"]))
    return Path(os.path.abspath(os.path.expanduser(value))) if value else home / str(facts["home_default"])


class Machine(NamedTuple):
    """What outside the repository, on this machine, changes what agents load (for
    `memcheck context`; `memcheck check` is about the repository's own files)."""

    home: Path
    codex_home: Path
    settings: tuple[Setting, ...]  # the user's settings files that change an agent's reading

    def shown(self, full: str) -> str:
        """A path outside the repository as the user knows it: ``~/…`` under $HOME."""
        home = str(self.home).rstrip("/") + "/"
        return "~/" + full[len(home) :] if full.startswith(home) else full


def this_machine(home: Path) -> Machine:
    codex = codex_home(home)
    machine = Machine(home, codex, ())
    where = {".codex/config.toml": str(codex / "config.toml")}

    def text_of(file: str) -> str:
        doc = document.read("/", where.get(file, str(home / file)))
        return doc.text if doc.error is None else ""

    return machine._replace(settings=find_settings(text_of, lambda f: "your " + machine.shown(where.get(f, str(home / f))), user=True))


# ------------------------------------------------------------------ what one agent loads


class Source(NamedTuple):
    """A file an agent loads (or may load, or skips) when working on a path."""

    path: str  # repository-relative, or relative to ``base``
    scope: str  # user, above (the repository's parent folders), project (the root), parent, subtree (the working folder), rule, repo
    sure: int  # READS, MAYBE, or NO for a file listed to say why it is not loaded
    why: str
    base: str = ""  # "" for a file of the repository; else the absolute folder ``path`` is in

    @property
    def user(self) -> bool:
        """Outside the repository: the user's own files, not the repository's."""
        return self.base != ""


def checkout(config: Config, folder: str, also: Sequence[str] = ()) -> Workspace:
    """The workspace as agents working in ``folder`` find it on this machine: with
    the guidance files git ignores in ``folder`` and the folders above it (a personal
    CLAUDE.local.md there makes Claude Code leave AGENTS.md aside), and ``also``.
    Only the folders of the way down are looked at: one ``stat`` per name and folder."""
    from memcheck.agents.facts import file_kinds
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.disk import CheckoutSource

    names = {*config.guidance.filenames, *(f"{k.parent_folder}/{n}" for k in file_kinds() if k.parent_folder for n in k.names)}
    wanted = [f"{step}/{name}" if step else name for step in _chain(folder) for name in sorted(names)]
    return Workspace(
        config, CheckoutSource(config.root, [*also, *(p for p in wanted if kind_of(p, config.guidance.filenames) is not None)])
    )


def _chain(folder: str) -> list[str]:
    """The root, then each folder down to ``folder``."""
    parts = folder.split("/") if folder else []
    return ["/".join(parts[:i]) for i in range(len(parts) + 1)]


def _scope(step: str, folder: str) -> str:
    return "project" if step == "" else "subtree" if step == folder else "parent"


Place = Callable[[str], "Workspace"]  # an absolute folder outside the repository -> a workspace of it


def sources(
    ws: Workspace, agent: str, target: str, is_folder: bool, machine: Machine | None = None, place: Place | None = None
) -> list[Source]:
    """What ``agent`` loads when working on ``target`` (a file, or a folder: the agent
    started there), in its reading order, from the same model the checks use; with
    ``machine``, the user's own files and settings too (``place`` reads them)."""
    model = reading(ws)
    folder = target if is_folder else parent(target)
    chain = _chain(folder)
    on_chain = set(chain)
    found: list[Source] = []
    settings = machine.settings if machine is not None else ()
    outside: list[Source] = []  # the guidance files of the folders above the repository
    if machine is not None and place is not None:
        found.extend(_user_sources(machine, agent, target, is_folder, place, model.facts))
        outside = _above_root_sources(ws, machine, agent, place, model.facts)
        found.extend(outside)
    by_folder: dict[str, list[str]] = {}
    for path in model.kind:
        by_folder.setdefault(model.owner[path], []).append(path)

    named = named_kinds()
    folder_files = [
        (step, p)
        for step in chain
        for p in sorted(by_folder.get(step, ()), key=lambda p: reading_order(model.kind[p]))
        if model.kind[p] in named
    ]
    # A session reads by what sits at or above its working folder, not the file's own:
    # Claude Code leaves every AGENTS.md of the walk aside once a CLAUDE.md is on it,
    # one below that AGENTS.md's folder too (its agents-md plugin stays out).
    session_above = frozenset(model.kind[p] for _, p in folder_files)

    def state(path: str) -> tuple[int, str]:
        sure, why = model.direct_with(path, agent, settings)
        verdict = model.verdicts[path][agent]
        over = agent in model.too_big.get(path, ())
        in_session = judge(agent, model.kind[path], path, model.siblings[path], model.facts, over, session_above)
        if in_session.sure < verdict.sure:
            return in_session.sure, in_session.why
        # One above the repository is loaded too, but whether it counts as the
        # project's own (the agents-md plugin stops at the session's root) is unsettled.
        for outer in outside:
            kind = kind_of(outer.path, (basename(outer.path),))
            if outer.sure == NO or kind is None or kind in session_above:
                continue
            if judge(agent, model.kind[path], path, model.siblings[path], model.facts, over, session_above | {kind}).sure < verdict.sure:
                return MAYBE, f"{why or verdict.loaded}; a {outer.path} above the repository ({outer.base}) may leave it aside"
        if verdict.since and (sure, why) == (MAYBE, verdict.why):
            return READS, why  # read by current releases: shown loaded, with the release it takes
        return sure, why

    facts = agent_facts(agent)
    if facts.context == "copilot":
        found.extend(_copilot_sources(ws, model, target, is_folder, on_chain, folder_files, state))
        return found
    for step, p in folder_files:
        sure, why = state(p)
        verdict = model.verdicts[p][agent]
        if sure != NO:
            found.append(Source(p, _scope(step, folder), sure, why or verdict.loaded))
        elif verdict.listed:
            found.append(Source(p, _scope(step, folder), NO, why))  # a file the agent would read, and why it does not
    if facts.rules_kind:
        found.extend(_rule_sources(ws, model, target, is_folder, on_chain, facts.rules_kind, state))
    return found


def frontmatter_shown(doc: Document, keys: Sequence[str]) -> str:
    """`key: value` for the ``keys`` a file's frontmatter has, as written."""
    fm = doc.frontmatter
    if fm is None:
        return "no frontmatter"
    shown = []
    for key in keys:
        if key in fm.data:
            raw = fm.raw_values.get(key, "")
            value = fm.data[key]
            shown.append(f"{key}: {raw}" if raw and not isinstance(value, (list, dict)) else f"{key}: {value!r}")
    return ", ".join(shown) or f"none of {', '.join(keys)}"


def _patterns(value: object) -> list[str]:
    from memcheck.text import patterns as globs

    return (
        globs.split_list(value) if isinstance(value, str) else [p for p in value if isinstance(p, str)] if isinstance(value, list) else []
    )


def _rule_sources(
    ws: Workspace, model: Reading, target: str, is_folder: bool, on_chain: set[str], kind: str, state: Callable[[str], tuple[int, str]]
) -> list[Source]:
    found = []
    for path in sorted(p for p, k in model.kind.items() if k == kind and model.owner[p] in on_chain):
        sure, why = state(path)
        if sure == NO:
            continue
        doc = ws.document(model.real.get(path, path))
        if kind == K_CURSOR_RULE:
            matched = _cursor_globs(doc, target, is_folder, model.owner[path])
            found.append(
                Source(
                    path,
                    "rule",
                    MAYBE,
                    why
                    or f"a project rule ({frontmatter_shown(doc, ('alwaysApply', 'globs', 'description'))}){matched}; how Cursor applies its keys is unconfirmed",
                )
            )
            continue
        found.append(_paths_rule(path, doc, sure, why, target, is_folder, model.owner[path]))
    return found


def _cursor_globs(doc: Document, target: str, is_folder: bool, owner: str) -> str:
    """Whether a Cursor rule's ``globs`` match the file worked on, as the reason says it
    (``: its globs match src/app.py (src/**/*.py)``): the rule stays MAYBE, since how
    Cursor applies its keys is unconfirmed, but which of two rules matches is known."""
    from memcheck.text import patterns as globs

    data = doc.frontmatter.data if doc.frontmatter is not None else {}
    patterns = _patterns(data.get("globs"))
    if not patterns or is_folder or data.get("alwaysApply") is True:
        return ""
    hit = next((p for p in patterns if globs.match(p, target, owner)), None)
    return f": its globs match {target} ({hit})" if hit is not None else f": its globs do not match {target}"


def _paths_rule(
    path: str, doc: Document, sure: int, why: str, target: str, is_folder: bool, owner: str, base: str = "", scope: str = "rule"
) -> Source:
    """A Claude Code rule: loaded at launch without `paths`, else when Claude Code reads a file they match [CCM]."""
    from memcheck.text import patterns as globs

    data = doc.frontmatter.data if doc.frontmatter is not None else {}
    patterns = _patterns(data.get("paths"))
    unsure = f"{why}; " if sure == MAYBE and why else ""
    if not patterns:
        return Source(path, scope, sure, f"{unsure}no paths: loaded at launch", base)
    if is_folder:
        return Source(path, scope, NO, f"paths {patterns}: loaded only when Claude Code reads a file they match", base)
    hit = next((p for p in patterns if globs.match(p, target, owner)), None)
    if hit is not None:
        return Source(path, scope, sure, f"{unsure}paths {hit!r} matches {target}: loaded when Claude Code reads it", base)
    return Source(path, scope, NO, f"no paths pattern matches {target} ({patterns})", base)


def _copilot_sources(
    ws: Workspace,
    model: Reading,
    target: str,
    is_folder: bool,
    on_chain: set[str],
    folder_files: list[tuple[str, str]],
    state: Callable[[str], tuple[int, str]],
) -> list[Source]:
    from memcheck.text import patterns as globs

    found = []
    for path in sorted(p for p, k in model.kind.items() if k == K_COPILOT and model.owner[p] in on_chain):
        sure, why = state(path)
        found.append(Source(path, "repo", sure, why or "repository-wide instructions"))
    for path in sorted(p for p, k in model.kind.items() if k == K_COPILOT_PATH and model.owner[p] in on_chain):
        sure, why = state(path)
        doc = ws.document(model.real.get(path, path))
        data = doc.frontmatter.data if doc.frontmatter is not None else {}
        patterns = _patterns(data.get("applyTo"))
        exclude = f"; excludeAgent: {data['excludeAgent']}" if isinstance(data.get("excludeAgent"), str) else ""
        if is_folder:
            found.append(Source(path, "repo", NO, f"applyTo {patterns}: applied to the files it matches{exclude}"))
        elif any(globs.match(p, target, model.owner[path]) for p in patterns):
            found.append(Source(path, "repo", sure, (why + "; " if why else "") + f"applyTo matches {target}{exclude}"))
        else:
            found.append(Source(path, "repo", NO, f"applyTo {patterns} does not match {target}"))
    folder = target if is_folder else parent(target)
    agents_files = [(step, p) for step, p in folder_files if model.kind[p] == K_AGENTS]
    for i, (step, p) in enumerate(agents_files):
        nearest = i == len(agents_files) - 1
        why = "the nearest AGENTS.md" if nearest else "an AGENTS.md above the nearest one, which takes precedence"
        found.append(Source(p, _scope(step, folder), READS if nearest else MAYBE, why))
    for step, p in folder_files:
        sure, why = state(p)
        if model.kind[p] in (K_CLAUDE, K_GEMINI) and sure != NO:
            found.append(Source(p, _scope(step, folder), sure, why or "the coding agent reads one CLAUDE.md or GEMINI.md at the root"))
    return found


def _user_sources(machine: Machine, agent: str, target: str, is_folder: bool, place: Place, facts: Facts) -> list[Source]:
    home = str(machine.home)
    found = []
    settings = facts.settings + machine.settings
    facts_of = agent_facts(agent)
    global_files = facts_of.numbers.get("global_files")
    if isinstance(global_files, list):
        # Codex: the first non-blank of AGENTS.override.md, AGENTS.md in $CODEX_HOME
        folder = str(machine.codex_home)
        present = [n for n in global_files if isinstance(n, str) and os.path.isfile(os.path.join(folder, n))]
        for name in [n for n in present if not is_blank(place(folder).document(n))][:1]:
            found.append(Source(name, "user", READS, "user instructions", folder))
        return found
    for name in facts_of.user_files:
        if os.path.isfile(os.path.join(home, name)):
            sure, why = with_settings(agent, kind_of(name, _USER_NAMES) or "", READS, "", {}, settings)
            found.append(Source(name, "user", sure, why or "user instructions" + facts_of.user_files_note, home))
    if facts_of.user_rules:
        rules = os.path.join(home, facts_of.user_rules)
        if os.path.isdir(rules):
            from memcheck.workspace.disk import walk_user_folder

            for rel in walk_user_folder(Path(rules))[0]:  # (check --user says when it is cut short)
                if rel.endswith(".md"):
                    path = f"{facts_of.user_rules}/{rel}"
                    sure, why = with_settings(agent, facts_of.rules_kind, READS, "", {}, settings)
                    found.append(_paths_rule(path, place(home).document(path), sure, why, target, is_folder, "", home, "user"))
    return found


_USER_NAMES = ("CLAUDE.md", "AGENTS.md", "GEMINI.md")  # the names of user files that a settings key can exclude


def _above_root_sources(ws: Workspace, machine: Machine, agent: str, place: Place, facts: Facts) -> list[Source]:
    """Guidance files in the folders above the repository that the agent reads:
    Claude Code's CLAUDE.md and CLAUDE.local.md from every ancestor of the working
    folder [CCM], Amp's AGENTS.md (or AGENT.md, CLAUDE.md) from parents up to $HOME
    [AMP]. The filesystem's root first."""
    facts_of = agent_facts(agent)
    names = facts_of.above_root
    if not names:
        return []
    root = Path(ws.root)
    home = machine.home
    under_home = home in root.parents
    settings = facts.settings + machine.settings
    found = []
    for folder in reversed(root.parents):
        present = {}
        for name in names:
            if folder == home and name in facts_of.user_files:
                continue  # the user's own file, listed first
            full = os.path.join(folder, name)
            if os.path.isfile(full):
                kind = kind_of(name, (basename(name),))
                if kind is not None:
                    present[kind] = name
        for kind, name in present.items():
            siblings = {k: n for k, n in present.items() if k != kind and k in folder_kinds()}
            over = skips_for_size(agent, kind, os.path.getsize(os.path.join(folder, name)))
            verdict = judge(agent, kind, name, siblings, facts, over, frozenset(present))
            sure, why = with_settings(agent, kind, verdict.sure, verdict.why, siblings, settings)
            if facts_of.above_root_up_to_home and sure != NO:
                if not under_home:
                    sure, why = MAYBE, "Amp reads parent folders up to $HOME, and this repository is not under $HOME: unconfirmed"
                elif folder == home:
                    sure, why = MAYBE, "Amp reads parent folders up to $HOME: whether $HOME itself is one is unconfirmed"
                elif home not in folder.parents:
                    continue  # above $HOME
            if sure != NO or verdict.listed:
                found.append(Source(name, "above", sure, why or facts_of.above_root_why, str(folder)))
    return found
