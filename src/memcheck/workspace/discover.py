"""Find memory stores, guidance files and skills in a tree.

The tree is what git sees (tracked files plus untracked ones it does not ignore);
outside a repository it is every file below the root. ``.git`` is skipped and no
symlink is followed out of the root. Each file is read at most once per run: the
``Workspace`` keeps the documents it has read.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar, cast

from memcheck.agents import USER_FILES, USER_RULES, kind_of
from memcheck.config import Config, selected
from memcheck.text import document, patterns
from memcheck.text.document import Document
from memcheck.workspace.listing import GitListing, StagedIndex, ignored_by_git

T = TypeVar("T")

INDEX_NAME = "MEMORY.md"
SKILL_NAME = "SKILL.md"
# The error of a guidance file that is a symlink out of the root (see outside_links).
OUTSIDE_LINK = "is a symlink out of the repository; memcheck does not follow it"
# Never memory files, even inside a store folder.
NOT_MEMORY = frozenset({INDEX_NAME, "README.md"})
# Never flat skills, even directly inside a skills root.
NOT_SKILL = frozenset({"README.md", INDEX_NAME})
# Keys that make a Markdown file directly inside a skills root a (flat) skill.
SKILL_KEYS = frozenset({"name", "description", "triggers"})


def join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def parent(path: str) -> str:
    return path.rpartition("/")[0]


def basename(path: str) -> str:
    return path.rpartition("/")[2]


@dataclass(frozen=True)
class Store:
    folder: str  # repository-relative; "" for the root
    files: tuple[str, ...]  # memory files, sorted
    has_index: bool
    by_glob: bool  # named by memory.stores, rather than found by its frontmatter
    # False for a folder found by its MEMORY.md whose files have not been read yet to
    # tell whether they are memories (see Workspace.stores_among and is_store).
    judged: bool = True

    @property
    def index(self) -> str:
        return join(self.folder, INDEX_NAME)


def git_files(root: Path) -> list[str] | None:
    """Tracked and untracked-not-ignored files, or None when root is not in a work tree."""
    return GitListing(root).files()


def walk_files(root: Path) -> list[str]:
    found: list[str] = []
    for folder, dirs, names in os.walk(root):  # does not descend into symlinked folders
        dirs[:] = [d for d in dirs if d != ".git"]
        rel = Path(folder).relative_to(root).as_posix()
        prefix = "" if rel == "." else rel + "/"
        found.extend(prefix + n for n in names)
    return sorted(found)


def _looks_like_memory(doc: Document, types: Iterable[str]) -> bool:
    fm = doc.frontmatter
    if fm is None:
        return False
    data = fm.data
    kind = data.get("type")
    if kind is None and isinstance(data.get("metadata"), dict):
        kind = data["metadata"].get("type")
    return kind in set(types) or ("name" in data and "description" in data and "type" in data)


def _looks_like_skill(doc: Document) -> bool:
    return doc.frontmatter is not None and bool(SKILL_KEYS & doc.frontmatter.data.keys())


def _ancestors(folder: str) -> Iterator[str]:
    """``folder`` and every folder above it, up to and including the root ("")."""
    while folder:
        yield folder
        folder = parent(folder)
    yield ""


class Workspace:
    """One run's view of the tree: its files, what they are, and what has been read."""

    user: bool = False  # the user-level locations under $HOME, not a repository
    partial: bool = False  # files of some folders only (a hook run on memory files)
    _outside: frozenset[str] = frozenset()  # see outside_links
    _unsure: frozenset[str] = frozenset()  # see unsure_links

    def __init__(self, config: Config, files: list[str] | None = None, listing: GitListing | None = None, staged: StagedIndex | None = None):
        """``files``: the files to consider; else ``listing``'s (one already started),
        else git's, else the folder's. ``staged``: judge the tree a commit made now
        would hold (see ``listing.StagedIndex``), not the work tree."""
        self.config = config
        self.root = config.root
        self.staged = staged
        if files is None and listing is None and staged is not None:
            listing = GitListing(self.root, staged=staged)
        if files is not None:
            listed: list[str] | None = files
        elif listing is not None and listing.root == self.root:
            listed = listing.files()
            # Only some folders listed (see hook_folders): enough for their stores,
            # not for finding guidance files or skills anywhere else.
            self.partial = listed is not None and listing.folders is not None
        else:
            listed = git_files(self.root)
        self.in_git = listed is not None
        # Files of the tree that git's listing leaves out are ones it ignores (only
        # when the listing is git's own: given files, or a walk, leave nothing out).
        self._listed_by_git = listed is not None and files is None
        if listed is None:
            listed = walk_files(self.root)
        self._excluded: Callable[[str], bool] | None = None
        if config.exclude:
            excluded = patterns.gitignore(config.exclude).match
            listed = [p for p in listed if not excluded(p)]
            self._excluded = excluded
        self.files: list[str] = listed
        self._documents: dict[str, Document] = {}
        self._derived: dict[tuple[str, str], tuple[Document, Any]] = {}
        self._once: dict[str, Any] = {}
        self._folders_inside: dict[str, bool] = {}
        self._skills_roots: dict[str, bool] = {}  # folder -> matches a skills.roots glob

    @cached_property
    def file_set(self) -> frozenset[str]:
        """The files, for membership tests (built once, not once per store)."""
        return frozenset(self.files)

    @cached_property
    def rules_on(self) -> frozenset[str]:
        """The rule codes the config's select and ignore leave on."""
        from memcheck.rules import all_rules

        return frozenset(selected(all_rules(), self.config))

    def wants(self, *codes: str) -> bool:
        """Whether any of ``codes`` is on: work that serves only rules that are off is
        skipped, so a rule turned off costs nothing."""
        return not self.rules_on.isdisjoint(codes)

    def document(self, path: str) -> Document:
        doc = self._documents.get(path)
        if doc is None:
            staged = self._staged_path(path)
            if path in self._outside:  # never followed out of the root
                doc = Document(path, error=OUTSIDE_LINK)
            elif staged is not None and self.staged is not None and self.staged.reads_staged(staged):
                doc = document.parse(path, self.staged.staged_bytes(staged) or b"")
            else:
                doc = document.read(self.root, path)
            self._documents[path] = doc
        return doc

    def _staged_path(self, path: str) -> str | None:
        """``path`` as the staged view names it; None without one, or outside the root."""
        return None if self.staged is None else self.staged.normal(path)

    def derived(self, doc: Document, what: str, compute: Callable[[Document], T]) -> T:
        """``compute(doc)``, worked out once per document (imports, prose lines):
        several rules ask, and so does every file that imports it."""
        key = (doc.path, what)
        hit = self._derived.get(key)
        if hit is None or hit[0] is not doc:  # a document read again is worked out again
            hit = self._derived[key] = (doc, compute(doc))
        return cast(T, hit[1])

    def once(self, what: str, compute: Callable[[], T]) -> T:
        """``compute()``, worked out once per run: what every part of a check needs
        about the whole tree (guidance files sharing folders, case collisions)."""
        if what not in self._once:
            self._once[what] = compute()
        return cast(T, self._once[what])

    def forget(self, paths: Iterable[str]) -> None:
        """Drop documents no check will read again (read again if one does)."""
        dropped = set(paths)
        for path in dropped:
            self._documents.pop(path, None)
        if self._derived:
            for key in [k for k in self._derived if k[0] in dropped]:
                del self._derived[key]

    def is_inside_root(self, path: str) -> bool:
        """False for a path whose symlinks lead out of the root (never followed)."""
        if path.startswith("/") or ".." in path.split("/"):
            return self._resolves_inside(self._full(path))
        full = self._full(path)
        return self._folder_inside(parent(path)) and (not os.path.islink(full) or self._resolves_inside(full))

    def ignores(self, path: str) -> bool:
        """A file that is on disk but that git's listing leaves out: git ignores it.
        (The staged view lists no untracked file at all, ignored or not.)"""
        return self.staged is None and self._listed_by_git and path not in self.file_set and self.is_file(path)

    def special_kind(self, path: str) -> str | None:
        """"a FIFO", "a socket" or "a device" for such a file (or a link to one)
        inside the root: git lists none of them, and reading one could block."""
        try:
            mode = os.stat(self._full(path)).st_mode
        except (OSError, ValueError):
            return None
        kind = document.special_kind(mode)
        return kind if kind is not None and self.is_inside_root(path) else None

    def ignored_by_git(self, paths: Iterable[str]) -> set[str]:
        """Of these paths (on disk or not), the ones git ignores: asked once per set of
        paths not asked before, never once per path."""
        if not self._listed_by_git:
            return set()
        known = self._once.setdefault("git-ignored", {})
        wanted = sorted(p for p in set(paths) if p not in known)
        if wanted:
            hits = ignored_by_git(self.root, wanted)
            known.update((p, p in hits) for p in wanted)
        return {p for p in paths if known[p]}

    def exists(self, path: str) -> bool:
        """A file or folder inside the root (a link to a folder names one); in the
        staged view, one the commit holds."""
        staged = self._staged_path(path)
        if staged is not None and self.staged is not None:
            return self.staged.holds(staged)
        return os.path.exists(self._full(path)) and self.is_inside_root(path)

    def is_file(self, path: str) -> bool:
        staged = self._staged_path(path)
        if staged is not None and self.staged is not None:
            if not self.staged.has_file(staged):
                return False  # on disk, perhaps, but not in the commit
            if self.staged.reads_staged(staged):
                return True  # staged, and edited or deleted on disk since
        if path.startswith("/") or ".." in path.split("/"):
            return os.path.isfile(self._full(path)) and self._resolves_inside(self._full(path))
        # One lstat answers both questions for the usual regular file; only a
        # symlink needs following.
        full = self._full(path)
        try:
            mode = os.lstat(full).st_mode
        except (OSError, ValueError):
            return False
        if stat.S_ISLNK(mode):
            return os.path.isfile(full) and self._resolves_inside(full)
        return stat.S_ISREG(mode) and self._folder_inside(parent(path))

    # Resolving every path costs an lstat per path component; asking once per folder
    # whether it is a symlink, and resolving only real symlinks, costs one per folder.
    @cached_property
    def _real_root(self) -> str:
        return os.path.realpath(self.root)

    def _full(self, path: str) -> str:
        return os.path.join(self.root, path)

    def _resolves_inside(self, full: str) -> bool:
        real, root = os.path.realpath(full), self._real_root
        return real == root or real.startswith(root.rstrip("/") + "/")

    def _folder_inside(self, folder: str) -> bool:
        # Up from the folder to the first one whose answer is known, the root, or a
        # symlink (which answers for itself): a loop, not recursion, so a path
        # thousands of folders deep is no RecursionError.
        below: list[str] = []  # the folders passed, which take the same answer
        inside = self._folders_inside.get(folder)
        while inside is None:
            if not folder:
                inside = True
                break
            below.append(folder)
            full = self._full(folder)
            if os.path.islink(full):
                inside = self._resolves_inside(full)
                break
            folder = parent(folder)
            inside = self._folders_inside.get(folder)
        for passed in below:
            self._folders_inside[passed] = inside
        return inside

    @property
    def folders_with_markdown(self) -> Iterable[str]:
        return self._by_folder.keys()

    @cached_property
    def _by_folder(self) -> dict[str, list[str]]:
        return {
            folder: md
            for folder, names in self._names_by_folder.items()
            if (md := [n for n in names if n.endswith(".md")])
        }

    @cached_property
    def stores(self) -> tuple[Store, ...]:
        return self.stores_among(self._by_folder)

    def stores_among(self, folders: Iterable[str], judge: bool = True, lost_index: frozenset[str] = frozenset()) -> tuple[Store, ...]:
        """The stores among ``folders``, sorted. Each folder is judged on its own files,
        so judging a few folders gives what judging the whole tree would give for them.

        With ``judge`` False, a folder that only its MEMORY.md makes a candidate comes
        back unjudged (``judged`` False) and ``is_store`` decides later: the reading
        that takes can then be shared out between processes with the checking.
        ``lost_index``: folders whose MEMORY.md the change deletes, judged as if it
        were still there (a store it alone made is still one, now without an index)."""
        found: list[Store] = []
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
        for folder in sorted(folders):
            names = self._by_folder.get(folder)
            if names is None:
                continue
            has_index = INDEX_NAME in names
            globs = [*by_last.get(folder.rpartition("/")[2], ()), *wild]
            by_glob = bool(globs) and any(patterns.folder_matches(g, folder.split("/") if folder else []) for g in globs)
            if not by_glob and not has_index and folder not in lost_index:
                continue  # cheap test first: most folders with Markdown are not stores
            if not has_index and self._listed_by_git:
                # A store in a folder git ignores, its memories committed with `git add
                # -f`: its MEMORY.md is on disk even though git does not list it (and
                # agents read it), or `fix` would write it on every run.
                has_index = self._on_disk_unexcluded(join(folder, INDEX_NAME))
            regular = self._regular_files_in(folder)
            prefix = f"{folder}/" if folder else ""
            md = [prefix + n for n in sorted(names) if n not in NOT_MEMORY and (n in regular or self.is_file(prefix + n))]
            if not by_glob and judge and not self._memory_siblings(md):
                continue
            found.append(Store(folder, tuple(md), has_index and self.is_file(join(folder, INDEX_NAME)), by_glob, by_glob or judge))
        return tuple(found)

    def _on_disk_unexcluded(self, path: str) -> bool:
        return (self._excluded is None or not self._excluded(path)) and self.is_file(path)

    def is_store(self, store: Store) -> bool:
        """Whether a store from ``stores_among`` is one (only unjudged ones can be not)."""
        return store.judged or self._memory_siblings(list(store.files))

    def _regular_files_in(self, folder: str) -> frozenset[str]:
        """Names of the regular files (not symlinks) in a folder inside the root: one
        directory read instead of an lstat per file."""
        if not self._folder_inside(folder):
            return frozenset()
        try:
            with os.scandir(self._full(folder) if folder else self.root) as entries:
                return frozenset(e.name for e in entries if e.is_file(follow_symlinks=False))
        except OSError:
            return frozenset()

    def _memory_siblings(self, md: list[str]) -> bool:
        # A MEMORY.md beside ordinary documents is not a store: most siblings must be memories.
        candidates = [p for p in md if basename(p) not in self.config.guidance.filenames]
        if not candidates:
            return False
        # Stop reading once half are memories: on large trees the documents read here
        # wait in memory until their store is checked.
        need = (len(candidates) + 1) // 2
        hits = 0
        for p in candidates:
            hits += _looks_like_memory(self.document(p), self.config.memory.types)
            if hits >= need:
                return True
        return False

    @property
    def guidance(self) -> tuple[str, ...]:
        """Guidance files, one per symlinked set (CLAUDE.md -> AGENTS.md is one file)."""
        return self._guidance_and_twins[0]

    @property
    def twins(self) -> dict[str, str]:
        """Guidance paths that are symlinks to another guidance file -> that file."""
        return self._guidance_and_twins[1]

    @cached_property
    def _guidance_and_twins(self) -> tuple[tuple[str, ...], dict[str, str]]:
        filenames = self.config.guidance.filenames
        order = {n: i for i, n in enumerate(filenames)}
        found: list[str] = []
        links: set[str] = set()
        outside: list[str] = []
        small: set[str] = set()  # regular files of at most 255 bytes: maybe a link checked out as text
        named = sorted(path for path in self.files if kind_of(path, filenames) is not None)
        for path in named:
            try:
                info = os.lstat(self._full(path))  # one lstat answers what is_file() would
            except (OSError, ValueError):
                continue
            if stat.S_ISLNK(info.st_mode):
                if self.is_file(path):
                    found.append(path)
                    links.add(path)
                elif os.path.isfile(self._full(path)) and self._folder_inside(parent(path)):
                    # a link out of the root to a file: known (agents read it), never read
                    found.append(path)
                    outside.append(path)
            elif stat.S_ISREG(info.st_mode) and self._folder_inside(parent(path)):
                found.append(path)
                if info.st_size <= 255:
                    small.add(path)
        by_real: dict[str, list[str]] = {}
        for path in found:
            # Listed paths never pass through a symlinked folder (git and os.walk do
            # not descend into one), so only a symlink itself needs resolving.
            real = os.path.realpath(self._full(path)) if path in links else os.path.join(self._real_root, path)
            by_real.setdefault(real, []).append(path)
        twins: dict[str, str] = {}
        for group in by_real.values():
            if len(group) > 1:
                # The real file is the one agents edit; else the name agents prefer.
                group.sort(key=lambda p: (p in links, order.get(basename(p), len(order)), p))
                twins.update((p, group[0]) for p in group[1:])
        listed = set(found)
        # A symlink checked out as text holds its target's path; a file that merely says
        # "AGENTS.md" is its own text. Only git's index tells them apart (mode 120000):
        # asked once, for the small files whose text names another guidance file.
        as_text = {path: target for path in sorted(small) if (target := self._link_as_text(path)) is not None and target in listed and target != path}
        if as_text and self.in_git:
            from memcheck.workspace.listing import index_symlinks

            links_in_index = index_symlinks(self.root, sorted(as_text))
            for path, target in as_text.items():
                if path in links_in_index and twins.get(target) != path:
                    twins[path] = twins.get(target, target)
        elif as_text:
            # No index to ask (an export, an unpacked archive): either may be true.
            self._unsure = frozenset(as_text)
        self._outside = frozenset(outside)
        return tuple(p for p in found if p not in twins), twins

    @property
    def outside_links(self) -> frozenset[str]:
        """Guidance paths that are symlinks to a file outside the root: agents read
        them, memcheck does not follow them (they are in ``guidance`` all the same)."""
        self._guidance_and_twins  # noqa: B018 - worked out with the guidance files
        return self._outside

    @property
    def unsure_links(self) -> frozenset[str]:
        """Outside a git work tree, guidance files whose whole text is another guidance
        file's path: a symlink checked out as text, or a file saying just that; with no
        index to tell, memcheck claims neither (see ``_guidance_and_twins``)."""
        self._guidance_and_twins  # noqa: B018 - worked out with the guidance files
        return self._unsure

    def _link_as_text(self, path: str) -> str | None:
        """The path a symlink names when git checked it out as a plain file (its whole
        content is the target, without a newline: core.symlinks=false, Windows)."""
        text = self.document(path).text
        if not text or "\n" in text or text != text.strip():
            return None
        return os.path.normpath(join(parent(path), text)).replace(os.sep, "/")

    def is_skills_root(self, folder: str) -> bool:
        known = self._skills_roots.get(folder)
        if known is None:
            known = self._skills_roots[folder] = any(patterns.glob_matches_folder(g, folder) for g in self.config.skills.roots)
        return known

    @cached_property
    def skills(self) -> tuple[str, ...]:
        """SKILL.md files in skill folders, and flat skills directly inside a skills root.

        Everything else inside a skill folder (a nested SKILL.md included) is one of
        its resources, not a skill of its own.
        """
        by_folder = self._by_folder  # folder -> its Markdown files' names
        folders = {folder for folder, names in by_folder.items() if SKILL_NAME in names}

        def in_skill_folder(folder: str) -> bool:
            return any(f in folders for f in _ancestors(folder))

        found = []
        for folder, names in by_folder.items():
            # Most folders hold neither a SKILL.md nor flat skills: one test per folder.
            skills_root = self.is_skills_root(folder)
            if not skills_root and SKILL_NAME not in names:
                continue
            for name in names:
                if name == SKILL_NAME:
                    if folder and in_skill_folder(parent(folder)):
                        continue
                elif name in NOT_SKILL or not skills_root:
                    continue
                elif in_skill_folder(folder) or not _looks_like_skill(self.document(join(folder, name))):
                    continue
                if self.is_file(join(folder, name)):
                    found.append(join(folder, name))
        return tuple(sorted(found))

    def names_in(self, folder: str) -> set[str]:
        """Names of the files directly inside ``folder``."""
        return set(self._names_by_folder.get(folder, ()))

    @cached_property
    def _names_by_folder(self) -> dict[str, list[str]]:
        folders: dict[str, list[str]] = {}
        for path in self.files:
            folder, _, name = path.rpartition("/")
            folders.setdefault(folder, []).append(name)
        return folders


