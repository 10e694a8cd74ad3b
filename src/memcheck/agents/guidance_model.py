"""What the configured agents make of a repository's guidance files, as the GDN checks
and `memcheck context` ask it of ``memcheck.agents``' reading model: who reads a file,
how far its @-imports are followed, which files speak for a folder and to whom, what
Codex's project budget leaves of each file, where Copilot code review stops reading,
and which names collide by case.

These are facts about the tree, worked out the same way for every caller; the rules
in ``checks/guidance.py`` decide what is a finding and say it.
"""

from __future__ import annotations

import bisect
import fnmatch
import posixpath
import re
from functools import cache
from typing import TYPE_CHECKING, Iterator, Mapping, Sequence

from memcheck import agents
from memcheck.agents import expansion
from memcheck.agents import readers as reading_model
from memcheck.paths import basename, join, parent
from memcheck.records import NamedTuple
from memcheck.text import patterns as globs
from memcheck.workspace.links_out import leads_to
from memcheck.workspace.memo import MODEL, SKILLS, kept_with

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

# Expanding imports for the size budget: as far as the deepest-reading agent follows.
BUDGET_DEPTH = max(a.import_depth for a in agents.load() if a.import_depth is not None)


def file_kind(ws: Workspace, path: str) -> str | None:
    return agents.kind_of(path, ws.config.guidance.filenames)


def readers(ws: Workspace, path: str) -> dict[str, int]:
    """How sure it is that each configured agent reads ``path``."""
    if ws.user:
        found = reading_model.user_reader(path)
        return {a: found.get(a, agents.NO) for a in ws.config.agents}
    return reading_model.reading(ws).readers(path, ws.config.agents)


def outside_link_message(ws: Workspace, path: str) -> str:
    """What to say of a guidance file that is a symlink out of the repository."""
    target = ws.link_target(path) or "a file"
    return f"{basename(path)} is a symlink to {leads_to(ws, path, target)}, so memcheck does not follow it and checks nothing in it ({who_reads(ws, path)}); keep the file in the repository to have it checked and in every clone"


def claude_skips(ws: Workspace, doc: Document, kind: str | None) -> str:
    """What to add to a message about a file too large to read: Claude Code skips it."""
    if (
        kind is None
        or agents.CLAUDE_CODE not in ws.config.agents
        or not agents.skips_for_size(agents.CLAUDE_CODE, kind, doc.size, surely=True)
    ):
        return ""
    return "; Claude Code skips it too (over 4 MiB)"


def who_reads(ws: Workspace, path: str) -> str:
    """Which configured agents read ``path``, and which may, in words."""
    readers_of = readers(ws, path)
    sure = [a for a, state in readers_of.items() if state == agents.READS]
    maybe = [a for a, state in readers_of.items() if state == agents.MAYBE]
    said = [
        f"{agents.titles(sure)} {'reads' if len(sure) == 1 else 'read'} it" if sure else "",
        f"{agents.titles(maybe)} may" if maybe else "",
    ]
    return "; ".join(part for part in said if part) or "no configured agent reads it"


def file_index(ws: Workspace) -> globs.FileIndex:
    """The tree's files, indexed for glob questions: built once per run, and only
    when a check asks one."""
    return ws.once(_file_index)


def _file_index(ws: Workspace) -> globs.FileIndex:
    return globs.FileIndex(ws.files)


def glob_matches(ws: Workspace, pattern: str, folder: str = "") -> bool:
    """Does ``pattern`` name a file or folder of the checkout (see ``FileIndex.any_match``)?
    The listed files first; only when none matches, the disk, ignored and untracked
    files included (a workspace clones its child repositories into a git-ignored
    folder, and its rules target them), walked only where the pattern leads."""
    if file_index(ws).any_match(pattern, folder):
        return True
    # Without git's listing every file is listed already (but the ones `exclude` names).
    return (ws.listed_by_git or bool(ws.config.exclude)) and ws.once(_Checkout).any_match(pattern, folder)


# ------------------------------------------------------------ a tree without code

