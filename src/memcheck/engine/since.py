"""Old findings never fail new work (``check --new-since REF``, and ``--changed``
against HEAD): the findings the change brings, compared with REF's tree.

The tree judged is checked once, as any check does. REF's findings are worked out
only for what the change touches (a changed memory file or index: its store; a
changed guidance file: every guidance file, since one file's findings can come of
another's text; a skill: every skill; a deleted file: also every guidance file and
skill, which may import or link it), with REF's files read from git
(``workspace.tree``). A finding there that REF's tree also has, matched as a baseline
matches findings (by file, code and what it is about, so one that merely moved to
another line is still old), is older than the change, and so is every finding in
what the change does not touch: counted, not reported.

The change never decides how its own secrets and hidden text are judged: where its
settings differ from REF's (in ``.memcheck.yaml`` or ``pyproject.toml``, followed
through a symlink), or it edits a suppression comment in an agent file it touches, or
the baseline, the secret and hidden-text rules of the files it touches run with REF's
settings as well (REF's agent files, rules and per-path ignores; no suppression
comment, no baseline), and fail under REF's ``fail-on`` (the command line's own
options still apply: they are the caller's). A hidden-text finding is matched by the
characters it found too, never by its masked message alone: "2 zero-width
characters" and "248 zero-width characters" read alike once numbers are set aside.
"""

from __future__ import annotations

import os
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, AbstractSet, Sequence

from memcheck.baseline import new_since
from memcheck.config import CONFIG_FILES, ConfigError, load_text, load_texts, selected
from memcheck.engine.cache import start
from memcheck.engine.collect import collect
from memcheck.engine.found import Found, Since
from memcheck.engine.targets import looked_at, targets_for
from memcheck.paths import basename, parent
from memcheck.problem import failing
from memcheck.safe_files import within
from memcheck.workspace.agentfiles import find_agent_files
from memcheck.workspace.discover import Workspace
from memcheck.workspace.selection import skill_targets
from memcheck.workspace.stores import INDEX_NAME, Store
from memcheck.workspace.targets import Targets
from memcheck.workspace.tree import TreeSource

if TYPE_CHECKING:
    from memcheck.config import Config
    from memcheck.problem import Problem
    from memcheck.workspace.source import Source


