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
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Mapping, NamedTuple, Sequence

from memcheck import choices, links
from memcheck.paths import basename, parent, split
from memcheck.text import document, mentions

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

ALL = choices.AGENTS  # listed there, where the CLI reads them without importing this model
CLAUDE_CODE, CODEX, AMP, CURSOR, COPILOT, GEMINI = ALL
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

# The folders agents load a repository's skills from, at any depth: Claude Code's
# [CCS] (not .agents/skills: CCR 2.1.186), Codex's from the working folder up to the
# root [CXD][CXS], Copilot's repository skills [GHR], Gemini CLI's workspace skills
# ([GMD] docs/cli/skills.md; it reads .agents/skills too). A plugin's skills/ folder,
# beside its PLUGIN_MANIFEST, is Claude Code's too; skill collections keep theirs in
# skills/ at the repository root. A SKILL.md anywhere else is no agent's skill.
SKILL_FOLDERS = {".claude/skills": CLAUDE_CODE, ".agents/skills": CODEX, ".github/skills": COPILOT, ".gemini/skills": GEMINI}
PLUGIN_MANIFEST = ".claude-plugin/plugin.json"

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
    folder, name = split(path)
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
    folder = parent(path)
    if kind == K_CLAUDE_DOT:
        return parent(folder)
    marker = _DOT_FOLDER.get(kind)
    if marker is None:
        return folder
    at = f"/{folder}/".find(marker)
    return folder[: max(at - 1, 0)]


def directly_in_rules_folder(path: str) -> bool:
    """A Cursor rule directly inside `.cursor/rules`, as [CUR] documents it (deeper
    folders are not in the reference)."""
    folder = parent(path)
    return folder == ".cursor/rules" or folder.endswith("/.cursor/rules")