# The endings of programming languages' source files, shell scripts and SQL among
# them. Markup, data, documentation and images (`.html`, `.json`, `.md`, `.svg`) are
# not: a tree of agent files holds them too (a logo, its preview page, settings).
_CODE_ENDINGS = frozenset(
    """py pyi ipynb go rs js mjs cjs jsx ts mts cts tsx vue svelte astro java kt kts scala
    groovy swift m mm c h cc cpp cxx hpp hh cs fs vb rb php pl pm lua dart ex exs erl clj
    elm hs ml r jl nim zig sol sh bash zsh fish ps1 sql""".split()
)


# Endings a rule's patterns name a kind of file by, code's and the rest a project is
# written in (styles, markup, data): a pattern of one that matches nothing names a kind
# the tree has none of (see guidance_kinds._kind_absent).
KNOWN_ENDINGS = _CODE_ENDINGS | frozenset(
    """css scss sass less styl pcss html htm xhtml md mdx markdown rst adoc txt json jsonc
    json5 yaml yml toml ini xml xsd svg graphql gql proto prisma tf tfvars hcl cfg conf
    env csv tsv lock gradle cmake mk mako jinja j2 hbs ejs pug twig erb razor cshtml""".split()
)


def holds_source_code(ws: Workspace) -> bool:
    """Whether the tree holds a source file of its own: one with a programming
    language's ending (``_CODE_ENDINGS``) outside the agents' own folders
    (``.claude``, ``.github``, ...) and outside skill folders (a skill's scripts are
    the skill's). Git's listing only, ignored files left out: every clone answers
    the same. A tree without one is a kit of agent files (rules, skills, subagents)
    that other projects copy in: its rules' paths name those projects' files."""
    return ws.once(_holds_source_code)


@kept_with(SKILLS)
def _holds_source_code(ws: Workspace) -> bool:
    own = settings_folders()
    skills: frozenset[str] | None = None
    for path in ws.tree_files:
        stem, dot, ending = path.rpartition(".")
        if not dot or "/" in ending or ending.lower() not in _CODE_ENDINGS:
            continue
        folders = path.split("/")[:-1]
        if not own.isdisjoint(folders):
            continue
        if skills is None:
            skills = ws.skill_folders
        if not any("/".join(folders[:i]) in skills for i in range(1, len(folders) + 1)):
            return True
    return False


def holds_only_agent_settings(ws: Workspace, folder: str) -> bool:
    """Whether ``folder`` holds nothing but agents' settings: besides the agents' own
    folders (``.claude/``, ...), only files at its top that are its guidance, README or
    changelog, dotfiles, templates or examples, or links into those folders (a rules
    folder below the root, ``project/.claude/rules/``, in a kit that copies ``project/``
    into the projects its paths name). A folder with any other file, or a file in a
    folder of its own (``docs/content/``, ``infra/main.tf``, ``notes/a.md``), is a
    project, whose rules are its own."""
    return folder not in ws.once(_busy_folders)


def _busy_folders(ws: Workspace) -> frozenset[str]:
    """Every folder that holds something besides agents' settings (see holds_only_agent_settings)."""
    own = settings_folders()
    found: set[str] = set()
    for path in ws.tree_files:
        folders = path.split("/")
        name = folders.pop()
        for depth in range(len(folders), 0, -1):
            above = "/".join(folders[:depth])
            if above in found:
                break
            below = folders[depth:]
            if below and below[0] in own:
                continue  # in that folder's agents' own folder: settings
            if not below and _a_setting(ws, path, name):
                continue
            found.add(above)
    return frozenset(found)


def _a_setting(ws: Workspace, path: str, name: str) -> bool:
    """A file at a settings folder's top: a guidance file or the folder's README,
    changelog, version history or licence (Markdown), a dotfile (`.mcp.json`), a
    template or an example (`CLAUDE.local.md.template`, `.mcp.json.example`), or a link
    into one of its agents' own folders (`claude-guidelines -> .claude/rules`). Not
    other Markdown: a folder of notes or a docs site's pages is a project of its own."""
    lowered = name.lower()
    if name.startswith(".") or lowered.endswith((".template", ".example")):
        return True
    if lowered.endswith(".md"):
        return name in ws.config.guidance.filenames or lowered.startswith(_ABOUT_THE_FOLDER)
    if "." in name or not ws.on_disk("islink", path):
        return False
    target = ws.link_target(path) or ""
    return target.split("/")[0] in settings_folders()


