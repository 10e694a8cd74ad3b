"""One run's view of a tree (``Workspace``), and what to check in it.

The tree is what the Workspace's source lists (see source.py): on disk, what git
sees (tracked files plus untracked ones it does not ignore), outside a repository
every file below the root; ``.git`` is skipped and no symlink is followed out of the
root. Each file is read at most once per run: the ``Workspace`` keeps the documents
it has read. What the files are is found by functions over the Workspace: stores.py,
guidance.py, skills.py.
"""

from __future__ import annotations

import datetime
import os
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, Literal, Sequence, TypeVar, cast

from memcheck.agents import user_files as agent_user_files
from memcheck.agents import user_rules
from memcheck.config import Config, enabled_codes
from memcheck.paths import basename, join, parent, split
from memcheck.problem import Problem
from memcheck.text import patterns
from memcheck.text.document import Document
from memcheck.workspace import guidance as _guidance
from memcheck.workspace import skills as _skills
from memcheck.workspace import stores as _stores
from memcheck.workspace import tracking as _tracking
from memcheck.workspace.disk import USER_FOLDER_FILES, DiskSource, HomeSource, walk_user_folder
from memcheck.workspace.memo import LISTING, SKILLS, basis_of
from memcheck.workspace.source import OUTSIDE_LINK, Source
from memcheck.workspace.stores import Store
from memcheck.workspace.tracking import Answer, TrackedSource, Tracker, listing_digest, on_disk, untracked

if TYPE_CHECKING:
    from memcheck.workspace.staged import StagedFiles

T = TypeVar("T")


