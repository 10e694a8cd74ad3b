"""Which agent reads which guidance file: the one model behind `memcheck check`,
`memcheck context` and every message that says who reads what.

Every fact here comes from the team's reference on agent files (AGENT-FILES.md) and
carries its source tag: [CCM] Claude Code's memory docs, [CXS] Codex's source
(agents_md.rs), [CXD] Codex's docs, [AMP] Amp's manual, [CUR] Cursor's rules docs,
[GHR]/[GHC]/[GHX] GitHub Copilot's docs, [GMD]/[GMS] Gemini CLI's docs and source.
Where the reference marks a fact unconfirmed, the model answers MAYBE, and nothing
is claimed on it: no finding names an agent for a MAYBE.

The model judges each agent with its default settings. A repository that changes
them in its own settings files (`.gemini/settings.json` naming `context.fileName`,
`.codex/config.toml` with `project_doc_*`, `.claude/settings*.json` with
`claudeMdExcludes`) turns that agent's answers into MAYBE.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterable, NamedTuple, Sequence

from memcheck import links, mentions

if TYPE_CHECKING:
    from memcheck.discover import Workspace
    from memcheck.document import Document

CLAUDE_CODE, CODEX, AMP, CURSOR, COPILOT, GEMINI = "claude-code", "codex", "amp", "cursor", "copilot", "gemini"
ALL = (CLAUDE_CODE, CODEX, AMP, CURSOR, COPILOT, GEMINI)
TITLE = {CLAUDE_CODE: "Claude Code", CODEX: "Codex", AMP: "Amp", CURSOR: "Cursor", COPILOT: "Copilot", GEMINI: "Gemini CLI"}

# How sure the model is that an agent reads a file.
NO, MAYBE, READS = 0, 1, 2

# ------------------------------------------------------------------ file kinds

AGENTS_MD = "AGENTS.md"
OVERRIDE_MD = "AGENTS.override.md"
AGENT_MD = "AGENT.md"
CLAUDE_MD = "CLAUDE.md"
CLAUDE_LOCAL_MD = "CLAUDE.local.md"
GEMINI_MD = "GEMINI.md"

# kinds
K_AGENTS = "AGENTS.md"
K_AGENTS_CASE = "AGENTS.md case variant"  # Agents.md, agents.md
K_AGENT = "AGENT.md"
K_AGENT_CASE = "AGENT.md case variant"  # Agent.md, agent.md
K_OVERRIDE = "AGENTS.override.md"
K_CLAUDE = "CLAUDE.md"
K_CLAUDE_DOT = ".claude/CLAUDE.md"
K_CLAUDE_LOCAL = "CLAUDE.local.md"
K_CLAUDE_RULE = "Claude Code rule"
K_GEMINI = "GEMINI.md"
K_COPILOT = "Copilot repository instructions"
K_COPILOT_PATH = "Copilot path instructions"
K_CURSOR_RULE = "Cursor rule"
K_CURSOR_MD = "plain .md in .cursor/rules"
K_CUSTOM = "configured guidance name"

_BY_NAME = {
    AGENTS_MD: K_AGENTS,
    "Agents.md": K_AGENTS_CASE,
    "agents.md": K_AGENTS_CASE,
    AGENT_MD: K_AGENT,
    "Agent.md": K_AGENT_CASE,
    "agent.md": K_AGENT_CASE,
    OVERRIDE_MD: K_OVERRIDE,
    CLAUDE_MD: K_CLAUDE,
    CLAUDE_LOCAL_MD: K_CLAUDE_LOCAL,
    GEMINI_MD: K_GEMINI,
}
# The files an agent reads per folder as that folder's instructions: the ones that can
# disagree with each other (rules and .github/.cursor files add to them instead).
FOLDER_KINDS = frozenset({K_AGENTS, K_AGENTS_CASE, K_AGENT, K_AGENT_CASE, K_OVERRIDE, K_CLAUDE, K_CLAUDE_DOT, K_GEMINI, K_CUSTOM})
CLAUDE_KINDS = frozenset({K_CLAUDE, K_CLAUDE_DOT, K_CLAUDE_LOCAL, K_CLAUDE_RULE})


class Schema(NamedTuple):
    """A kind's frontmatter: its keys, the key holding globs, and the forms that key
    may take ("list": a YAML list only; "either": a list or one comma-separated string)."""

    keys: tuple[str, ...]
    globs_key: str | None
    globs_form: str
    lenient: bool = False  # the reader takes `key: value` lines that strict YAML rejects


# Seed 000's schema for AGENTS.md and its variants (CLAUDE.md among them, as Amp reads it).
_SEED = Schema(("description", "alwaysApply", "globs"), "globs", "list")
SCHEMAS: dict[str, Schema] = {
    K_AGENTS: _SEED,
    K_AGENTS_CASE: _SEED,
    K_AGENT: _SEED,
    K_AGENT_CASE: _SEED,
    K_CLAUDE: _SEED,
    K_CUSTOM: _SEED,
    # [CCM] `paths` is the only documented key; reports (anthropics/claude-code#17204)
    # have comma-separated strings loading, so both forms are accepted.
    K_CLAUDE_RULE: Schema(("paths",), "paths", "either"),
    # [GHR] applyTo: comma-separated globs; excludeAgent: code-review or coding-agent.
    K_COPILOT_PATH: Schema(("applyTo", "excludeAgent"), "applyTo", "either"),
    # [CUR] description, globs, alwaysApply. Cursor itself writes `globs: *.ts`, which
    # strict YAML reads as an alias: the key: value reading is what counts.
    K_CURSOR_RULE: Schema(("description", "globs", "alwaysApply"), "globs", "either", lenient=True),
}
# Kinds without a schema (AGENTS.override.md [CXS], .claude/CLAUDE.md, CLAUDE.local.md,
# GEMINI.md [GMS], copilot-instructions.md) are read as plain text: no frontmatter checks.

COPILOT_EXCLUDE_AGENT = ("code-review", "coding-agent")  # [GHR]; "cloud-agent" is (U)
COPILOT_EXCLUDE_UNCONFIRMED = ("cloud-agent",)

# ------------------------------------------------------------------ limits

CODEX_PROJECT_BUDGET = 32 * 1024  # [CXS] project_doc_max_bytes default
COPILOT_REVIEW_CHARS = 4000  # [GHX] code review reads the first 4,000 characters
CLAUDE_SKIP_BYTES = 4 * 1024 * 1024  # [CCM] a CLAUDE.md over 4 MiB is skipped

# Import hops each agent follows: a number where confirmed, UNKNOWN where it follows
# @-imports to a depth the reference does not give, None where it follows none.
UNKNOWN = -1
IMPORT_DEPTH: dict[str, int | None] = {
    CLAUDE_CODE: 4,  # [CCM] max 4 hops (5 until ~May 2026)
    GEMINI: 5,  # [GMS] memoryImportProcessor: max depth 5
    AMP: UNKNOWN,  # [AMP] @-mentions followed; depth limit (U)
    CODEX: None,  # [CXS] no imports in the loader
    CURSOR: UNKNOWN,  # [CUR] imports (U): may or may not
    COPILOT: UNKNOWN,  # [GHX] none documented: not claimed either way
}
# Whether an agent is known to follow @-imports at all (READS), may (MAYBE), or not (NO).
FOLLOWS_IMPORTS = {CLAUDE_CODE: READS, GEMINI: READS, AMP: READS, CODEX: NO, CURSOR: MAYBE, COPILOT: MAYBE}
# Amp also follows glob @-mentions (`@doc/*.md`) [AMP]: a glob mention is checked for
# matching some file, never reported as a missing path (see is_glob_mention).


def kind_of(path: str, filenames: Iterable[str]) -> str | None:
    """The guidance kind of a repository path, or None for a file no agent reads as
    guidance. ``filenames`` is the config's `guidance.filenames`."""
    folder, _, name = path.rpartition("/")
    if not (name.endswith(".md") or name.endswith(".mdc")):
        return None
    inside = f"/{folder}/"
    if "/.claude/rules/" in inside and name.endswith(".md"):
        return K_CLAUDE_RULE  # [CCM] .claude/rules/**/*.md
    if "/.cursor/rules/" in inside:
        # [CUR] .cursor/rules/*.mdc; a plain .md there is ignored
        return K_CURSOR_RULE if name.endswith(".mdc") else K_CURSOR_MD
    if "/.github/instructions/" in inside and name.endswith(".instructions.md"):
        return K_COPILOT_PATH  # [GHR] .github/instructions/**/NAME.instructions.md
    if name == "copilot-instructions.md" and (folder == ".github" or folder.endswith("/.github")):
        return K_COPILOT  # [GHR]
    if name not in filenames:
        return None
    if name == CLAUDE_MD and (folder == ".claude" or folder.endswith("/.claude")):
        return K_CLAUDE_DOT  # [CCM] ./.claude/CLAUDE.md
    return _BY_NAME.get(name, K_CUSTOM)