def titles(agents: Iterable[str]) -> str:
    """'Codex', 'Codex and Amp', 'Codex, Amp and Cursor'."""
    names = [TITLE[a] for a in ALL if a in set(agents)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else "no agent"


# ------------------------------------------------------------------ direct reading


class Setting(NamedTuple):
    """A settings file that changes what an agent reads (see ``find_settings``)."""

    agent: str
    key: str  # as the agent's docs name it
    file: str  # as shown: `.gemini/settings.json`, `~/.gemini/settings.json`


class Facts(NamedTuple):
    """What about the whole tree changes who reads a file."""

    any_agents_md: bool  # an AGENTS.md somewhere [GHR: Copilot]
    root_claude_and_gemini: bool  # both CLAUDE.md and GEMINI.md at the root [GHR]
    settings: tuple[Setting, ...]  # the repository's own settings that change an agent's reading

    def settings_of(self, agent: str) -> tuple[Setting, ...]:
        return tuple(s for s in self.settings if s.agent == agent)


# Kinds found by their name in a folder: an agent whose settings add names may read any.
NAMED_KINDS = FOLDER_KINDS | {K_CLAUDE_LOCAL}
# Kinds Claude Code skips over 4 MiB [CCM] ("a CLAUDE.md over 4 MiB is skipped").
CLAUDE_MD_KINDS = frozenset({K_CLAUDE, K_CLAUDE_DOT})


def direct(agent: str, kind: str, path: str, siblings: Mapping[str, str], facts: Facts, over_4_mib: bool = False) -> tuple[int, str]:
    """(how sure it is that ``agent`` reads ``path`` as guidance, why it does not or
    may not: "" when it does).

    ``siblings`` maps the kinds of the other guidance files speaking for the same
    folder to a file name of that kind. Reached by an @-import is judged separately
    (see ``Reading``)."""
    state, why = _direct(agent, kind, path, siblings, facts, over_4_mib)
    return with_settings(agent, kind, state, why, siblings, facts.settings)


def with_settings(agent: str, kind: str, state: int, why: str, siblings: Mapping[str, str], settings: Iterable[Setting]) -> tuple[int, str]:
    """A file's reading once settings files that change ``agent``'s are taken into
    account: each can only make a claim less sure, never surer."""
    for setting in settings:
        if setting.agent != agent:
            continue
        said = f"{setting.file} sets {setting.key}"
        if setting.key == "claudeMdExcludes" and state != NO:
            return MAYBE, f"{said}, which may exclude it"  # [CCM] excludes only skip files
        if setting.key == "context.fileName" and kind in NAMED_KINDS:
            return MAYBE, f"{said}: which names Gemini CLI reads is not worked out here"  # [GMD]
        if setting.key == "project_doc_max_bytes" and state == READS:
            return MAYBE, f"{said} (0 turns project files off): how much Codex reads is not worked out here"  # [CXS]
        if setting.key == "project_doc_fallback_filenames" and state == NO and kind in NAMED_KINDS and not {K_AGENTS, K_OVERRIDE} & ({kind} | set(siblings)):
            # [CXS] the fallbacks come after AGENTS.override.md and AGENTS.md, one file per folder
            return MAYBE, f"{said}: Codex may read it in a folder without AGENTS.md"
    return state, why


def _direct(agent: str, kind: str, path: str, siblings: Mapping[str, str], facts: Facts, over_4_mib: bool) -> tuple[int, str]:
    name = basename(path)
    root = owner_of(path, kind) == ""
    if kind == K_CUSTOM:
        return MAYBE, f"{name} is a name set in guidance.filenames: which agents read it is not known"
    if agent == CLAUDE_CODE:
        # [CCM] CLAUDE.md (or .claude/CLAUDE.md) and CLAUDE.local.md in every folder from
        # the root to the working folder; below it, when Claude reads a file there.
        if kind in CLAUDE_MD_KINDS:
            if over_4_mib:
                return NO, "Claude Code skips a CLAUDE.md over 4 MiB"
            if ({K_CLAUDE, K_CLAUDE_DOT} - {kind}) & set(siblings):
                return MAYBE, "CLAUDE.md and .claude/CLAUDE.md are both here: whether Claude Code reads both is unconfirmed"
            return READS, ""
        if kind == K_CLAUDE_LOCAL:
            if over_4_mib:
                return MAYBE, "over 4 MiB: Claude Code skips a CLAUDE.md that size, and whether it skips a CLAUDE.local.md is unconfirmed"
            return READS, ""
        if kind == K_CLAUDE_RULE:
            return (READS, "") if root else (MAYBE, "a .claude/rules folder below the repository root: unconfirmed for Claude Code")
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
            if K_OVERRIDE in siblings:
                return NO, "Codex reads that folder's AGENTS.override.md instead"
            if K_AGENTS in siblings:
                return NO, "Codex reads that folder's AGENTS.md"
            return MAYBE, f"Codex looks for AGENTS.md: a case-insensitive file system (macOS, Windows) finds {name} by that name, others do not"
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
                looked_for = AGENTS_MD if kind == K_AGENTS_CASE else AGENT_MD
                return MAYBE, f"Amp looks for {looked_for}: a case-insensitive file system (macOS, Windows) finds {name} by that name, others do not"
            if K_AGENTS_CASE in siblings:
                return MAYBE, f"{siblings[K_AGENTS_CASE]} is here, which a case-insensitive file system finds as AGENTS.md, and Amp reads {name} only in a folder without one"
            other = K_CLAUDE if kind == K_AGENT else K_AGENT
            if other in siblings or K_AGENT_CASE in siblings:
                shown = siblings.get(other) or siblings[K_AGENT_CASE]
                return MAYBE, f"{name} and {shown} are both here: which one Amp reads is unconfirmed"
            return READS, ""
        return NO, ""
    if agent == CURSOR:
        # [CUR] .cursor/rules/*.mdc (a plain .md there is ignored) and AGENTS.md; AGENTS.md
        # in subfolders and CLAUDE.md are (U).
        if kind == K_CURSOR_RULE:
            if root and directly_in_rules_folder(path):
                return READS, ""
            return MAYBE, "a rule outside the root's .cursor/rules folder: unconfirmed for Cursor"
        if kind == K_CURSOR_MD:
            return NO, "Cursor reads only .mdc files in .cursor/rules"
        if kind == K_AGENTS:
            return (READS, "") if root else (MAYBE, "whether Cursor reads AGENTS.md below the repository root is unconfirmed")
        if kind in CLAUDE_MD_KINDS or kind == K_CLAUDE_LOCAL:
            return MAYBE, "whether Cursor reads CLAUDE.md files is unconfirmed"
        if kind == K_AGENTS_CASE:
            return MAYBE, f"Cursor reads AGENTS.md: a case-insensitive file system (macOS, Windows) finds {name} by that name, others do not"
        return NO, ""
    if agent == COPILOT:
        # [GHR] .github/copilot-instructions.md, .github/instructions/**/*.instructions.md,
        # AGENTS.md anywhere (the nearest takes precedence), or one CLAUDE.md or GEMINI.md
        # at the root; [GHC] the CLI adds the working folder.
        if kind in (K_COPILOT, K_COPILOT_PATH):
            return (READS, "") if root else (MAYBE, "a .github folder below the repository root: unconfirmed for Copilot")
        if kind == K_AGENTS:
            return READS, ""
        if kind in (K_CLAUDE, K_GEMINI):
            if not root:
                return MAYBE, "below the root: the coding agent reads only the root's CLAUDE.md or GEMINI.md, and the CLI's reading of its working folder is unconfirmed"
            if facts.root_claude_and_gemini:
                return MAYBE, "CLAUDE.md and GEMINI.md are both at the root, and the coding agent reads one of them: which is unconfirmed"
            if facts.any_agents_md:
                return MAYBE, "the coding agent reads AGENTS.md, or one CLAUDE.md or GEMINI.md at the root: whether it reads this one in a repository with AGENTS.md is unconfirmed"
            return READS, ""
        if kind == K_AGENTS_CASE:
            return MAYBE, f"Copilot reads AGENTS.md: a case-insensitive file system (macOS, Windows) finds {name} by that name, others do not"
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


def _file_imports(ws: Workspace, current: str, doc: Document, first: Import | None, missing: list[tuple[str, Import]]) -> Iterator[tuple[Import, Import]]:
    """(the root's first-hop import, the import) for each @-import of ``doc`` naming a
    file on disk (globs aside); an import of nothing on disk goes to ``missing``. The
    step that ``_visit`` and ``_walk`` share."""
    for imp in imports(ws, doc):
        if imp.kind != mentions.PATH or is_glob_mention(imp):
            continue
        if not ws.is_file(imp.target):
            if not ws.exists(imp.target):
                missing.append((current, imp))
            continue
        yield first or imp, imp


# A function of the module rather than a closure inside expand(): a closure that calls
# itself is a reference cycle, and checks run with the cycle collector off.
def _visit(ws: Workspace, current: str, chain: tuple[str, ...], first: Import | None, max_depth: int, result: Expansion, seen: set[str]) -> None:
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


def approx_tokens(size: int) -> int:
    """Roughly four bytes per token for English Markdown (the usual rule of thumb)."""
    return (size + 3) // 4


class Reach:
    """What ``expand`` finds, told in sums: the files and tokens loaded at each depth,
    and its cycles, too-deep chains and missing imports, in the same order.

    Every guidance file importing one shared file would otherwise expand that file's
    imports again: time in files x files imported (expand_hub, 150/300/600 files
    importing one hub of as many: 0.56/1.72/4.51 s). A file's own reach is worked out
    once per depth limit (at most ``FOLLOW_UNKNOWN`` + 1 of them) and taken whole by a
    file importing it, when none of the files it looked at is already on the way
    there: then expanding it there finds exactly what it found alone."""

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
    known: dict[tuple[str, int], Reach] = ws.once("import-reach", dict)
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
        if ws.once("import-graph", lambda: ImportGraph(ws)).cyclic(ws, imp.target):
            # A file on a cycle of imports: its reach would hold the files leading to it,
            # never taken whole; working it out at every depth limit cost files x files.
            _walk(ws, imp.target, (*chain, imp.target), hop, max_depth, result)
            continue
        part = reach(ws, imp.target, max_depth - len(chain))
        touched = part.touched()
        if any(p in touched for p in chain) or not touched.isdisjoint(result._seen) or any(not touched.isdisjoint(p.visited()) for p in result._parts):
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


def follow_depth(agent: str) -> int:
    depth = IMPORT_DEPTH[agent]
    return 0 if depth is None else FOLLOW_UNKNOWN if depth == UNKNOWN else depth


def import_targets(ws: Workspace, path: str) -> tuple[str, ...]:
    """The files an @-import in ``path`` names that exist (globs aside), worked out
    once per run: the model of who reads what asks once per agent, and each answer
    costs an lstat per import."""
    known: dict[str, tuple[str, ...]] = ws.once("import-targets", dict)
    found = known.get(path)
    if found is None:
        found = known[path] = tuple(i.target for i in imports(ws, ws.document(path)) if i.kind == mentions.PATH and not is_glob_mention(i) and ws.is_file(i.target))
    return found


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
    # Most pairs of files import nothing of each other: the import graph answers that
    # once per target, and only a source that reaches it is expanded (its depth limit
    # and reading order decide). Expanding every source of every pair took time in
    # pairs x files imported (drift_hub at 150/300/600 folders: 7.45/29.48/113.95 s).
    if not ws.once("import-graph", lambda: ImportGraph(ws)).reaches(ws, source, target):
        return NO
    depth = IMPORT_DEPTH[agent]
    wanted = realpath(ws, target)
    for x in expand(ws, source, follow_depth(agent)).loaded[1:]:
        if realpath(ws, x.path) == wanted:
            if follows == READS and (depth != UNKNOWN or x.depth == 1):
                return READS
            return MAYBE
    return NO


def realpath(ws: Workspace, path: str) -> str:
    """``os.path.realpath`` of a repository path, worked out once per run.

    A plain path (no ``.``, ``..`` or empty part) is its folder's real path and its
    name, the name followed only if it is a symlink: each folder is resolved once,
    not once per file below it (``os.path.realpath`` looks at every part of the
    path, an lstat each: a tenth of a check on a tree of guidance files ten folders
    deep)."""
    known: dict[str, str] = ws.once("realpaths", dict)
    found = known.get(path)
    if found is not None:
        return found
    parts = path.split("/")
    if path.startswith("/") or any(p in ("", ".", "..") for p in parts):
        found = known[path] = os.path.realpath(ws.root / path)
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
        if os.path.islink(found):
            found = os.path.realpath(found)
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
        by_folder: dict[str, dict[str, list[str]]] = {}  # folder -> kind -> its files there
        for p, k in self.kind.items():
            if k in FOLDER_KINDS:
                by_folder.setdefault(self.owner[p], {}).setdefault(k, []).append(p)
        self.folder_kinds = {f: frozenset(ks) for f, ks in by_folder.items()}
        self.facts = repository_facts(ws, self.kind.values(), self.folder_kinds.get("", frozenset()))
        # The other files of each file's folder, by kind (agents.md beside Agents.md keeps its kind).
        self.siblings: dict[str, dict[str, str]] = {}
        for p, k in self.kind.items():
            own = self.owner[p]
            self.siblings[p] = {kk: name_in(own, others[0]) for kk, ps in by_folder.get(own, {}).items() if k in FOLDER_KINDS and (others := [q for q in ps if q != p])}
        # [CCM] Claude Code skips a CLAUDE.md over 4 MiB (memcheck reads 1 MiB, but knows the size).
        self.over_4_mib = frozenset(
            p for p, k in self.kind.items() if k in CLAUDE_MD_KINDS | {K_CLAUDE_LOCAL} and ws.document(self.real.get(p, p)).size > CLAUDE_SKIP_BYTES
        )
        self.direct = {p: {a: direct(a, k, p, self.siblings[p], self.facts, p in self.over_4_mib) for a in ALL} for p, k in self.kind.items()}
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


# Settings files that change what an agent reads, and the key that does it:
# (agent, file, text that names the key, the key). A file that names the key makes
# that agent's answers less sure; memcheck does not work out the value.
_SETTINGS = (
    (GEMINI, ".gemini/settings.json", "fileName", "context.fileName"),  # [GMD]
    (CODEX, ".codex/config.toml", "project_doc_fallback_filenames", "project_doc_fallback_filenames"),  # [CXS]
    (CODEX, ".codex/config.toml", "project_doc_max_bytes", "project_doc_max_bytes"),  # [CXS]
    (CLAUDE_CODE, ".claude/settings.json", "claudeMdExcludes", "claudeMdExcludes"),  # [CCM]
    (CLAUDE_CODE, ".claude/settings.local.json", "claudeMdExcludes", "claudeMdExcludes"),
)


def find_settings(text_of: Callable[[str], str], shown: Callable[[str], str]) -> tuple[Setting, ...]:
    """The settings among ``_SETTINGS`` that ``text_of(file)`` names."""
    return tuple(Setting(agent, key, shown(file)) for agent, file, needle, key in _SETTINGS if needle in text_of(file))


def repository_facts(ws: Workspace, kinds: Iterable[str], root_kinds: frozenset[str]) -> Facts:
    return Facts(K_AGENTS in set(kinds), {K_CLAUDE, K_GEMINI} <= root_kinds, find_settings(lambda f: _settings_text(ws, f), lambda f: f"this repository's {f}"))


def _settings_text(ws: Workspace, path: str) -> str:
    if path not in ws.file_set:
        return ""
    doc = ws.document(path)
    return doc.text if doc.error is None else ""


def reading(ws: Workspace) -> Reading:
    """The tree's reading, worked out once per run."""
    return ws.once("agent-reading", lambda: Reading(ws))


# ------------------------------------------------------------------ Codex's budget

# How Codex takes one project file [CXS agents_md.rs]: it reads the whole file; when
# it is larger than what is left of the budget it keeps only that much; the text
# (decoded lossily) is skipped when `trim()` leaves nothing, and then costs nothing;
# otherwise it is kept and its bytes are taken from the budget. The loop stops once
# the budget is spent.
WHOLE, BLANK, CUT, CUT_BLANK, DROPPED, UNKNOWN_SIZE = "whole", "blank", "cut", "cut-blank", "dropped", "unknown"
# What Rust's str::trim() strips: Unicode White_Space (Python's str.strip() takes more).
RUST_WHITESPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"


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


def codex_takes(ws: Workspace, path: str, remaining: int | None, budget: int = CODEX_PROJECT_BUDGET) -> tuple[Cut, int | None]:
    """(what Codex does with ``path`` when ``remaining`` bytes of the budget are left,
    what is left after it); None when the budget left is not known (a symlink out of
    the repository, which memcheck does not follow, was taken before)."""
    doc = ws.document(path)
    if remaining is None:
        return Cut(path, doc.size, 0, UNKNOWN_SIZE, 0), None
    spent = budget - remaining
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


def codex_chain(ws: Workspace, paths: Sequence[str], budget: int = CODEX_PROJECT_BUDGET) -> list[Cut]:
    """What Codex keeps of each project file, from the root down."""
    remaining: int | None = budget
    cuts = []
    for path in paths:
        cut, remaining = codex_takes(ws, path, remaining, budget)
        cuts.append(cut)
    return cuts


def _head(ws: Workspace, path: str, size: int) -> bytes | None:
    try:
        with open(os.path.join(ws.root, path), "rb") as f:
            return f.read(size)
    except OSError:
        return None


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
USER_RULES = ".claude/rules"  # [CCM] ~/.claude/rules/: the user's rules load before the project's
CODEX_GLOBAL = (OVERRIDE_MD, AGENTS_MD)  # in $CODEX_HOME, the first non-blank [CXS]


def user_reader(path: str) -> dict[str, int]:
    """Who reads a user-level file (``~/``-relative)."""
    found = {a: READS for a, files in USER_FILES.items() if path in files}
    if path.startswith(USER_RULES + "/") and path.endswith(".md"):
        found[CLAUDE_CODE] = READS
    return found


def codex_home(home: Path) -> Path:
    """[CXD][CXS] Codex's global folder: $CODEX_HOME, by default ~/.codex."""
    value = os.environ.get("CODEX_HOME")
    return Path(os.path.abspath(os.path.expanduser(value))) if value else home / ".codex"


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
        if file.endswith("settings.local.json"):
            return ""  # a repository's own file; the user's settings are settings.json
        doc = document.read("/", where.get(file, str(home / file)))
        return doc.text if doc.error is None else ""

    return machine._replace(settings=find_settings(text_of, lambda f: "your " + machine.shown(where.get(f, str(home / f)))))


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


def _chain(folder: str) -> list[str]:
    """The root, then each folder down to ``folder``."""
    parts = folder.split("/") if folder else []
    return ["/".join(parts[:i]) for i in range(len(parts) + 1)]


def _scope(step: str, folder: str) -> str:
    return "project" if step == "" else "subtree" if step == folder else "parent"


Place = Callable[[str], "Workspace"]  # an absolute folder outside the repository -> a workspace of it


def sources(ws: Workspace, agent: str, target: str, is_folder: bool, machine: Machine | None = None, place: Place | None = None) -> list[Source]:
    """What ``agent`` loads when working on ``target`` (a file, or a folder: the agent
    started there), in its reading order, from the same model the checks use; with
    ``machine``, the user's own files and settings too (``place`` reads them)."""
    model = reading(ws)
    folder = target if is_folder else parent(target)
    chain = _chain(folder)
    on_chain = set(chain)
    found: list[Source] = []
    settings = machine.settings if machine is not None else ()
    if machine is not None and place is not None:
        found.extend(_user_sources(machine, agent, target, is_folder, place, model.facts))
        found.extend(_above_root_sources(ws, machine, agent, place, model.facts))
    by_folder: dict[str, list[str]] = {}
    for path in model.kind:
        by_folder.setdefault(model.owner[path], []).append(path)

    def state(path: str) -> tuple[int, str]:
        return model.direct_with(path, agent, settings)

    folder_files = [(step, p) for step in chain for p in sorted(by_folder.get(step, ()), key=lambda p: _ORDER.get(model.kind[p], 99)) if model.kind[p] in NAMED_KINDS]
    if agent == COPILOT:
        found.extend(_copilot_sources(ws, model, target, is_folder, on_chain, folder_files, state))
        return found
    for step, p in folder_files:
        sure, why = state(p)
        kind = model.kind[p]
        if sure != NO:
            found.append(Source(p, _scope(step, folder), sure, why or _why_folder_file(agent, kind)))
        elif (agent == CODEX and kind == K_AGENTS and K_OVERRIDE in model.siblings[p]) or (agent == CLAUDE_CODE and p in model.over_4_mib):
            found.append(Source(p, _scope(step, folder), NO, why))  # a file the agent would read, and why it does not
    if agent == CLAUDE_CODE:
        found.extend(_rule_sources(ws, model, target, is_folder, on_chain, K_CLAUDE_RULE, state))
    elif agent == CURSOR:
        found.extend(_rule_sources(ws, model, target, is_folder, on_chain, K_CURSOR_RULE, state))
    return found


_ORDER = {K_OVERRIDE: 0, K_AGENTS: 1, K_AGENTS_CASE: 2, K_AGENT: 3, K_AGENT_CASE: 4, K_CLAUDE: 5, K_CLAUDE_DOT: 6, K_CLAUDE_LOCAL: 7, K_GEMINI: 8, K_CUSTOM: 9}


def _why_folder_file(agent: str, kind: str) -> str:
    """Why ``agent`` reads a file of ``kind`` on the way to the working folder."""
    if agent == CLAUDE_CODE:
        return "personal instructions, after the folder's CLAUDE.md" if kind == K_CLAUDE_LOCAL else "every folder from the root down"
    if agent == CODEX:
        return "one file per folder, root first"
    if agent == AMP:
        return "no AGENTS.md in this folder" if kind != K_AGENTS else "every folder from the root down"
    if agent == GEMINI:
        return "every folder from the project root down"
    return "AGENTS.md is one of Cursor's rule kinds" if agent == CURSOR else ""


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

    return globs.split_list(value) if isinstance(value, str) else [p for p in value if isinstance(p, str)] if isinstance(value, list) else []


def _rule_sources(ws: Workspace, model: Reading, target: str, is_folder: bool, on_chain: set[str], kind: str, state: Callable[[str], tuple[int, str]]) -> list[Source]:
    found = []
    for path in sorted(p for p, k in model.kind.items() if k == kind and model.owner[p] in on_chain):
        sure, why = state(path)
        if sure == NO:
            continue
        doc = ws.document(model.real.get(path, path))
        if kind == K_CURSOR_RULE:
            found.append(Source(path, "rule", MAYBE, why or f"a project rule ({frontmatter_shown(doc, ('alwaysApply', 'globs', 'description'))}); how Cursor applies its keys is unconfirmed"))
            continue
        found.append(_paths_rule(path, doc, sure, why, target, is_folder, model.owner[path]))
    return found


def _paths_rule(path: str, doc: Document, sure: int, why: str, target: str, is_folder: bool, owner: str, base: str = "", scope: str = "rule") -> Source:
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
    ws: Workspace, model: Reading, target: str, is_folder: bool, on_chain: set[str], folder_files: list[tuple[str, str]], state: Callable[[str], tuple[int, str]]
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
    if agent == CODEX:
        # [CXS] the first non-blank of AGENTS.override.md, AGENTS.md in $CODEX_HOME
        folder = str(machine.codex_home)
        present = [n for n in CODEX_GLOBAL if os.path.isfile(os.path.join(folder, n))]
        for name in [n for n in present if not is_blank(place(folder).document(n))][:1]:
            found.append(Source(name, "user", READS, "user instructions", folder))
        return found
    for name in USER_FILES[agent]:
        if os.path.isfile(os.path.join(home, name)):
            sure, why = with_settings(agent, kind_of(name, _USER_NAMES) or "", READS, "", {}, settings)
            found.append(Source(name, "user", sure, why or "user instructions" + (" (Copilot CLI only)" if agent == COPILOT else ""), home))
    if agent == CLAUDE_CODE:
        rules = os.path.join(home, USER_RULES)
        if os.path.isdir(rules):
            from memcheck.workspace.disk import walk_files

            for rel in walk_files(Path(rules)):
                if rel.endswith(".md"):
                    path = f"{USER_RULES}/{rel}"
                    sure, why = with_settings(agent, K_CLAUDE_RULE, READS, "", {}, settings)
                    found.append(_paths_rule(path, place(home).document(path), sure, why, target, is_folder, "", home, "user"))
    return found


_USER_NAMES = (CLAUDE_MD, AGENTS_MD, GEMINI_MD)


def _above_root_sources(ws: Workspace, machine: Machine, agent: str, place: Place, facts: Facts) -> list[Source]:
    """Guidance files in the folders above the repository that the agent reads:
    Claude Code's CLAUDE.md and CLAUDE.local.md from every ancestor of the working
    folder [CCM], Amp's AGENTS.md (or AGENT.md, CLAUDE.md) from parents up to $HOME
    [AMP]. The filesystem's root first."""
    if agent not in (CLAUDE_CODE, AMP):
        return []
    names = (CLAUDE_MD, ".claude/CLAUDE.md", CLAUDE_LOCAL_MD) if agent == CLAUDE_CODE else (AGENTS_MD, AGENT_MD, CLAUDE_MD)
    root = Path(ws.root)
    home = machine.home
    under_home = home in root.parents
    settings = facts.settings + machine.settings
    found = []
    for folder in reversed(root.parents):
        present = {}
        for name in names:
            if agent == CLAUDE_CODE and folder == home and name == ".claude/CLAUDE.md":
                continue  # the user's own ~/.claude/CLAUDE.md, listed first
            full = os.path.join(folder, name)
            if os.path.isfile(full):
                kind = K_CLAUDE_DOT if name.startswith(".claude/") else _BY_NAME[name]
                present[kind] = name
        for kind, name in present.items():
            siblings = {k: n for k, n in present.items() if k != kind and k in FOLDER_KINDS}
            over = kind in CLAUDE_MD_KINDS | {K_CLAUDE_LOCAL} and os.path.getsize(os.path.join(folder, name)) > CLAUDE_SKIP_BYTES
            sure, why = _direct(agent, kind, name, siblings, facts, over)
            sure, why = with_settings(agent, kind, sure, why, siblings, settings)
            if agent == AMP and sure != NO:
                if not under_home:
                    sure, why = MAYBE, "Amp reads parent folders up to $HOME, and this repository is not under $HOME: unconfirmed"
                elif folder == home:
                    sure, why = MAYBE, "Amp reads parent folders up to $HOME: whether $HOME itself is one is unconfirmed"
                elif home not in folder.parents:
                    continue  # above $HOME
            if sure != NO or (agent == CLAUDE_CODE and over):
                found.append(Source(name, "above", sure, why or ("a folder above the repository: every ancestor of the working folder" if agent == CLAUDE_CODE else "a parent folder of the repository, below $HOME"), str(folder)))
    return found