class Workspace:
    """One run's view of the tree: its files, what they are, and what has been read."""

    user: bool = False  # the user-level locations under $HOME, not a repository
    cut_short: tuple[str, ...] = ()  # (--user) the folders walked only in part, each a line saying so
    # A check's use of the cache: parts kept from earlier runs, parts in all, the folder (-v says it)
    cache_note: tuple[int, int, str] | None = None
    _outside: frozenset[str] = frozenset()  # see outside_links

    def __init__(self, config: Config, source: Source | None = None) -> None:
        """``source``: what the files are read from; by default the work tree at the
        config's root (``DiskSource``)."""
        self.config = config
        self.root = config.root
        self.source: Source = source if source is not None else DiskSource(config.root)
        listing = self.source.listing()
        self.in_git = listing.in_git
        self.partial = listing.partial  # files of some folders only (a hook run on memory files)
        # Files of the tree that git's listing leaves out are ones it ignores (only
        # when the listing is git's own: given files, or a walk, leave nothing out).
        self.listed_by_git = listing.by_git
        listed = self._listed = listing.files
        self._excluded: Callable[[str], bool] | None = None
        if config.exclude:
            excluded = patterns.gitignore(config.exclude).match
            listed = [p for p in listed if not excluded(p)]
            self._excluded = excluded
        self.files: list[str] = listed
        self._documents: dict[str, Document] = {}
        # What ``derived`` and ``once`` worked out: keyed by the function that did,
        # whose return type is the value's (or by a name: see ``once``); ``derived``'s
        # by path first, so that forgetting a store's files drops their entries alone:
        # a scan of every entry made each store's forget walk the guidance files' too
        # (0.09 s of checking bench/'s M tree in one process, the stores after the guidance).
        self._derived: dict[str, dict[object, tuple[Document, object]]] = {}
        self._once: dict[object, object] = {}
        self._git_ignored: dict[str, bool] = {}  # path -> git ignores it (see ignored_by_git)
        self._skills_roots: dict[str, bool] = {}  # folder -> matches a skills.roots glob
        # Paths ``forget`` leaves in memory: the language server keeps the documents of
        # the stores its edits check (the next edit would read and parse them again).
        self.kept: set[str] | frozenset[str] = frozenset()
        self.tracker: Tracker | None = None  # what each part reads, while a cache is kept (see track)

    def track(self, tracker: Tracker) -> None:
        """From now on, note what is read and asked in ``tracker`` (see
        workspace/tracking.py): the cache keeps each part's findings with it."""
        self.tracker = tracker
        self.source = TrackedSource(self.source, tracker)

    @property
    def staged(self) -> StagedFiles | None:
        """git's index, when the tree judged is the one a commit made now would hold."""
        staged = self.source.staged
        if self.tracker is not None:  # a commit's tree and the same tree at HEAD differ only by this
            self.tracker.asked("staged", "", staged is not None)
        return staged

    def reuse_listing(self, other: Workspace) -> None:
        """Take over what ``other`` worked out from the listing alone (which folders
        hold which files), when both list the same files under the same settings:
        the language server makes a Workspace per edit, on a listing unchanged since
        the last, and would otherwise sort a large tree's files into folders each time."""
        if other.config is not self.config or other.files != self.files:
            return
        # Outside git, which guidance files are symlinks is told from their text too.
        names = (
            "file_set",
            "_names_by_folder",
            "markdown_by_folder",
            "_skill_folders",
            *(("_guidance",) if self.in_git and other.in_git else ()),
        )
        for name in names:
            if name in other.__dict__ and name not in self.__dict__:
                self.__dict__[name] = other.__dict__[name]
        if "_guidance" in self.__dict__:
            self._outside = other._outside
        if not self._skills_roots:
            self._skills_roots = other._skills_roots  # from the names and the settings alone
        for key, value in other._once.items():
            if basis_of(key) == LISTING:  # (see workspace/memo.py)
                self._once.setdefault(key, value)

    def reuse_documents(self, other: Workspace, changed: Iterable[str]) -> None:
        """Take over the documents ``other`` read, and what was worked out from each,
        but for the ``changed`` paths: the language server's next edit reads again
        only the files that changed on disk or in the editor since ``other``."""
        dropped = set(changed)
        # Built whole, then merged: one pass in C over a tree's thousands of documents
        # (a setdefault per entry cost an edit a millisecond on the M tree).
        documents = {path: doc for path, doc in other._documents.items() if path not in dropped}
        derived = {path: hits for path, hits in other._derived.items() if path not in dropped}
        documents.update(self._documents)
        for path, hits in self._derived.items():  # this workspace's own, over the other's
            derived[path] = {**derived.get(path, {}), **hits}
        self._documents, self._derived = documents, derived

    def reuse_skills(self, other: Workspace, changed: Iterable[str]) -> None:
        """Take over the skills ``other`` found (and what was worked out from
        them), on the same listing, when no ``changed`` path lies in a skills folder or
        a skill's folder: no other file's text or kind (a symlink or not) can change
        them. Finding them asks the disk about every file of every skill folder."""
        if other.config is not self.config or other.files != self.files or "_found_skills" not in other.__dict__:
            return
        folders = self.skill_folders
        if any(self.is_skills_root(parent(p)) or _skills.in_skill_folder(p, folders) for p in changed):
            return
        self.__dict__.setdefault("_found_skills", other.__dict__["_found_skills"])
        for key, value in other._once.items():
            if basis_of(key) == SKILLS:
                self._once.setdefault(key, value)

    def known(self, key: object) -> object | None:
        """What ``once(key)`` worked out, if it was asked."""
        return self._once.get(key)

    def once_values(self) -> list[tuple[object, object]]:
        """Every ``once`` key asked so far, with its value."""
        return list(self._once.items())

    def preset(self, key: object, value: object) -> None:
        """Give ``once(key)`` a value worked out on an earlier workspace of the same
        tree, which the changes since cannot have changed (the language server's)."""
        self._once[key] = value

    @cached_property
    def file_set(self) -> frozenset[str]:
        """The files, for membership tests (built once, not once per store)."""
        return frozenset(self.files)

    @cached_property
    def tree_files(self) -> Sequence[str]:
        """Every file of the tree, those the config excludes from checking included:
        what a link may name. Where the run listed some folders only (a hook run on
        memory files), git lists the rest, once, when this is first asked. Where the
        run's cache key does not tell them (see ``tree_files_key``), asking for them is
        a question of its own."""
        if self.tracker is not None and self.tree_files_key:
            self.tracker.asked("tree_files", "", self.tree_files_key)
        return self._tree_listing

    @cached_property
    def tree_files_key(self) -> str:
        """A digest of ``tree_files`` where the run's cache key, which holds ``files``,
        does not tell them: a run that listed some folders only, or a config that
        excludes some files (whatever a link finds among those); else "". Work kept
        by a memory's content alone that looks names up in them holds it in its key."""
        if not self.partial and self._excluded is None:
            return ""
        return listing_digest(self._tree_listing)

    @cached_property
    def _tree_listing(self) -> Sequence[str]:
        source = untracked(self.source)
        whole: Callable[[], list[str]] | None = getattr(source, "whole_listing", None)  # the disk's and a commit's
        return whole() if self.partial and whole is not None else self._listed

    @cached_property
    def rules_on(self) -> frozenset[str]:
        """The rule codes the config's select and ignore leave on."""
        return enabled_codes(self.config)

    def wants(self, *codes: str) -> bool:
        """Whether any of ``codes`` is on: work that serves only rules that are off is
        skipped, so a rule turned off costs nothing."""
        return not self.rules_on.isdisjoint(codes)

    def document(self, path: str) -> Document:
        doc = self._documents.get(path)
        if doc is None:
            if path not in self._outside:
                # (Tracked, the source notes the read itself: not noted twice.)
                doc = self._documents[path] = self.source.read(path)
                return doc
            doc = self._documents[path] = Document(path, error=OUTSIDE_LINK)  # a symlink out of the root is never followed
        tracker = self.tracker
        if tracker is not None:
            key = doc.key
            # (Noted already in the frame under way, this very content: nothing to note.)
            if tracker.settled.get(path) is not key:
                tracker.read(path, key)
        return doc

    def derived(self, doc: Document, compute: Callable[[Workspace, Document], T]) -> T:
        """``compute(ws, doc)``, worked out once per document (imports, prose lines):
        several rules ask, and so does every file that imports it. ``compute`` is a
        module-level function: it is the key (see ``once``)."""
        hits = self._derived.get(doc.path)
        if hits is None:
            hits = self._derived[doc.path] = {}
        hit = hits.get(compute)
        tracker = self.tracker
        if hit is None or hit[0] is not doc:  # a document read again is worked out again
            kept = tracker.kept if tracker is not None else None
            if kept is not None and hasattr(compute, "of_content"):
                # A function of the file's content alone: its value is kept between runs.
                function = compute
                found = kept.value(function, doc, lambda: function(self, doc))
                hits[compute] = (doc, found)
                return found
            if tracker is not None:
                tracker.start_value()
            try:
                _check_key(compute)
                value: object = compute(self, doc)
            finally:
                if tracker is not None:
                    tracker.end_value()
            hit = hits[compute] = (doc, value)
        return cast(T, hit[1])

    def remembered(
        self,
        key: Callable[[], str],
        work: Callable[[], T],
        encode: Callable[[T], object],
        decode: Callable[[object], T],
        covers: Collection[str] = (),
    ) -> T:
        """``work()``: a piece of a store's check, kept between runs where a cache is
        (see engine/store_values.StoreValues.remembered; ``encode`` gives None for a value
        not to keep), else worked out."""
        kept = self.tracker.kept if self.tracker is not None else None
        if kept is None or not kept.keeps_pieces:
            return work()
        return kept.remembered(key, work, encode, decode, covers)

    def of_file(
        self, name: str | Callable[[], str], path: str, work: Callable[[], T], encode: Callable[[T], object], decode: Callable[[object], T]
    ) -> T:
        """``work()`` on the file at ``path`` alone (``name`` says which work, or gives
        it when asked: a name dear to work out is worked out only where kept), kept
        between runs by the file's content where a cache is: a store's memories whose
        work is kept are not read at all (see engine/store_values.StoreValues.of_file)."""
        kept = self.tracker.kept if self.tracker is not None else None
        if kept is None or not kept.keeps_pieces:
            return work()
        return kept.of_file(name, path, work, encode, decode)

    def findings_of_file(self, name: str, path: str, work: Callable[[], Iterable[Problem]]) -> list[Problem]:
        """``of_file`` for findings."""
        return self.of_file(name, path, lambda: list(work()), kept_findings, findings_kept)

    def once(self, compute: Callable[[Workspace], T]) -> T:
        """``compute(ws)``, worked out once per run: what every part of a check needs
        about the whole tree (guidance files sharing folders, case collisions).

        ``compute`` is a module-level function, and the key: one function, one value,
        of the type it returns. A value worked out from the listing, the skills or the
        agents' reading alone says so where its function is defined (workspace/memo.py),
        and a workspace made again on the same is given it (``reuse_listing``)."""
        if compute not in self._once:
            tracker = self.tracker
            if tracker is not None:
                tracker.start_value()
            try:
                _check_key(compute)
                self._once[compute] = compute(self)
            finally:
                if tracker is not None:
                    tracker.end_value()
        return cast(T, self._once[compute])

    def forget(self, paths: Iterable[str]) -> None:
        """Drop documents no check will read again (read again if one does)."""
        for path in set(paths).difference(self.kept):
            self._documents.pop(path, None)
            self._derived.pop(path, None)

    def forget_all(self) -> None:
        """Drop every document read so far (see ``forget``)."""
        self.forget(list(self._documents))

    def today(self) -> datetime.date:
        """Today's date, for a finding that counts days: noted, so that the cache
        believes such a finding again only on the day it was found."""
        found = _tracking.today()
        if self.tracker is not None:
            self.tracker.asked("today", "", found.isoformat())
        return found

    def on_disk(self, kind: Literal["is_file", "exists", "isdir", "islink"], path: str) -> bool:
        """What the disk itself says of ``path``, past the source (is it a file, a
        link, a folder): noted as a question, so that a cache knows the answer is part
        of what a part depends on."""
        return bool(self._ask_disk(kind, path))

    def link_target(self, path: str) -> str | None:
        """What the symlink at ``path`` names, as it names it (None: no symlink there)."""
        found = self._ask_disk("readlink", path)
        return found if isinstance(found, str) else None

    def real_path(self, path: str) -> str:
        """``os.path.realpath`` of ``path``, from the root."""
        return str(self._ask_disk("realpath", path))

    def _ask_disk(self, kind: str, path: str) -> Answer:
        answer = on_disk(self.root, kind, path)
        if self.tracker is not None:
            self.tracker.asked("disk_" + kind, path, answer)
        return answer

    def is_inside_root(self, path: str) -> bool:
        """False for a path whose symlinks lead out of the root (never followed)."""
        return self.source.is_inside_root(path)

    def link_out(self, path: str) -> str | None:
        """The target of a symlink at ``path`` that leads out of the root (never
        followed), as the link names it. In the user's home folder (``--user``) the
        links are the user's own: none is reported, though none is followed either."""
        return None if self.user else self.source.link_out(path)

    def ignores(self, path: str) -> bool:
        """A file that is on disk but that git's listing leaves out: git ignores it.
        (The staged view lists no untracked file at all, ignored or not.)"""
        # Whether the view is staged is asked last: only a file on disk that the listing
        # leaves out gets that far (a commit's tree and HEAD's answer alike before it).
        return self.listed_by_git and path not in self.file_set and self.is_file(path) and self.staged is None

    def excludes(self, path: str) -> bool:
        """The config's ``exclude`` names ``path``."""
        return self._excluded is not None and self._excluded(path)

    def special_kind(self, path: str) -> str | None:
        """ "a FIFO", "a socket" or "a device" for such a file (or a link to one)
        inside the root: git lists none of them, and reading one could block."""
        return self.source.special_kind(path)

    def ignored_by_git(self, paths: Iterable[str]) -> set[str]:
        """Of these paths (on disk or not), the ones git ignores: asked once per set of
        paths not asked before, never once per path."""
        if not self.listed_by_git:
            return set()
        known = self._git_ignored
        wanted = sorted(p for p in set(paths) if p not in known)
        if wanted:
            hits = self.source.git_ignored(wanted)
            known.update((p, p in hits) for p in wanted)
        return {p for p in paths if known[p]}

    def exists(self, path: str) -> bool:
        """A file or folder inside the root (a link to a folder names one); in the
        staged view, one the commit holds."""
        return self.source.exists(path)

    def is_file(self, path: str) -> bool:
        return self.source.is_file(path)

    @property
    def folders_with_markdown(self) -> Iterable[str]:
        return self.markdown_by_folder.keys()

    @cached_property
    def markdown_by_folder(self) -> dict[str, list[str]]:
        """Folder -> the names of the Markdown files directly in it (folders with none left out)."""
        return {folder: md for folder, names in self._names_by_folder.items() if (md := [n for n in names if n.endswith(".md")])}

    @property
    def listed_folders(self) -> Iterable[str]:
        """The folders that hold a listed file directly."""
        return self._names_by_folder.keys()

    def names_in(self, folder: str) -> set[str]:
        """Names of the files directly inside ``folder``."""
        return set(self._names_by_folder.get(folder, ()))

    @cached_property
    def _names_by_folder(self) -> dict[str, list[str]]:
        folders: dict[str, list[str]] = {}
        for path in self.files:
            folder, name = split(path)
            folders.setdefault(folder, []).append(name)
        return folders

    @cached_property
    def stores(self) -> tuple[Store, ...]:
        return _stores.stores_among(self, self.markdown_by_folder)

    def stores_among(self, folders: Iterable[str], judge: bool = True, lost_index: frozenset[str] = frozenset()) -> tuple[Store, ...]:
        """See ``stores.stores_among``."""
        return _stores.stores_among(self, folders, judge, lost_index)

    def is_store(self, store: Store) -> bool:
        """Whether a store from ``stores_among`` is one (only unjudged ones can be not)."""
        return _stores.is_store(self, store)

    def is_named_store(self, folder: str) -> bool:
        """A ``memory.stores`` glob names ``folder``."""
        by_last, wild = self._store_globs
        globs = [*by_last.get(basename(folder), ()), *wild]
        return bool(globs) and any(patterns.folder_matches(g, folder.split("/") if folder else []) for g in globs)

    @cached_property
    def _store_globs(self) -> tuple[dict[str, list[tuple[str, ...]]], list[tuple[str, ...]]]:
        # A glob can only name a folder whose last segment matches its own: look the
        # literal ones up by that segment rather than trying every glob on every folder.
        by_last: dict[str, list[tuple[str, ...]]] = {}
        wild: list[tuple[str, ...]] = []
        for glob in self.config.memory.stores:
            segments = patterns.folder_glob(glob)
            if segments and patterns.is_literal(segments[-1]):
                by_last.setdefault(segments[-1], []).append(segments)
            elif segments:
                wild.append(segments)
        return by_last, wild

    @property
    def guidance(self) -> tuple[str, ...]:
        """Guidance files, one per symlinked set (CLAUDE.md -> AGENTS.md is one file)."""
        return self._guidance.files

    @property
    def twins(self) -> dict[str, str]:
        """Guidance paths that are symlinks to another guidance file -> that file."""
        return self._guidance.twins

    @property
    def outside_links(self) -> frozenset[str]:
        """Guidance paths that are symlinks to a file outside the root: agents read
        them, memcheck does not follow them (they are in ``guidance`` all the same)."""
        return self._guidance.outside

    @property
    def unsure_links(self) -> frozenset[str]:
        """Outside a git work tree, guidance files whose whole text is another guidance
        file's path (see ``guidance.Guidance``)."""
        return self._guidance.unsure

    @cached_property
    def _guidance(self) -> _guidance.Guidance:
        found = _guidance.find_guidance(self)
        self._outside = found.outside  # documents never read (see ``document``)
        return found

    def is_skills_root(self, folder: str) -> bool:
        """Agents load skills from ``folder`` (see ``skills.agents_load_skills_from``),
        or a ``skills.roots`` glob names it."""
        known = self._skills_roots.get(folder)
        if known is None:
            known = _skills.agents_load_skills_from(folder, self.file_set.__contains__) or any(
                patterns.glob_matches_folder(g, folder) for g in self.config.skills.roots
            )
            self._skills_roots[folder] = known
        return known

    @property
    def skills(self) -> tuple[str, ...]:
        """SKILL.md files in skill folders, and flat skills directly inside a skills root
        (see ``skills.find_skills``)."""
        return self._found_skills.files

    @property
    def skill_links_out(self) -> tuple[str, ...]:
        """Files an agent loads with a skill that are symlinks out of the root: never
        read, and not in ``skills`` (see ``skills.find_skills``)."""
        return self._found_skills.outside

    @property
    def skill_mds(self) -> tuple[str, ...]:
        """The SKILL.md files that are skills (by their paths alone: some may be
        symlinks out of the root), sorted."""
        return self._skill_folders.skills

    @property
    def skill_folders(self) -> frozenset[str]:
        """The folders of the SKILL.md skills: every file in one is the skill's,
        and no guidance file of its folder."""
        return self._skill_folders.folders

    @property
    def skills_passed_over(self) -> tuple[tuple[str, str], ...]:
        """(a SKILL.md that is no agent's skill, why), sorted."""
        return self._skill_folders.passed_over

    @cached_property
    def _skill_folders(self) -> _skills.SkillFolders:
        return _skills.skill_folders(self)

    @cached_property
    def _found_skills(self) -> _skills.Skills:
        return _skills.find_skills(self)