_DOT_FOLDER = {K_CLAUDE_RULE: "/.claude/rules/", K_CURSOR_RULE: "/.cursor/rules/", K_CURSOR_MD: "/.cursor/rules/", K_COPILOT: "/.github/", K_COPILOT_PATH: "/.github/instructions/"}


def owner_of(path: str, kind: str) -> str:
    """The folder a guidance file speaks for: its own, or for a file inside a
    `.claude`, `.github` or `.cursor` folder, the folder holding that one."""
    folder = path.rpartition("/")[0]
    if kind == K_CLAUDE_DOT:
        return folder.rpartition("/")[0]
    marker = _DOT_FOLDER.get(kind)
    if marker is None:
        return folder
    at = f"/{folder}/".find(marker)
    return folder[: max(at - 1, 0)]


def directly_in_rules_folder(path: str) -> bool:
    """A Cursor rule directly inside `.cursor/rules`, as [CUR] documents it (deeper
    folders are not in the reference)."""
    folder = path.rpartition("/")[0]
    return folder == ".cursor/rules" or folder.endswith("/.cursor/rules")


def titles(agents: Iterable[str]) -> str:
    """'Codex', 'Codex and Amp', 'Codex, Amp and Cursor'."""
    names = [TITLE[a] for a in ALL if a in set(agents)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else "no agent"


# ------------------------------------------------------------------ direct reading


class Facts(NamedTuple):
    """What about the whole tree changes who reads a file."""

    any_agents_md: bool  # an AGENTS.md somewhere [GHR: Copilot]
    root_claude_and_gemini: bool  # both CLAUDE.md and GEMINI.md at the root [GHR]
    changed: frozenset[str]  # agents whose reading the repository's settings change
    budget_changed: bool  # .codex/config.toml sets project_doc_max_bytes


# Kinds found by their name in a folder: an agent whose settings add names may read any.
NAMED_KINDS = FOLDER_KINDS | {K_CLAUDE_LOCAL}


def direct(agent: str, kind: str, path: str, siblings: frozenset[str], facts: Facts) -> tuple[int, str]:
    """(how sure it is that ``agent`` reads ``path`` as guidance, why not when NO).

    ``siblings`` are the kinds of the other guidance files speaking for the same
    folder. Reached by an @-import is judged separately (see ``Reading``)."""
    state, why = _direct(agent, kind, path, siblings, facts)
    if agent in facts.changed and (kind in NAMED_KINDS or (agent == CLAUDE_CODE and state != NO)):
        return MAYBE, ""  # the repository's own settings change what this agent reads
    return state, why


def _direct(agent: str, kind: str, path: str, siblings: frozenset[str], facts: Facts) -> tuple[int, str]:
    name = path.rpartition("/")[2]
    root = owner_of(path, kind) == ""
    if kind == K_CUSTOM:
        return MAYBE, ""  # a name this repository configured: no agent's reading is known
    if agent == CLAUDE_CODE:
        # [CCM] CLAUDE.md (or .claude/CLAUDE.md) and CLAUDE.local.md in every folder from
        # the root to the working folder; below it, when Claude reads a file there.
        if kind == K_CLAUDE:
            return (MAYBE, "") if K_CLAUDE_DOT in siblings else (READS, "")  # both present: (U)
        if kind == K_CLAUDE_DOT:
            return (MAYBE, "") if K_CLAUDE in siblings else (READS, "")
        if kind == K_CLAUDE_LOCAL:
            return READS, ""
        if kind == K_CLAUDE_RULE:
            return (READS, "") if root else (MAYBE, "")  # nested rules folders: not in [CCM]
        if kind in (K_AGENTS, K_AGENTS_CASE):
            return NO, "Claude Code reads CLAUDE.md, not AGENTS.md"  # [CCM]
        return NO, ""
    if agent == CODEX:
        # [CXS] per folder root->cwd the first existing of AGENTS.override.md, AGENTS.md,
        # then project_doc_fallback_filenames (default empty); an override, even an
        # empty one, hides that folder's AGENTS.md.
        if kind == K_OVERRIDE:
            return READS, ""
        if kind == K_AGENTS:
            return (NO, "Codex reads that folder's AGENTS.override.md instead") if K_OVERRIDE in siblings else (READS, "")
        if kind == K_AGENTS_CASE:
            # On a case-insensitive file system (macOS, Windows) the AGENTS.md look-up finds it.
            return (NO, "Codex reads that folder's AGENTS.md") if siblings & {K_AGENTS, K_OVERRIDE} else (MAYBE, "")
        return NO, ""
    if agent == AMP:
        # [AMP] AGENTS.md in the working folder and its parents (subtrees when a file
        # there is read); in a folder without AGENTS.md, AGENT.md or CLAUDE.md (which
        # wins if both: (U)).
        if kind == K_AGENTS:
            return READS, ""
        if kind in (K_AGENT, K_CLAUDE, K_AGENTS_CASE, K_AGENT_CASE):
            if K_AGENTS in siblings:
                return NO, f"Amp reads {name} only in a folder without AGENTS.md"
            if kind in (K_AGENTS_CASE, K_AGENT_CASE):
                return MAYBE, ""  # seed 000's case variants, and case-insensitive file systems
            other = K_CLAUDE if kind == K_AGENT else K_AGENT
            return (MAYBE, "") if siblings & {other, K_AGENTS_CASE, K_AGENT_CASE} else (READS, "")
        return NO, ""
    if agent == CURSOR:
        # [CUR] .cursor/rules/*.mdc (a plain .md there is ignored) and AGENTS.md; AGENTS.md
        # in subfolders and CLAUDE.md are (U).
        if kind == K_CURSOR_RULE:
            return (READS, "") if root and directly_in_rules_folder(path) else (MAYBE, "")
        if kind == K_CURSOR_MD:
            return NO, "Cursor reads only .mdc files in .cursor/rules"
        if kind == K_AGENTS:
            return (READS, "") if root else (MAYBE, "")
        if kind in (K_CLAUDE, K_AGENTS_CASE):
            return MAYBE, ""
        return NO, ""
    if agent == COPILOT:
        # [GHR] .github/copilot-instructions.md, .github/instructions/**/*.instructions.md,
        # AGENTS.md anywhere (the nearest takes precedence), or one CLAUDE.md or GEMINI.md
        # at the root; [GHC] the CLI adds the working folder.
        if kind in (K_COPILOT, K_COPILOT_PATH):
            return (READS, "") if root else (MAYBE, "")
        if kind == K_AGENTS:
            return READS, ""
        if kind in (K_CLAUDE, K_GEMINI):
            if root and not facts.any_agents_md and not facts.root_claude_and_gemini:
                return READS, ""
            return MAYBE, ""
        if kind == K_AGENTS_CASE:
            return MAYBE, ""
        return NO, ""
    if agent == GEMINI:
        # [GMS] GEMINI.md (context.fileName) in every folder from the project root to the
        # working folder, others just in time; [GMD] context.fileName can add AGENTS.md.
        if kind == K_GEMINI:
            return READS, ""
        return NO, ""
    raise ValueError(agent)


# ------------------------------------------------------------------ @-imports


class Import(NamedTuple):
    line: int
    col: int
    token: str  # as written, without the @
    kind: str  # mentions.PATH / HOME / ABSOLUTE / OUTSIDE
    target: str  # repository-relative path for PATH and OUTSIDE


def imports(ws: Workspace, doc: Document) -> list[Import]:
    """The @-imports of a document, in order (frontmatter excluded)."""
    return ws.derived(doc, "imports", lambda doc: _imports(ws, doc))


def _imports(ws: Workspace, doc: Document) -> list[Import]:
    if doc.error is not None or "@" not in doc.body:
        return []
    folder = doc.path.rpartition("/")[0]
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


# A function of the module rather than a closure inside expand(): a closure that calls
# itself is a reference cycle, and checks run with the cycle collector off.
def _visit(ws: Workspace, current: str, chain: tuple[str, ...], first: Import | None, max_depth: int, result: Expansion, seen: set[str]) -> None:
    doc = ws.document(current)
    seen.add(current)
    result.loaded.append(Loaded(current, len(chain) - 1, doc.size, chain))
    for imp in imports(ws, doc):
        hop = first or imp
        if imp.kind != mentions.PATH or is_glob_mention(imp):
            continue
        if not ws.is_file(imp.target):
            if not ws.exists(imp.target):
                result.missing.append((current, imp))
            continue
        if imp.target in chain:
            result.cycles.append((hop, (*chain[chain.index(imp.target) :], imp.target)))
            continue
        if imp.target in seen:
            continue
        if len(chain) > max_depth:
            result.too_deep.append((hop, (*chain, imp.target)))
            continue
        _visit(ws, imp.target, (*chain, imp.target), hop, max_depth, result, seen)


def follow_depth(agent: str) -> int:
    depth = IMPORT_DEPTH[agent]
    return 0 if depth is None else FOLLOW_UNKNOWN if depth == UNKNOWN else depth


def import_targets(ws: Workspace, path: str) -> list[str]:
    """The files an @-import in ``path`` names that exist (globs aside)."""
    return [i.target for i in imports(ws, ws.document(path)) if i.kind == mentions.PATH and not is_glob_mention(i) and ws.is_file(i.target)]


def gets(ws: Workspace, agent: str, source: str, target: str) -> int:
    """Does ``agent``, reading ``source``, also get ``target``'s text: by reading it
    itself (or a symlinked twin of it), or through an @-import of ``source``?"""
    model = reading(ws)
    direct_state = max((model.direct.get(n, {}).get(agent, (NO, ""))[0] for n in model.names_of(model.real.get(target, target))), default=NO)
    return max(direct_state, loads_via_imports(ws, agent, source, target))


def loads_via_imports(ws: Workspace, agent: str, source: str, target: str) -> int:
    """Does ``agent``, reading ``source``, load ``target`` through its @-imports?"""
    follows = FOLLOWS_IMPORTS[agent]
    if follows == NO:
        return NO
    depth = IMPORT_DEPTH[agent]
    for x in expand(ws, source, follow_depth(agent)).loaded[1:]:
        if os.path.realpath(ws.root / x.path) == os.path.realpath(ws.root / target):
            if follows == READS and (depth != UNKNOWN or x.depth == 1):
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
        by_folder: dict[str, set[str]] = {}
        count: dict[tuple[str, str], int] = {}
        for p, k in self.kind.items():
            if k in FOLDER_KINDS:
                by_folder.setdefault(self.owner[p], set()).add(k)
                count[(self.owner[p], k)] = count.get((self.owner[p], k), 0) + 1
        self.folder_kinds = {f: frozenset(ks) for f, ks in by_folder.items()}
        self.facts = repository_facts(ws, self.kind.values(), self.folder_kinds.get("", frozenset()))
        self.direct: dict[str, dict[str, tuple[int, str]]] = {}
        for p, k in self.kind.items():
            siblings: frozenset[str] = frozenset()
            if k in FOLDER_KINDS:
                # the other files of the folder (agents.md beside Agents.md keeps its kind)
                own = self.owner[p]
                siblings = self.folder_kinds[own] - ({k} if count[(own, k)] == 1 else set())
            self.direct[p] = {a: direct(a, k, p, siblings, self.facts) for a in ALL}
        # Files each agent loads through @-imports of the files it reads, and how sure.
        self.via = {a: self._reach(ws, a) for a in ALL}

    def _reach(self, ws: Workspace, agent: str) -> dict[str, int]:
        # Breadth first from every file the agent reads, one hop at a time: each file's
        # imports are looked at once per level of certainty (at most twice), however
        # many files import it.
        follows = FOLLOWS_IMPORTS[agent]
        if follows == NO:
            return {}
        depth = IMPORT_DEPTH[agent]
        limit = FOLLOW_UNKNOWN if depth is None or depth == UNKNOWN else depth
        frontier = {p: min(s[0], follows) for p, states in self.direct.items() if (s := states[agent])[0] != NO}
        reached: dict[str, int] = {}
        for hop in range(1, limit + 1):
            nxt: dict[str, int] = {}
            for path, sure in frontier.items():
                for target in import_targets(ws, self.real.get(path, path)):  # a twin's text is its file's
                    target = self.real.get(target, target)
                    got = sure if depth != UNKNOWN or hop == 1 else min(sure, MAYBE)
                    if got > reached.get(target, NO):
                        reached[target] = got
                        nxt[target] = max(nxt.get(target, NO), got)
            if not nxt:
                break
            frontier = nxt
        return reached

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


def repository_facts(ws: Workspace, kinds: Iterable[str], root_kinds: frozenset[str]) -> Facts:
    changed = set()
    settings = _settings_text(ws, ".gemini/settings.json")
    if "fileName" in settings:  # [GMD] context.fileName adds (or, before v0.44.0, replaces) names
        changed.add(GEMINI)
    settings = _settings_text(ws, ".codex/config.toml")
    if "project_doc_fallback_filenames" in settings:  # [CXS] more names per folder
        changed.add(CODEX)
    budget_changed = "project_doc_max_bytes" in settings
    if any("claudeMdExcludes" in _settings_text(ws, f".claude/{name}") for name in ("settings.json", "settings.local.json")):
        changed.add(CLAUDE_CODE)  # [CCM] claudeMdExcludes skips files
    return Facts(K_AGENTS in set(kinds), {K_CLAUDE, K_GEMINI} <= root_kinds, frozenset(changed), budget_changed)


def _settings_text(ws: Workspace, path: str) -> str:
    if path not in ws.file_set:
        return ""
    doc = ws.document(path)
    return doc.text if doc.error is None else ""


def reading(ws: Workspace) -> Reading:
    """The tree's reading, worked out once per run."""
    return ws.once("agent-reading", lambda: Reading(ws))


# ------------------------------------------------------------------ Codex's budget


class Cut(NamedTuple):
    path: str
    loaded: int  # bytes Codex keeps
    size: int
    dropped: bool  # nothing kept: the files above already filled the budget


def codex_budget(chain: Sequence[tuple[str, int, bool]], budget: int = CODEX_PROJECT_BUDGET) -> list[Cut]:
    """What Codex keeps of each (path, bytes, blank) from the root down [CXS]: each
    file's bytes count against the budget (the blank lines that join them do not);
    blank files are skipped and cost nothing; the file that crosses the budget is
    cut at it, and once it is spent the loop stops, dropping the rest."""
    remaining = budget
    out = []
    for path, size, blank in chain:
        if remaining == 0:
            out.append(Cut(path, 0, size, True))
            continue
        if blank:
            out.append(Cut(path, size, size, False))
            continue
        kept = min(size, remaining)
        remaining -= kept
        out.append(Cut(path, kept, size, False))
    return out


def is_blank(doc: Document) -> bool:
    """Codex skips a file whose text is only whitespace (invalid UTF-8 read lossily
    is never blank)."""
    return doc.error is None and not doc.text.strip()


# ------------------------------------------------------------------ user-level files

# [CCM] ~/.claude/CLAUDE.md; [CXS] $CODEX_HOME (~/.codex) AGENTS.override.md else
# AGENTS.md, first non-empty; [AMP] ~/.config/amp/AGENTS.md and ~/.config/AGENTS.md;
# [GMS] ~/.gemini/GEMINI.md; [GHC] ~/.copilot/copilot-instructions.md (the CLI).
USER_FILES: dict[str, tuple[str, ...]] = {
    CLAUDE_CODE: (".claude/CLAUDE.md",),
    CODEX: (".codex/AGENTS.override.md", ".codex/AGENTS.md"),
    AMP: (".config/amp/AGENTS.md", ".config/AGENTS.md"),
    CURSOR: (),  # user rules live in Cursor's settings, not in files [CUR]
    COPILOT: (".copilot/copilot-instructions.md",),
    GEMINI: (".gemini/GEMINI.md",),
}


def user_reader(path: str) -> dict[str, int]:
    """Who reads a user-level file (``~/``-relative)."""
    return {a: READS for a, files in USER_FILES.items() if path in files}


# ------------------------------------------------------------------ what one agent loads


class Source(NamedTuple):
    """A file an agent loads (or may load, or skips) when working on a path."""

    path: str  # repository-relative, or home-relative when ``user``
    scope: str  # user, project (the root), parent, subtree (the working folder), rule, repo
    sure: int  # READS, MAYBE, or NO for a file listed to say why it is not loaded
    why: str
    user: bool = False


def _chain(folder: str) -> list[str]:
    """The root, then each folder down to ``folder``."""
    parts = folder.split("/") if folder else []
    return ["/".join(parts[:i]) for i in range(len(parts) + 1)]


def _scope(step: str, folder: str) -> str:
    return "project" if step == "" else "subtree" if step == folder else "parent"


def sources(ws: Workspace, home: Workspace | None, agent: str, target: str, is_folder: bool) -> list[Source]:
    """What ``agent`` loads when working on ``target`` (a file, or a folder: the agent
    started there), in its reading order, from the same model the checks use."""
    model = reading(ws)
    folder = target if is_folder else target.rpartition("/")[0]
    chain = _chain(folder)
    on_chain = set(chain)
    found: list[Source] = []
    if home is not None:
        found.extend(_user_sources(home, agent))
    by_folder: dict[str, list[str]] = {}
    for path in model.kind:
        by_folder.setdefault(model.owner[path], []).append(path)

    def state(path: str) -> int:
        return model.direct[path][agent][0]

    folder_files = [(step, p) for step in chain for p in sorted(by_folder.get(step, ()), key=lambda p: _ORDER.get(model.kind[p], 99)) if model.kind[p] in NAMED_KINDS]
    if agent == CODEX:
        for step, p in folder_files:
            if state(p) != NO:
                why = "one file per folder, root first" if state(p) == READS else "found by the AGENTS.md look-up on a case-insensitive file system only"
                found.append(Source(p, _scope(step, folder), state(p), why))
        return found
    if agent == COPILOT:
        found.extend(_copilot_sources(ws, model, target, is_folder, on_chain, folder_files))
        return found
    for step, p in folder_files:
        if state(p) != NO:
            found.append(Source(p, _scope(step, folder), state(p), _why_folder_file(agent, model.kind[p], state(p))))
    if agent == CLAUDE_CODE:
        found.extend(_rule_sources(ws, model, target, is_folder, on_chain, K_CLAUDE_RULE, "paths"))
    elif agent == CURSOR:
        found.extend(_rule_sources(ws, model, target, is_folder, on_chain, K_CURSOR_RULE, "globs"))
    return found


_ORDER = {K_OVERRIDE: 0, K_AGENTS: 1, K_AGENTS_CASE: 2, K_AGENT: 3, K_AGENT_CASE: 4, K_CLAUDE: 5, K_CLAUDE_DOT: 6, K_CLAUDE_LOCAL: 7, K_GEMINI: 8, K_CUSTOM: 9}


def _why_folder_file(agent: str, kind: str, sure: int) -> str:
    if sure == MAYBE:
        return {
            CLAUDE_CODE: "CLAUDE.md and .claude/CLAUDE.md are both here: whether both load is unconfirmed",
            AMP: "Amp reads one of AGENT.md and CLAUDE.md here: which is unconfirmed",
            CURSOR: "unconfirmed for Cursor",
            GEMINI: "this repository's Gemini settings name the files",
        }.get(agent, "unconfirmed")
    if agent == CLAUDE_CODE:
        return "personal instructions, after the folder's CLAUDE.md" if kind == K_CLAUDE_LOCAL else "every folder from the root down"
    if agent == AMP:
        return "no AGENTS.md in this folder" if kind != K_AGENTS else "every folder from the root down"
    if agent == GEMINI:
        return "every folder from the project root down"
    return "AGENTS.md is one of Cursor's rule kinds" if agent == CURSOR else ""


def _rule_sources(ws: Workspace, model: Reading, target: str, is_folder: bool, on_chain: set[str], kind: str, key: str) -> list[Source]:
    from memcheck import globs

    found = []
    for path in sorted(p for p, k in model.kind.items() if k == kind and model.owner[p] in on_chain):
        sure = model.direct[path][CLAUDE_CODE if kind == K_CLAUDE_RULE else CURSOR][0]
        if sure == NO:
            continue
        doc = ws.document(path)
        data = doc.frontmatter.data if doc.frontmatter is not None else {}
        value = data.get(key)
        patterns = globs.split_list(value) if isinstance(value, str) else [p for p in value if isinstance(p, str)] if isinstance(value, list) else []
        if kind == K_CURSOR_RULE:
            keys = ", ".join(f"{k}: {data[k]!r}" for k in ("alwaysApply", "globs", "description") if k in data) or "no frontmatter"
            found.append(Source(path, "rule", MAYBE, f"a project rule ({keys}); how Cursor applies its keys is unconfirmed"))
            continue
        if not patterns:
            found.append(Source(path, "rule", sure, "no paths: loaded at launch"))
        elif is_folder:
            found.append(Source(path, "rule", NO, f"paths {patterns}: loaded only when Claude Code reads a file they match"))
        else:
            hit = next((p for p in patterns if globs.match(p, target, model.owner[path])), None)
            if hit is not None:
                found.append(Source(path, "rule", sure, f"paths {hit!r} matches {target}: loaded when Claude Code reads it"))
            else:
                found.append(Source(path, "rule", NO, f"no paths pattern matches {target} ({patterns})"))
    return found


def _copilot_sources(ws: Workspace, model: Reading, target: str, is_folder: bool, on_chain: set[str], folder_files: list[tuple[str, str]]) -> list[Source]:
    from memcheck import globs

    found = []
    for path in sorted(p for p, k in model.kind.items() if k == K_COPILOT and model.owner[p] in on_chain):
        found.append(Source(path, "repo", model.direct[path][COPILOT][0], "repository-wide instructions"))
    for path in sorted(p for p, k in model.kind.items() if k == K_COPILOT_PATH and model.owner[p] in on_chain):
        sure = model.direct[path][COPILOT][0]
        doc = ws.document(path)
        data = doc.frontmatter.data if doc.frontmatter is not None else {}
        value = data.get("applyTo")
        patterns = globs.split_list(value) if isinstance(value, str) else [p for p in value if isinstance(p, str)] if isinstance(value, list) else []
        exclude = f"; excludeAgent: {data['excludeAgent']}" if isinstance(data.get("excludeAgent"), str) else ""
        if is_folder:
            found.append(Source(path, "repo", NO, f"applyTo {patterns}: applied to the files it matches{exclude}"))
        elif any(globs.match(p, target, model.owner[path]) for p in patterns):
            found.append(Source(path, "repo", sure, f"applyTo matches {target}{exclude}"))
        else:
            found.append(Source(path, "repo", NO, f"applyTo {patterns} does not match {target}"))
    agents_files = [(step, p) for step, p in folder_files if model.kind[p] == K_AGENTS]
    for i, (step, p) in enumerate(agents_files):
        nearest = i == len(agents_files) - 1
        why = "the nearest AGENTS.md" if nearest else "an AGENTS.md above the nearest one, which takes precedence"
        found.append(Source(p, _scope(step, target if is_folder else target.rpartition("/")[0]), READS if nearest else MAYBE, why))
    for step, p in folder_files:
        if model.kind[p] in (K_CLAUDE, K_GEMINI) and model.direct[p][COPILOT][0] != NO:
            sure = model.direct[p][COPILOT][0]
            if step:
                why = "below the root: the coding agent reads only the root's CLAUDE.md or GEMINI.md; the CLI's reading of its working folder is unconfirmed"
            elif sure == READS:
                why = "the root's CLAUDE.md or GEMINI.md, read when the repository has no AGENTS.md"
            else:
                why = "the root's CLAUDE.md or GEMINI.md: the coding agent uses one when there is no AGENTS.md; with AGENTS.md present, unconfirmed"
            found.append(Source(p, _scope(step, target if is_folder else target.rpartition("/")[0]), sure, why))
    return found


def _user_sources(home: Workspace, agent: str) -> list[Source]:
    found = []
    names = USER_FILES[agent]
    present = [n for n in names if n in home.file_set and home.is_file(n)]
    if agent == CODEX:
        # [CXS] the first non-empty of AGENTS.override.md, AGENTS.md
        present = [n for n in present if not is_blank(home.document(n))][:1]
    for name in present:
        why = "user instructions" + (" (Copilot CLI only)" if agent == COPILOT else "")
        found.append(Source(name, "user", READS, why, user=True))
    return found