def collect_since(config: Config, source: Source, since: Since, paths: Sequence[str] | None, deleted: Sequence[str]) -> Found:
    """The findings of the tree ``source`` holds that ``since`` does not have.

    ``paths`` and ``deleted`` as for any check (with ``since.touched``, what the change
    touches: then only that is checked)."""
    ws = start(Workspace(config, source))
    ref_source = TreeSource(config.root, since.tree, since.folders)
    lost_folders: frozenset[str] = frozenset()
    try:
        if since.touched is not None:
            touched = list(since.touched)
            whole = mine = touched_targets(ws, touched)
        else:
            touched = _differs(config.root, since.tree, source, ref_source)
            whole = targets_for(ws, paths, judge=False, deleted=deleted)
            touched_here = touched_targets(ws, touched)
            # A store whose MEMORY.md the change deletes is judged as if it were still
            # there (its memories, their tokens included, are still read by the agents
            # that knew the store): the tree's own discovery no longer finds it.
            lost = [s for s in touched_here.stores if s.folder not in {w.folder for w in whole.stores}]
            if lost and paths is None:
                whole = whole._replace(stores=sorted([*whole.stores, *lost]))
                lost_folders = frozenset(s.folder for s in lost)
            mine = _among(touched_here, whole)
            if whole.guidance and not mine.guidance and _imports_touched(ws, whole, touched):
                mine = mine._replace(guidance=list(whole.guidance))
        ref = _RefTree(config, since, ref_source, source)
        whole, mine, unmade = _unmade_stores(config, ws, source, ref, touched, whole, mine)
        # A store that only the deleted index keeps, in a tree already committed: the memory
        # and index rules, and fix, see none there (`fix` writes no index for it).
        unmade |= lost_folders
        if since.compare:
            rest = _without(whole, mine)
            at_ref = start(Workspace(config, ref_source))
            if at_ref.tracker is not None:
                # The tree at the ref is checked first, then the change's: each memory
                # the change leaves alone has the same content in both, and its pieces
                # kept from the first serve the second, even on a first run.
                at_ref.tracker.pieces_serve_this_run = True
            # A finding of a file the change only renamed is older: REF's is matched
            # under the file's new name, as git's rename detection pairs them.
            # (A rename deletes a path: where every path the change touches is still there,
            # git is not asked; touched_targets asked the same questions.)
            moved = ref.moved if not _there(ws, touched).issuperset(touched) else {}
            at_ref_found = collect(at_ref, _alike(at_ref, mine))
            before = [p._replace(path=moved.get(p.path, p.path)) for p in at_ref_found]
            changed = set(touched)
            found_now = collect(ws, mine)
            # A hidden-text finding is matched by what it found too: an older one in the
            # same file (on the same line, or with a count that reads the same) never
            # makes a new hidden payload older.
            what_now = _hidden_found(ws.source, found_now, changed)
            found_then = _hidden_found(ref_source, at_ref_found, changed)
            what_before = {r: found_then[p] for p, r in zip(at_ref_found, before) if p in found_then}
            problems, older = new_since(found_now, before, changed, what_now.get, what_before.get)
            older += len(collect(ws, rest)) if any(rest) else 0
        else:
            problems, older = collect(ws, whole), 0
        if unmade:
            problems = [p for p in problems if not (parent(p.path) in unmade and p.code.startswith(_OF_STORES))]
        fails = bool(failing(problems, config.fail_on))
        secrets, fail_on = _by_refs_policy(config, source, since, ref, touched, mine.agent_files())
    finally:
        ref_source.close()
    if secrets:
        problems = sorted({*problems, *secrets})
        fails = fails or bool(failing(secrets, fail_on))
    scope = "change" if since.touched is not None else "tree" if paths is None else "paths"
    return Found(problems, older, fails, [s.index for s in whole.stores if s.has_index], looked_at(ws, whole, scope))


# The rules that read a store's files as its memories (and the references in them):
# in a folder the change leaves no store, they see what is there now, which is no
# store. The secret and hidden-text rules judge its files as the agents that knew the
# store read them; a guidance file or skill there is judged as any other.
_OF_STORES = ("MEM", "IDX", "REF")


def _unmade_stores(
    config: Config, ws: Workspace, source: Source, ref: _RefTree, touched: Sequence[str], whole: Targets, mine: Targets
) -> tuple[Targets, Targets, frozenset[str]]:
    """``whole`` and ``mine`` with each store REF has that the change leaves no store
    checked still, and those folders (see _were_stores). Their files are no memories
    to the memory and index rules now, whose findings there are dropped; the secret and
    hidden-text rules judge them as the agents that knew the store read them, or a
    token added with the plain notes that unmade it would pass."""
    were = _were_stores(ws, touched, mine.stores, ref)
    if not were:
        return whole, mine, frozenset()
    folders = frozenset(were)
    # A commit hook lists only the folders that hold agent files now: the store that was
    # is looked for in the whole tree (its documents are read through ``ws`` alike).
    listing = _whole(source)
    try:
        listed = ws if listing is source else Workspace(config, listing)
        found = {s.folder: s for s in listed.stores_among(folders, were_stores=folders)}
    finally:
        if listing is not source and isinstance(listing, TreeSource):
            listing.close()
    kept: list[Store] = []
    for folder, moved_in in sorted(were.items()):
        store = found.get(folder) or Store(folder, (), False, False)
        # The files moved there that are no memory by their name (`a.MD`, `a.txt`), as
        # the store's own documents: read by the secret and hidden-text rules alone.
        extra = moved_in.difference(store.files, store.own, [store.index])
        if store.files or store.own or store.outside or extra:  # (a folder the change emptied holds nothing to read)
            kept.append(store._replace(own=tuple(sorted({*store.own, *extra}))) if extra else store)
    return (
        whole._replace(stores=sorted([*(s for s in whole.stores if s.folder not in folders), *kept])),
        mine._replace(stores=sorted([*(s for s in mine.stores if s.folder not in folders), *kept])),
        folders,
    )