def _check_key(compute: Callable[..., object]) -> None:
    """A lambda or a nested function is a new object each time: as a key, it would
    never be found again, and the value would be worked out on every call."""
    name = getattr(compute, "__qualname__", "")
    if "<lambda>" in name or "<locals>" in name:
        raise TypeError(f"{name} is a key of Workspace.once/derived: define it at module level")


def relative_path(root: Path, path: str) -> str | None:
    p = Path(path)
    full = p if p.is_absolute() else Path.cwd() / p
    try:
        rel = Path(os.path.normpath(full)).relative_to(root)
    except ValueError:
        try:
            rel = full.resolve().relative_to(root.resolve())
        except ValueError:
            return None
    text = rel.as_posix()
    return "" if text == "." else text


# User-level locations (seeds 000, 001, 004): guidance in ~/.config/amp, ~/.config
# and ~/.claude; memory in ~/.agh/memory and ~/.nano_claude/memory; skills in the
# global skills folders. Reported as ``~/…``.
USER_GUIDANCE_FOLDERS = (".config/amp", ".config", ".claude")
# Claude Code keeps each project's auto memory in ~/.claude/projects/<project>/memory/.
USER_STORES = (".agh/memory", ".nano_claude/memory", ".claude/projects/*/memory")
USER_SKILL_ROOTS = (".config/agents/skills", ".config/amp/skills", ".claude/skills")
USER_PREFIX = "~/"