def select_targets(ws: Workspace, paths: Iterable[str] | None, judge: bool = True, deleted: Sequence[str] = ()) -> tuple[list[Store], list[str], list[str]]:
    """What to check for the given paths (pre-commit's file list): stores, guidance, skills.

    A changed memory file or index brings in its whole store, since the index depends
    on every file in it. A folder brings in everything below it. No paths: everything,
    and with ``judge`` False the stores found by their MEMORY.md alone are left for the
    checks to judge (``Workspace.is_store``). ``deleted``: paths a change removed
    (see ``listing.changed_paths``); each brings in the store it was in (its index
    may still list it) and every guidance file and skill (one may import or link it).
    """
    if paths is None:
        found = ws.stores if judge else ws.stores_among(ws.folders_with_markdown, judge=False)
        return list(found), list(ws.guidance), list(ws.skills)
    wanted = [w for w in (relative_path(ws.root, p) for p in paths) if w is not None]
    gone = [w for w in (relative_path(ws.root, p) for p in deleted) if w is not None]
    # Looked up by each path's folders, not tried one by one: a hook run may be given
    # thousands of paths, and a store thousands of files.
    wanted_set = set(wanted)
    whole = "" in wanted_set

    def hit(path: str) -> bool:
        return whole or path in wanted_set or any(f in wanted_set for f in _ancestors(parent(path)) if f)

    # Only folders that hold a given path or lie below a given folder can be hit:
    # judge those, not the whole tree, so a hook run on one file stays cheap.
    folders = {parent(w) for w in (*wanted, *gone)}.union(f for f in ws.folders_with_markdown if _folder_hit(f, wanted_set))
    candidates = ws.stores_among(folders, lost_index=frozenset(parent(g) for g in gone if basename(g) == INDEX_NAME))
    gone_from = {parent(g) for g in gone}
    stores = [s for s in candidates if s.folder in gone_from or hit(s.index) or any(hit(f) for f in s.files) or _folder_hit(s.folder, wanted_set)]
    if ws.partial:
        return stores, [], []  # hook_folders found no path that could be anything else
    if gone:
        return stores, list(ws.guidance), list(ws.skills)
    # Finding every guidance file and skill means looking through the whole tree: done
    # only when a given path could be one (or is a folder), not for a memory file.
    files_only = all(w in ws.file_set for w in wanted)
    guidance: list[str] = []
    if not files_only or any(kind_of(w, ws.config.guidance.filenames) is not None for w in wanted):
        # A symlinked twin (CLAUDE.md -> AGENTS.md) brings in the file it is.
        twins_hit = {real for twin, real in ws.twins.items() if hit(twin)}
        guidance = [g for g in ws.guidance if hit(g) or g in twins_hit]
    skills: list[str] = []
    if not files_only or any(_could_be_skill(ws, w) for w in wanted):
        skills = [s for s in ws.skills if hit(s)]
    return stores, guidance, skills