class _RefTree:
    """REF's stores, judged by REF's settings, and where the change moved REF's files:
    worked out only when a change may have unmade a store (rarely: never in a usual
    commit), and then once a run, however many of the checks ask."""

    def __init__(self, config: Config, since: Since, ref_source: TreeSource, source: Source) -> None:
        self.config, self.since, self.ref_source, self.source = config, since, ref_source, source

    @cached_property
    def _workspace(self) -> Workspace:
        settings = _settings_at(self.config, self.since, self.ref_source) or self.config
        if self.since.options is not None:
            settings = self.since.options(settings)
        return start(Workspace(settings, self.ref_source))

    def stores_among(self, folders: set[str]) -> set[str]:
        return {s.folder for s in self._workspace.stores_among(folders)}

    @cached_property
    def moved(self) -> dict[str, str]:
        """REF's path -> the change's, for each file the change renames."""
        return _renamed(self.config.root, self.since.tree, self.source)


def _were_stores(ws: Workspace, touched: Sequence[str], stores: Sequence[Store], ref: _RefTree) -> dict[str, frozenset[str]]:
    """The folders, of those the change touches that hold a MEMORY.md in either tree,
    that ``ws`` has as no store (of ``stores``, the candidates it found) and REF has as
    one, and those the change moved files of such a folder to (a subfolder, another
    folder, a name not ending in `.md`), each with the files moved there. A folder its
    MEMORY.md makes a store is one where most of its files are memories: plain notes
    added beside them, memories that lose their frontmatter or move away, the index
    deleted or the whole folder moved unmake it."""
    candidates = {s.folder: s for s in stores}
    judged: dict[str, bool] = {}

    def store_now(folder: str) -> bool:  # (an unjudged candidate reads its files to tell: once)
        if folder not in judged:
            store = candidates.get(folder)
            judged[folder] = store is not None and ws.is_store(store)
        return judged[folder]

    folders = {parent(p) for p in touched}
    indexed = {f for f in folders if INDEX_NAME in ws.markdown_by_folder.get(f, ())}
    indexed.update(parent(p) for p in touched if basename(p) == INDEX_NAME)
    unsure = {f for f in indexed if not store_now(f)}
    if not unsure:
        return {}  # the usual change: each folder with a MEMORY.md it touches is a store still
    moved = [(old, new) for old, new in ref.moved.items() if parent(new) in unsure or parent(old) in unsure]
    were = ref.stores_among(unsure | {parent(old) for old, _ in moved})
    found: dict[str, set[str]] = {f: set() for f in unsure if f in were}
    for old, new in moved:
        if parent(old) in were and not store_now(parent(new)):
            found.setdefault(parent(new), set()).add(new)
    return {f: frozenset(paths) for f, paths in found.items()}


def touched_targets(ws: Workspace, touched: Sequence[str]) -> Targets:
    """What a change to ``touched`` (repository-relative paths, on either side of it)
    can bring findings to, in the tree ``ws`` reads: the stores it touches, and every
    guidance file or skill when it touches one (see the module's docstring)."""
    there = _there(ws, touched)
    root = ws.root
    found = targets_for(ws, [str(root / p) for p in touched if p in there], deleted=[str(root / p) for p in touched if p not in there])
    if found.guidance:
        found = found._replace(guidance=list(ws.guidance))
    if found.skills:
        found = found._replace(skills=skill_targets(ws))
    if found.kind_files:
        found = found._replace(kind_files=find_agent_files(ws).paths())
    return found


def _imports_touched(ws: Workspace, whole: Targets, touched: Sequence[str]) -> bool:
    """Whether the change touches a file that a guidance file @-imports and no agent
    file is (docs/notes.md under CLAUDE.md's ``@docs/notes.md``): the SEC and HID rules
    read it with the guidance (see ``checks.secrets.files_of``). Asked only of a
    comparison of a whole tree (``--new-since``): at a commit (``--changed``) it would
    cost every guidance file read for a change that touches none."""
    from memcheck.agents import expansion

    others = set(touched).difference(whole.agent_files())
    return bool(others) and not others.isdisjoint(expansion.with_imports(ws, [], whole.guidance))