# The Markdown a folder holds about itself, by the start of its name.
_ABOUT_THE_FOLDER = ("readme", "changelog", "changes", "history", "version", "license", "licence")


@cache
def settings_folders() -> frozenset[str]:
    """The folders agents keep their settings and files in (``.claude``, ``.github``,
    ``.cursor``, ``.kiro``, ...), from the agent data."""
    from memcheck.agents import kinds as agentkinds
    from memcheck.agents.facts import file_kinds

    folders = {k.in_folder.split("/")[0] for k in file_kinds() if k.in_folder} | {k.parent_folder for k in file_kinds() if k.parent_folder}
    folders.update(glob.removeprefix("**/").split("/")[0] for kind in agentkinds.kinds() for glob in kind.globs)
    return frozenset(f for f in folders if f.startswith("."))


# ------------------------------------------------------- folders a setup step fills

# The files that may hold the step that clones sub-repositories into an ignored
# folder (a make target, a script, a task runner's file, a manifest's tool), by name
# or ending, at the root or one folder down.
_SETUP_NAMES = frozenset(("Makefile", "GNUmakefile", "makefile", "justfile", "Justfile", "Taskfile.yml", "Taskfile.yaml"))
_SETUP_ENDINGS = (".mk", ".sh", ".bash", ".ps1", ".py", ".js", ".mjs", ".ts", ".json", ".toml", ".yaml", ".yml")
_SETUP_MAX_BYTES = 200_000


def could_be_cloned_into(ws: Workspace, pattern: str, folder: str = "") -> str | None:
    """The git-ignored folder a setup step of the repository clones sub-repositories
    into, where ``pattern`` (matching nothing now) may name files once it has run, or
    None. On a fresh clone or in CI that folder is absent, and the rules for the
    sub-repositories' files match nothing until the step is run."""
    for target in ws.once(_clone_folders):
        if _may_lead_into(pattern, folder, target):
            return target
    return None


def _clone_folders(ws: Workspace) -> tuple[str, ...]:
    """The folders the root .gitignore names (plain names, no wildcards) that a
    tracked setup file names beside the word "clone": where the repository's own
    step clones other repositories. A folder ignored for build output (``dist/``,
    ``node_modules/``) is named by no such file, and keeps its dead globs reported."""
    if not ws.is_file(".gitignore"):
        return ()
    ignored = []
    for line in ws.document(".gitignore").text.splitlines():
        name = line.strip().strip("/")
        if name and not line.lstrip().startswith(("#", "!")) and not any(c in name for c in "*?[\\ "):
            ignored.append(name)
    if not ignored:
        return ()
    found: set[str] = set()
    for path in ws.tree_files:
        if path.count("/") > 1 or not (basename(path) in _SETUP_NAMES or path.endswith(_SETUP_ENDINGS)):
            continue
        doc = ws.document(path)
        if doc.error is not None or doc.size > _SETUP_MAX_BYTES or not re.search(r"\bclone\b", doc.text, re.IGNORECASE):
            continue
        for name in ignored:
            if name not in found and re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", doc.text):
                found.add(name)
    return tuple(sorted(found))


def _may_lead_into(pattern: str, folder: str, target: str) -> bool:
    """Could ``pattern``, tried from the root or from ``folder``, name a path below
    ``target``? A slash-less pattern or one that starts with ``**`` may; otherwise its
    leading segments must match the folder's."""
    wanted = target.split("/")
    for alt in globs.compile_glob(pattern):
        if alt.anywhere:
            return True
        for base in ([], folder.split("/")) if folder else ([],):
            segments = (*base, *alt.segments)
            for i, name in enumerate(wanted):
                if i >= len(segments) or segments[i] == "**":
                    return True
                if not fnmatch.fnmatchcase(name, segments[i]):
                    break
            else:
                return True
    return False