def _could_be_skill(ws: Workspace, path: str) -> bool:
    """A SKILL.md, or Markdown directly in a skills root (what ``Workspace.skills`` holds)."""
    return _skill_name(path, ws.config, ws.is_skills_root)


def _skill_name(path: str, config: Config, is_skills_root: Callable[[str], bool]) -> bool:
    name = basename(path)
    return name == SKILL_NAME or (name.endswith(".md") and name not in NOT_SKILL and is_skills_root(parent(path)))


def hook_folders(config: Config, paths: Sequence[str]) -> list[str] | None:
    """The folders a check of ``paths`` needs listed, or None for the whole tree.

    A hook run on memory files needs only their folders (each file's store); listing
    those is a fraction of listing a large tree. Any path that is not a regular file,
    or could be a guidance file or a skill (finding those needs the whole tree), or is
    outside the root, asks for everything.
    """
    folders: set[str] = set()
    for given in paths:
        rel = relative_path(config.root, given)
        full = os.path.join(config.root, rel) if rel else ""
        if not rel or not os.path.isfile(full) or os.path.islink(full):
            return None
        if kind_of(rel, config.guidance.filenames) is not None:
            return None
        if _skill_name(rel, config, lambda folder: any(patterns.glob_matches_folder(g, folder) for g in config.skills.roots)):
            return None
        folders.add(parent(rel))
        if len(folders) > _MAX_HOOK_FOLDERS:
            return None
    return sorted(folders)