def _alike(ws: Workspace, part: Targets) -> Targets:
    """In REF's tree, what ``part`` is in the tree judged: the stores of the same
    folders, and every guidance file or skill where it has them. Only what the tree
    judged has can be new; REF's findings are what they are matched against."""
    stores = ws.stores_among({s.folder for s in part.stores})
    return Targets(
        list(stores),
        list(ws.guidance) if part.guidance else [],
        skill_targets(ws) if part.skills else [],
        find_agent_files(ws).paths() if part.kind_files else [],
        [c for c in part.configs if c in ws.file_set],
    )


def _there(ws: Workspace, paths: Sequence[str]) -> set[str]:
    """Of ``paths``, those the tree holds: listed, and there (git's index lists a file
    deleted from the disk until the deletion is staged)."""
    listed = set(ws.source.listing().files)
    return {p for p in paths if p in listed and (ws.source.is_file(p) or ws.source.link_out(p) is not None)}


def _differs(root: Path, tree: str, source: Source, ref_source: TreeSource) -> list[str]:
    """The paths where the tree ``source`` holds differs from ``tree``: what git sees
    changed (in its index, with a staged source), and what either side lists alone
    (files not yet added, deleted ones)."""
    from memcheck import git

    changed = git.changed_names(root, ["--cached", tree] if source.staged is not None else [tree])
    if changed is None:
        raise ConfigError(f"cannot read what changed since {tree[:12]}")
    names = sorted(set(changed) | set(source.listing().files).symmetric_difference(ref_source.listing().files))
    return sorted(_with_links(root, names, source))


def _with_links(root: Path, names: list[str], source: Source) -> list[str]:
    """``names`` with the tracked symlinks of the tree judged that lead to one of them
    (``paths.links_to``): a change to a link's target is a change to the link."""
    from memcheck import gitrefs
    from memcheck.paths import links_to

    links, _ = gitrefs.tracked_links(root, source.commit if isinstance(source, TreeSource) else None)
    return [*names, *links_to(names, links)]


def _renamed(root: Path, tree: str, source: Source) -> dict[str, str]:
    from memcheck import git

    return git.renamed_files(root, ["--cached", tree] if source.staged is not None else [tree])


def _among(part: Targets, whole: Targets) -> Targets:
    """The targets of ``whole`` that ``part`` names (the stores as ``whole`` found them)."""
    return _pick(whole, part, True)


def _without(whole: Targets, part: Targets) -> Targets:
    return _pick(whole, part, False)


def _pick(whole: Targets, part: Targets, named: bool) -> Targets:
    """The targets of ``whole`` that ``part`` names (``named``) or does not."""
    folders, guidance, skills, others, configs = (
        {s.folder for s in part.stores},
        set(part.guidance),
        set(part.skills),
        set(part.kind_files),
        set(part.configs),
    )
    return Targets(
        [s for s in whole.stores if (s.folder in folders) == named],
        [g for g in whole.guidance if (g in guidance) == named],
        [k for k in whole.skills if (k in skills) == named],
        [a for a in whole.kind_files if (a in others) == named],
        [c for c in whole.configs if (c in configs) == named],
    )


def _hidden_found(source: Source, problems: Sequence[Problem], changed: AbstractSet[str]) -> dict[Problem, str]:
    """What each hidden-text finding in a file of ``changed`` found (``checks.hidden.found_on``),
    its line read again from ``source``: only where there is such a finding, so the usual
    change reads nothing more."""
    hidden = [p for p in problems if p.code.startswith(_HIDDEN) and p.path in changed]
    if not hidden:
        return {}
    from memcheck.checks.hidden import found_on
    from memcheck.text import salvage

    lines: dict[str, tuple[str, ...]] = {}
    found = {}
    for p in hidden:
        if p.path not in lines:
            doc = source.read(p.path)
            doc = salvage.readable(doc) or doc if doc.error is not None else doc  # as the HID rules read it
            lines[p.path] = doc.lines if doc.error is None else ()
        text = lines[p.path]
        found[p] = found_on(p.code, text[p.line - 1]) if p.line <= len(text) else ""
    return found