class _Checkout:
    """The checkout on disk, read one folder at a time as globs ask (each folder once
    per run), and the answers."""

    def __init__(self, ws: Workspace) -> None:
        # No reference to ``ws`` is kept (see reading_model.Reading).
        self._entries_in = ws.source.entries_in
        self._read: dict[str, tuple[list[str], list[str]]] = {}
        self._answers: dict[tuple[str, str], bool] = {}
        self._whole: globs.FileIndex | None = None

    def any_match(self, pattern: str, folder: str) -> bool:
        key = (pattern, folder)
        if key not in self._answers:
            if self._whole is not None:
                self._answers[key] = self._whole.any_match(pattern, folder)
            else:
                self._answers[key] = found = globs.any_in_tree(pattern, folder, self._entries)
                if not found and any(alt.anywhere or alt.segments[0] == "**" for alt in globs.compile_glob(pattern)):
                    # A ** from the root that found nothing has read every folder. Walking
                    # it again for each further dead glob is work per pair of glob and
                    # file (75 ms a glob over 50,000 ignored files); the index answers
                    # each from the names and extensions it fixes.
                    self._whole = globs.FileIndex(self._everything_read())
        return self._answers[key]

    def _everything_read(self) -> list[str]:
        return [f"{at}/{name}" if at else name for at, (folders, others) in self._read.items() for name in (*folders, *others)]

    def _entries(self, folder: str) -> tuple[list[str], list[str]]:
        found = self._read.get(folder)
        if found is None:
            found = self._read[folder] = self._entries_in(folder)
        return found


# ---------------------------------------------------------------- @-imports


def followed_imports(ws: Workspace, path: str, read_by: Mapping[str, int]) -> tuple[expansion.Reach, bool]:
    """What ``path``'s @-imports bring in, and whether anything follows them: an agent
    among ``read_by`` that follows imports, or ``guidance.max-import-depth``. They are
    followed as deep as the deepest-reading such agent follows them (as `memcheck
    context` shows them), or the house limit when it is deeper; with neither, as deep
    as the size budget looks. In sums, shared with every file importing the same ones
    (see expansion.Reach)."""
    depths = [
        expansion.follow_depth(a) for a, state in read_by.items() if state != agents.NO and agents.agent(a).follows_imports == agents.READS
    ]
    house = ws.config.guidance.max_import_depth
    reached = expansion.reach(ws, path, max([house or 0, *depths]) if depths or house else BUDGET_DEPTH)
    return reached, bool(depths) or house is not None


def reads_as_root(ws: Workspace, path: str, read_by: Mapping[str, int]) -> set[str]:
    """The configured agents that read ``path`` as a root of their reading, under any
    of its names, not only as a file an import of another brings in (at user level,
    where there is no tree to import from: those of ``read_by`` that read it)."""
    if ws.user:
        return {a for a in ws.config.agents if read_by.get(a) == agents.READS}
    model = reading_model.reading(ws)
    names = model.names_of(path)
    return {a for a in ws.config.agents if any(model.direct.get(n, {}).get(a, (agents.NO, ""))[0] == agents.READS for n in names)}


def import_path(source: str, target: str) -> str:
    """How ``source`` names ``target`` in an @-import: relative to its folder."""
    return posixpath.relpath(target, parent(source) or ".")


# ---------------------------------------------------------------- a folder's instructions


def kind_rank(model: reading_model.Reading, path: str) -> int:
    """Which of a folder's files is named first: AGENTS.md, CLAUDE.md, .claude/CLAUDE.md,
    GEMINI.md, AGENTS.override.md, AGENT.md, then the rest."""
    order = (agents.K_AGENTS, agents.K_CLAUDE, agents.K_CLAUDE_DOT, agents.K_GEMINI, agents.K_OVERRIDE, agents.K_AGENT)
    kind = model.kind.get(path)
    return order.index(kind) if kind in order else len(order)