# git matches every listed file against every folder it is given: past a few hundred
# folders (a commit that touches a whole code base), one listing of the tree is cheaper.
_MAX_HOOK_FOLDERS = 256


def _folder_hit(folder: str, wanted: set[str]) -> bool:
    """``folder`` is a given path or lies below one.

    Each folder's ancestors are tried: folders × depth, bounded because a path holds
    at most 4,096 bytes, so at most 2,048 levels (a chain of 1,600 folders each
    holding Markdown took 1.8 s of CPU to check)."""
    return "" in wanted or any(f in wanted for f in _ancestors(folder) if f)


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
USER_STORES = (".agh/memory", ".nano_claude/memory")
USER_SKILL_ROOTS = (".config/agents/skills", ".config/amp/skills", ".claude/skills")
USER_PREFIX = "~/"


def user_files(home: Path, guidance_names: Iterable[str]) -> list[str]:
    found: set[str] = set()
    for folder in USER_GUIDANCE_FOLDERS:
        found.update(join(folder, n) for n in guidance_names if (home / folder / n).is_file())
    found.update(p for files in USER_FILES.values() for p in files if (home / p).is_file())
    if (home / USER_RULES).is_dir():
        found.update(join(USER_RULES, p) for p in walk_files(home / USER_RULES) if p.endswith(".md"))
    for folder in USER_STORES:
        if (home / folder).is_dir():
            found.update(join(folder, e.name) for e in os.scandir(home / folder) if e.name.endswith(".md"))
    for folder in USER_SKILL_ROOTS:
        if (home / folder).is_dir():
            found.update(join(folder, p) for p in walk_files(home / folder))
    return sorted(found)


def user_workspace(config: Config, home: Path | None = None) -> Workspace:
    """The user's home as a workspace holding only the user-level locations."""
    home = (home or Path.home()).resolve()
    user_config = replace(
        config,
        memory=config.memory._replace(stores=tuple(dict.fromkeys((*config.memory.stores, *USER_STORES)))),
        skills=config.skills._replace(roots=USER_SKILL_ROOTS),
    )
    return folder_workspace(user_config, home, user_files(home, config.guidance.filenames))


def folder_workspace(config: Config, folder: Path, files: Sequence[str] = ()) -> Workspace:
    """A folder outside the repository (the home folder, $CODEX_HOME, a folder above
    the repository) as a workspace of the given files; other files are read when asked."""
    # A baseline, excludes and per-path ignores are the repository's.
    ws = Workspace(replace(config, root=folder, exclude=(), per_path_ignores=(), baseline=None), files=list(files))
    ws.user = True
    return ws