_HIDDEN = "HID"


def _by_refs_policy(
    config: Config,
    source: Source,
    since: Since,
    ref: _RefTree,
    touched: Sequence[str],
    files: Sequence[str],
) -> tuple[list[Problem], str]:
    """The secret and hidden-text findings REF's policy makes in the files the change
    touches, and the fail-on they are judged by (see the module's docstring): none
    when the change can silence none of them (its settings are REF's, it edits no
    suppression comment and no baseline)."""
    ref_source = ref.ref_source
    ref_config = _settings_at(config, since, ref_source)
    if ref_config is None:
        return [], config.fail_on  # unreadable there: `memcheck guard` reports that (GRD003)
    if since.options is not None:
        ref_config = since.options(ref_config)
    changed = set(touched)
    same = ref_config._replace(source=config.source, settings_file=config.settings_file) == config
    if same and not _may_silence(config, source, changed, files):
        return [], config.fail_on  # the usual commit: the settings as they were, no comment nor baseline edited
    # Imported only now: the guard's policy brings its tiers, categories and patterns
    # (5 ms of a commit hook that compares the same settings, as nearly every one does).
    from memcheck.guard.policy import secret_codes

    codes = tuple(sorted(selected(secret_codes(), ref_config)))
    if not codes:
        return [], config.fail_on
    # REF's settings (which files are agent files, which rules are on, its per-path
    # ignores), without a baseline and without suppression comments: a secret is never
    # accepted, and hidden text that the change's comments or baseline silence is found
    # here; what REF's tree has too (by what it found) is older.
    judge = ref_config._replace(select=codes, ignore=(), baseline=None)
    now = _watched(judge, source, changed, ref)
    hidden = [p for p in now if p.code.startswith(_HIDDEN)]
    if hidden:
        before = _watched(judge, ref_source, changed)
        moved = ref.moved if not changed.issubset(source.listing().files) else {}
        renamed = [p._replace(path=moved.get(p.path, p.path)) for p in before]
        found_then = _hidden_found(ref_source, before, changed)
        what_before = {r: found_then[p] for p, r in zip(before, renamed) if p in found_then}
        hidden, _ = new_since(hidden, renamed, changed, _hidden_found(source, hidden, changed).get, what_before.get)
    return [p for p in now if not p.code.startswith(_HIDDEN)] + hidden, ref_config.fail_on


def _may_silence(config: Config, source: Source, changed: AbstractSet[str], files: Sequence[str]) -> bool:
    """Whether the change edits what silences findings beside the settings: the
    baseline, or a suppression comment in an agent file it touches (``files``: the
    agent files checked; only those the change touches are read again)."""
    if config.baseline and _baseline_edited(config, changed):
        return True
    from memcheck.workspace.disk import DiskSource

    # At a commit, the file on disk: which of git's index and the disk holds a staged
    # file is a git process of its own, which a commit whose parts are all kept never
    # starts. The hook misses a comment staged and then taken out of the working file;
    # the same check on the commit (``--new-since``, the Action) does not.
    def text(path: str) -> str:
        return (DiskSource.read(source, path) if isinstance(source, DiskSource) else source.read(path)).text

    return any("memcheck-" in text(path) for path in files if path in changed)


def _baseline_edited(config: Config, changed: AbstractSet[str]) -> bool:
    """Whether the change edits the baseline: the file the settings name, a symlink
    along its path (a folder's or its own), or the file it leads to through them
    (`base/baseline.json` with `base -> data` is `data/baseline.json`). The disk is
    the change's tree: the working tree at a commit, the checkout in CI."""
    name = Path(config.baseline or "").as_posix()
    parts = name.split("/")
    if any("/".join(parts[:i]) in changed for i in range(1, len(parts) + 1)):
        return True
    top = os.path.realpath(config.root)
    real = os.path.relpath(os.path.realpath(os.path.join(top, name)), top)
    return Path(real).as_posix() in changed