def user_files(home: Path, guidance_names: Iterable[str]) -> tuple[list[str], list[str]]:
    """The user-level files under ``home``, and a line for each folder of them that
    held more files than are walked (``walk_user_folder``)."""
    found: set[str] = set()
    cut: list[str] = []

    def walked(folder: str) -> list[str]:
        files, more = walk_user_folder(home / folder)
        if more:
            cut.append(
                f"{USER_PREFIX}{folder} holds more than {USER_FOLDER_FILES:,} files (a link to a whole disk?):"
                f" only the first {USER_FOLDER_FILES:,}, folders in name order, are checked"
            )
        return files

    for folder in USER_GUIDANCE_FOLDERS:
        found.update(join(folder, n) for n in guidance_names if (home / folder / n).is_file())
    found.update(p for files in agent_user_files().values() for p in files if (home / p).is_file())
    for rules in user_rules().values():
        if (home / rules).is_dir():
            found.update(join(rules, p) for p in walked(rules) if p.endswith(".md"))
    for pattern in USER_STORES:
        # (One `*` segment at most: each project's folder under ~/.claude/projects.)
        head, star, tail = pattern.partition("/*/")
        folders = [pattern] if not star else [join(join(head, e.name), tail) for e in _folders_in(home / head)]
        for folder in folders:
            if (home / folder).is_dir():
                found.update(join(folder, e.name) for e in os.scandir(home / folder) if e.name.endswith(".md"))
    for folder in USER_SKILL_ROOTS:
        if (home / folder).is_dir():
            found.update(join(folder, p) for p in walked(folder))
    return sorted(found), cut