def folder_files(model: reading_model.Reading) -> dict[str, list[str]]:
    """Folder -> the files that speak for it as its instructions."""
    by_folder: dict[str, list[str]] = {}
    for p, kind in model.kind.items():
        if kind in agents.folder_kinds():
            by_folder.setdefault(model.owner[p], []).append(p)
    return by_folder


def read_beside(model: reading_model.Reading, path: str, by_folder: dict[str, list[str]]) -> str | None:
    """A file of the same folder that a configured agent reads, named from that
    folder (AGENTS.md first): where an unread file's text would reach them."""
    folder = model.owner[path]
    beside = [
        p
        for p in by_folder.get(folder, ())
        if p not in model.names_of(path) and any(model.state(a, p) == agents.READS for a in model.configured)
    ]
    beside.sort(key=lambda p: (kind_rank(model, p), p))
    return reading_model.name_in(folder, beside[0]) if beside else None


class Side(NamedTuple):
    """One file the configured agents read as a folder's instructions."""

    real: str  # the file itself (a symlink's target)
    read_as: str  # a name agents read it under in that folder
    readers: list[str]  # the configured agents that read it there


def folder_sides(model: reading_model.Reading) -> Iterator[tuple[str, list[Side]]]:
    """Per folder where configured agents read different files as its instructions,
    those files: the one most agents read first (then by kind_rank, then by path)."""
    by_folder: dict[str, dict[str, list[str]]] = {}  # folder -> real file -> its readers
    read_as: dict[str, str] = {}
    for path, kind in sorted(model.kind.items()):
        if kind not in agents.folder_kinds():
            continue
        real = model.real.get(path, path)
        for agent in model.configured:
            if model.direct[path][agent][0] == agents.READS:
                found = by_folder.setdefault(model.owner[path], {}).setdefault(real, [])
                read_as.setdefault(real, path)
                if agent not in found:
                    found.append(agent)
    for folder, groups in by_folder.items():
        if len(groups) < 2:
            continue
        ranked = sorted(groups, key=lambda f: (-len(groups[f]), kind_rank(model, read_as[f]), f))
        yield folder, [Side(f, read_as[f], groups[f]) for f in ranked]


@kept_with(MODEL)
def folder_sides_once(ws: Workspace) -> list[tuple[str, list[Side]]]:
    """``folder_sides`` of the tree's reading, worked out once per reading."""
    return list(folder_sides(reading_model.reading(ws)))


@kept_with(MODEL)
def unread_once(ws: Workspace) -> list[str]:
    """The guidance files no configured agent reads (or may read)."""
    model = reading_model.reading(ws)
    return [real for real in ws.guidance if not any(model.state(a, real) != agents.NO for a in model.configured)]


def same_text(ws: Workspace, a: str, b: str) -> bool:
    """Both files read, and their texts the same but for surrounding blank space."""
    da, db = ws.document(a), ws.document(b)
    return da.error is None and db.error is None and da.text.strip() == db.text.strip()


def case_collisions(ws: Workspace) -> list[tuple[str, str]]:
    """(path, the path it collides with) for guidance files and skills that differ only by case."""
    lowered: dict[str, str] = {}
    collisions = []
    for path in sorted({*ws.guidance, *ws.twins, *ws.skills}):
        key = path.casefold()
        if key in lowered:
            collisions.append((path, lowered[key]))
        lowered.setdefault(key, path)
    return collisions


