"""REF: paths in agent files that point nowhere, and paths that name a user's machine.

An agent follows the paths its memories and guidance cite. A path left behind by a
move sends it to read a file that is gone, or to write one where nobody looks; a
path into someone's home folder names a user and points nowhere on any other clone.

One module per rule (``stale_reference``, ``private_path``); the one pass over the
files, which reads each once for both rules and keeps a memory's answers between
runs, is here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, cast

from memcheck import lazy_regex
from memcheck.checks.references import private_path, stale_reference
from memcheck.checks.references.private_path import REF002
from memcheck.checks.references.stale_reference import REF001, Cited
from memcheck.paths import basename
from memcheck.problem import Problem
from memcheck.workspace.derived import findings_kept, kept_findings
from memcheck.workspace.discover import Workspace

if TYPE_CHECKING:
    from memcheck.workspace.targets import Targets

RULES = (REF001, REF002)


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    private = ws.wants(REF002.code) and not ws.user  # the user's own files name their own home
    cited: dict[str, str | None] = {}  # a file REF001 reads -> the folder of its store, if a memory
    if ws.wants(REF001.code):
        cited.update((path, store.folder) for store in targets.stores for path in store.files)
        cited.update((path, None) for path in targets.guidance if path not in cited)
    missing: list[tuple[Cited, list[str]]] = []  # each with the paths it was looked for at
    archived = _archived(ws, targets) if cited else frozenset()
    own = _own_store_files(targets) if private else frozenset()
    # One pass over the files for both rules: each is looked up once.
    for path in _agent_files(targets) if private else sorted(cited):
        store = cited.get(path)
        if store is None:
            found, stale = _references_in(ws, path, private and path not in own, path in cited, None)
            if found and _persons_own(ws, path):
                found = []
        else:
            # A memory's: kept between runs (see Workspace.of_file), keyed by the whole
            # tree's listing too where the run's own key does not tell it (see
            # Workspace.tree_files_key; worked out only where it is kept: a hook's run
            # without a cache lists no more than it needs).
            mine = private and path not in own
            found, stale = ws.of_file(
                lambda: f"references\0{mine}\0{store}\0{ws.user}\0{ws.tree_files_key}",  # noqa: B023 (called at once)
                path,
                lambda: _references_in(ws, path, mine, True, store),  # noqa: B023 (called at once)
                _kept,
                _from_kept,
            )
        yield from found
        if stale and path not in archived and not (store is not None and records_the_past(path)):
            missing += stale
    yield from stale_reference.stale(ws, missing)


def _archived(ws: Workspace, targets: Targets) -> frozenset[str]:
    """The memories that only a store's archive of its index lists (``MEMORY-archive.md``,
    see index/store.archived), where MEMORY.md names neither the archive nor them:
    records a curator moved out of what agents load, kept as they were written. The
    paths they cite were true then; REF001 leaves them (on real repositories, every
    such finding judged was judged unwanted: dated session logs citing a folder renamed
    since). A memory MEMORY.md names in any way (a link, a code span, its stem on a
    line) or reaches through a linked topic index, and every memory of an archive
    MEMORY.md names (a continuation page an agent reads on), is live. Their home paths
    (REF002) are still a user's."""
    from memcheck.workspace.stores import is_index_archive_name

    found: set[str] = set()
    for store in targets.stores:
        archives = [path for path in store.own if is_index_archive_name(basename(path))]
        if not archives:
            continue
        from memcheck.index.memory import Memory
        from memcheck.index.store import archived, listed_by_linked_indexes

        index = ws.document(store.index)
        text = index.text if index.error is None else ""
        named = _names_in(text)
        if any(basename(path) in named or basename(path).removesuffix(".md") in named for path in archives):
            continue
        start = len(store.folder) + 1 if store.folder else 0
        memories = [Memory(path[start:], None, None, None) for path in store.files]
        only_there = archived(ws, store, text, memories) - listed_by_linked_indexes(ws, store, text, memories)
        found.update(
            path
            for path in store.files
            if path[start:] in only_there and basename(path) not in named and basename(path).removesuffix(".md") not in named
        )
    return frozenset(found)