def _watched(config: Config, source: Source, paths: AbstractSet[str], ref: _RefTree | None = None) -> list[Problem]:
    """The secret and hidden-text findings (the codes ``config`` selects) of the files
    of ``paths`` that the tree ``source`` holds, by ``config``'s settings, its per-path
    ignores applied: no cache, no suppression comment, no baseline. With ``ref``, a
    folder the change unmade as a store is the store it was there (see _were_stores)."""
    from memcheck.checks import hidden, secrets
    from memcheck.engine.finish import drop_path_ignores

    whole = _whole(source)  # a hook lists only the folders the change's own settings make agent folders
    try:
        ws = Workspace(config, whole)
        there = sorted(_there(ws, sorted(paths)))
        if not there:
            return []
        found_in = targets_for(ws, [str(ws.root / p) for p in there])
        # Only the files the change touches, not the whole store each brings: the two
        # families judge each file on its own (agent_files is what both read).
        agent_files = set(found_in.agent_files())
        were = _were_stores(ws, sorted(paths), found_in.stores, ref) if ref is not None else {}
        if were:
            folders = frozenset(were)
            agent_files.update(Targets(list(ws.stores_among(folders, were_stores=folders)), [], []).agent_files())
            agent_files.update(p for moved_in in were.values() for p in moved_in)
        targets = Targets([], [], [], kind_files=sorted(p for p in agent_files if p in paths))
        codes = set(config.select)
        found = {p for family in (secrets, hidden) for p in family.check(ws, targets) if p.code in codes and p.path in paths}
        return sorted(drop_path_ignores(set(secrets.scrub(found, ws, secrets.files_of(targets, ws))), config))
    finally:
        if whole is not source and isinstance(whole, TreeSource):
            whole.close()


def _whole(source: Source) -> Source:
    """``source`` with every file of its tree listed: itself, unless a hook run listed
    only some folders (see ``selection.hook_folders``)."""
    if not source.listing().partial:
        return source
    from memcheck.workspace.disk import DiskSource, StagedSource

    if isinstance(source, TreeSource):
        return TreeSource(source.root, source.commit)
    if isinstance(source, StagedSource):
        return StagedSource(source.staged)
    if isinstance(source, DiskSource):
        return DiskSource(source.root)
    return source


def _settings_at(config: Config, since: Since, ref_source: TreeSource) -> Config | None:
    """The settings REF holds (the ``--config`` file, where it is in the repository);
    None when they cannot be read, or when ``--config`` names a file outside it
    (which the change cannot edit)."""
    names: tuple[str, ...] = CONFIG_FILES
    settings_file = since.settings_file
    if settings_file is not None:
        inside = within(os.path.abspath(settings_file), config.root)
        if inside is None:
            return None
        names = (Path(inside).as_posix(),)
    texts: dict[str, str | None] = {}
    try:
        for name in names:
            data = _settings_blob(config.root, ref_source, since.settings, name)
            texts[name] = None if data is None else data.decode("utf-8")
        shown = since.ref
        if settings_file is None:
            return load_texts(config.root, texts, lambda name: f"{shown}:{name}")
        (name,) = names
        return load_text(config.root, name, texts[name], f"{shown}:{name}")
    except (ConfigError, UnicodeDecodeError):
        return None


def _settings_blob(root: Path, ref_source: TreeSource, commit: str, name: str) -> bytes | None:
    """What ``commit`` holds at ``name``, a symlink followed inside the tree as a
    checkout reads it (and as guard compares settings): a ``.memcheck.yaml`` that links
    to another file of the repository is that file's settings, never the link's text.
    A ``ConfigError`` for a link out of the repository."""
    if commit == ref_source.commit:  # the usual case: the tree already listed
        entry = ref_source.entry(name)
        if entry is None:
            return None
        if entry.kind == "outside":
            raise ConfigError(f"{name} is a symlink out of the repository")
        return ref_source.blob_at(commit, entry.real)
    from memcheck import gitrefs

    found = gitrefs.stored_at(root, [(commit, name)], contents=True)[(commit, name)]
    if found.problem:
        raise ConfigError(f"{name} is {found.problem}")
    return found.data