def _folders_in(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as entries:
            return sorted((e for e in entries if e.is_dir()), key=lambda e: e.name)
    except OSError:
        return []


def user_workspace(config: Config, home: Path | None = None) -> Workspace:
    """The user's home as a workspace holding only the user-level locations."""
    home = (home or Path.home()).resolve()
    user_config = config._replace(
        memory=config.memory._replace(stores=tuple(dict.fromkeys((*config.memory.stores, *USER_STORES)))),
        skills=config.skills._replace(roots=USER_SKILL_ROOTS),
    )
    files, cut = user_files(home, config.guidance.filenames)
    ws = folder_workspace(user_config, home, files, HomeSource)
    ws.cut_short = tuple(cut)
    return ws


def folder_workspace(config: Config, folder: Path, files: Sequence[str] = (), source: type[DiskSource] = DiskSource) -> Workspace:
    """A folder outside the repository (the home folder, $CODEX_HOME, a folder above
    the repository) as a workspace of the given files; other files are read when asked.
    ``source``: how the folder is read (``HomeSource``: the home folder, its links followed)."""
    # A baseline, excludes and per-path ignores are the repository's.
    ws = Workspace(config._replace(root=folder, exclude=(), per_path_ignores=(), baseline=None), source(folder, files=files))
    ws.user = True
    return ws


def kept_findings(found: Sequence[Problem]) -> list[list[object]] | None:
    """Findings as a cache keeps them between runs; None (not kept) where a message
    quotes a secret: the cache keeps nothing that the report would not show."""
    from memcheck.text.secrets import redact

    if any(redact(p.message) != p.message for p in found):
        return None
    return [list(p) for p in found]


def findings_kept(kept: object) -> list[Problem]:
    return [Problem(*fields) for fields in cast("list[list[Any]]", kept)]