# A memory whose name says it records what happened (`session_history.md`,
# `session_2026-05-28_research.md`, `project_phase_history.md`): it cites paths as they
# were then, and updating them would falsify the record (seven such findings on unseen
# repositories, each judged unwanted; none judged wanted). The whole name says so: a
# session's dated record, the sessions' history or log, the phases' history; a name
# that only holds such words is about a feature (`audit-log.md`, `git_history.md`,
# `reference_session_history.md`: outside attacks).
_RECORD = lazy_regex.compile(
    r"(?i)^(?:sessions?[-_]\d{4}-?\d{2}-?\d{2}(?:[-_].*)?|sessions?[-_](?:history|log)|(?:project[-_])?phases?[-_]history)$"
)


def records_the_past(path: str) -> bool:
    """Whether a memory's name says it is a record of what happened."""
    return _RECORD.search(basename(path).removesuffix(".md")) is not None


def _names_in(text: str) -> set[str]:
    """Every word of ``text`` that may name a file, as written, and without its
    fragment, query, percent escapes, folders or `.md`: one pass (a search of the text per memory was quadratic)."""
    from urllib.parse import unquote

    names: set[str] = set()
    for word in _WORD.findall(text):
        name = unquote(word.split("#", 1)[0].split("?", 1)[0]).rsplit("/", 1)[-1]
        names.update((word, name, name.removesuffix(".md")))
    return names


_WORD = lazy_regex.compile(r"[^\s`\[\]()<>|*:,;\"'!]+")


def _own_store_files(targets: Targets) -> frozenset[str]:
    """The memories, index and own documents (SOUL.md) of a store that is the whole
    repository: a copy of one person's own store (Claude Code keeps auto memory per
    user, in the home folder, ~/.claude/projects/<project>/memory/), read by that
    person's agent alone, where a path into their home is where the file is. A store
    inside a project's tree travels with the project to every clone and is checked
    as any agent file."""
    return frozenset(path for store in targets.stores if not store.folder for path in store.all_files)


def _persons_own(ws: Workspace, path: str) -> bool:
    """Whether ``path`` is the root CLAUDE.md of a repository that is one person's
    store (see _own_store_files): such a repository mirrors the person's `~/.claude`,
    whose CLAUDE.md is Claude Code's user-level file (the agent data's user files),
    their own instructions to their own agent. Asked only of a file REF002 finds a
    home path in: whether the root is a store reads the root's Markdown files."""
    from memcheck import agents  # only here: a commit's store check otherwise loads no agent model

    home_files = {basename(f) for f in agents.agent(agents.CLAUDE_CODE).user_files if f.count("/") == 1}
    return path in home_files and bool(ws.stores_among(("",)))


Referenced = tuple[list[Problem], list[tuple["Cited", list[str]]]]


def _references_in(ws: Workspace, path: str, private: bool, cites: bool, store: str | None) -> Referenced:
    """REF002's findings on the file at ``path``, and the paths it cites that name
    nothing, with where each was looked for (REF001's, once git's ignored files are
    known: see stale_reference.stale)."""
    doc = ws.document(path)
    if doc.error is not None:
        return [], []
    text = doc.text
    # Two scans where three were 25% dearer on a tree of 11,000 files: "Users"
    # stands for `/Users/` and `\Users\` alike.
    found = list(private_path.check(doc)) if private and ("/home/" in text or "Users" in text) else []
    stale = stale_reference.missing_in(ws, doc, store) if cites and "`" in text else []  # most files cite nothing in code spans
    return found, stale


def _kept(referenced: Referenced) -> object:
    found, stale = referenced
    kept = kept_findings(found)
    return None if kept is None else (kept, [(tuple(cited), tried) for cited, tried in stale])


def _from_kept(kept: object) -> Referenced:
    found, stale = cast("tuple[list[list[Any]], list[tuple[tuple[Any, ...], list[str]]]]", kept)
    return findings_kept(found), [(Cited(*cited), list(tried)) for cited, tried in stale]


def _agent_files(targets: Targets) -> list[str]:
    """The agent files REF002 reads: not the files agents read that memcheck models as
    no agent file (``READ_ALSO``: a project's .claude/settings.json), which only the
    secret and hidden-text rules read."""
    from memcheck.workspace.agentfiles import READ_ALSO

    return [path for path in targets.agent_files() if path not in READ_ALSO]