def cited(ws: Workspace, paths: Sequence[str]) -> set[str]:
    """Of ``paths``, the files another Markdown file of the repository cites: links to
    (`[the protocol](AGENT.md)`), @-mentions, or names as a path, from its own folder
    or from the root (`see docs/AGENT.md`, in prose or a code span). Such a file is a
    document people and agents are pointed to, whoever loads it at start-up.

    Every Markdown file is read once (not kept), and only when ``paths`` is not
    empty: a file that no agent reads is rare."""
    wanted = set(paths)
    if not wanted:
        return set()
    names = sorted({basename(p) for p in wanted})
    # A path token ending in one of the names: not inside a longer word or path, and
    # not followed by more of a name (`AGENT.md.bak`); a sentence's full stop may follow.
    token = re.compile(r"(?<![\w./~-])(/?(?:[\w.~-]+/)*(?:" + "|".join(map(re.escape, names)) + r"))(?![\w-]|\.\w)")
    found: set[str] = set()
    own = set(ws.guidance)
    for folder, md in sorted(ws.markdown_by_folder.items()):
        for name in md:
            path = join(folder, name)
            if path in wanted or ws.twins.get(path) in wanted:
                continue
            text = (ws.document(path) if path in own else ws.source.read(path)).text
            if not any(n in text for n in names):
                continue
            for m in token.finditer(text):
                target = m.group(1)
                bases = ("",) if target.startswith("/") else (folder, "") if folder else ("",)
                found.update(r for base in bases if (r := posixpath.normpath(join(base, target.lstrip("/")))) in wanted)
            if found == wanted:
                return found
    return found


# ---------------------------------------------------------------- agents' limits


class CodexBudget(NamedTuple):
    """Codex's default project budget down the tree [CXS]: per folder, the one file
    Codex reads there and what the budget leaves of it."""

    read: dict[str, str]  # folder -> the AGENTS.override.md or AGENTS.md Codex reads there
    cuts: dict[str, reading_model.Cut]  # folder -> what the budget does to that file, parents first
    ordered: list[str]  # the folders, sorted

    def above(self, folder: str) -> str | None:
        """The nearest folder above ``folder`` where Codex reads a file."""
        while folder:
            folder = parent(folder)
            if folder in self.read:
                return folder
        return None

    def below(self, folder: str) -> list[str]:
        """The files Codex would read in the folders below ``folder``, blank ones left out."""
        lo = bisect.bisect_left(self.ordered, folder + "/") if folder else 0
        hi = bisect.bisect_left(self.ordered, folder + "/\U0010ffff") if folder else len(self.ordered)
        return [self.read[f] for f in self.ordered[lo:hi] if f != folder and not self.cuts[f].blank]


def codex_budget(ws: Workspace, model: reading_model.Reading) -> CodexBudget:
    read: dict[str, str] = {}
    for path, states in model.direct.items():
        if states[agents.CODEX][0] == agents.READS and model.kind[path] in (agents.K_OVERRIDE, agents.K_AGENTS):
            read[model.owner[path]] = path
    found = CodexBudget(read, {}, sorted(read))
    budget = reading_model.codex_budget()
    left: dict[str, int | None] = {}  # folder -> budget left after it, None when not known
    for folder in sorted(read, key=lambda f: (f.count("/") + (f != ""), f)):  # parents first
        above = found.above(folder)
        # A symlinked twin is read through the file it is (also when git checked it out as text).
        found.cuts[folder], left[folder] = reading_model.codex_takes(
            ws, model.real.get(read[folder], read[folder]), budget if above is None else left[above], budget
        )
    return found


def copilot_review_cut(doc: Document) -> tuple[int, str] | None:
    """(the line from which Copilot code review no longer reads ``doc``, who else
    reads it all), or None when review reads it all or is excluded from it [GHR][GHX]."""
    fm = doc.frontmatter
    excluded = fm.data.get("excludeAgent") if fm is not None else None
    excluded = excluded.strip() if isinstance(excluded, str) else excluded
    limit = agents.number(agents.COPILOT, "review_chars")
    if excluded == "code-review" or len(doc.text) <= limit:
        return None
    seen = 0
    line = 1
    for number, text in enumerate(doc.lines, 1):
        seen += len(text) + 1
        if seen > limit:
            line = number
            break
    if excluded is None:
        others = "Copilot chat and the coding agent read it all"
    elif excluded == "coding-agent":
        others = "Copilot chat reads it all; excludeAgent keeps it from the coding agent"
    else:  # an unconfirmed value ("cloud-agent") or a malformed one: nothing said of the coding agent
        others = "Copilot chat reads it all"
    return line, others
