"""The findings of each part (a store, the guidance files, the skills), kept between
runs and keyed by content, as ruff keeps its own.

A part's entry holds its findings and what they were worked out from: the content key
of every file it read and the answer to every question it asked the tree (see
workspace/tracking.py), and the context of the process that checked it. An entry is
believed only when every one of those still holds: a file's key is its git blob id
where git has one (the index, or the commit's tree: free), else a digest of what
reading it gives. Nothing else is trusted: an entry that does not parse, is of another
shape, names another key or a path outside the tree is a miss, and is written anew.

Where: ``MEMCHECK_CACHE_DIR``, else the settings' ``cache-dir`` (a folder inside the
repository), else ``memcheck/cache`` in the repository's git folder. Every file is
written whole (a temporary file, then a rename), so two runs at once (a hook and the
editor) never leave half an entry; both write the same entry for the same key.

What invalidates everything: memcheck's version, its code and data files (the agent
facts among them), the settings, the rules the run checks, and the list of files.
"""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Sequence, TypeVar

from memcheck.digests import blake2b, compare_digest, sha1
from memcheck.engine.cache_folder import MARKER, folder_for, git_dir, make_folders, read_file, real_folder
from memcheck.engine.content_keys import FORMAT, FileKeys, code_digest
from memcheck.engine.targets import targets_for
from memcheck.problem import ERROR, WARNING, Problem
from memcheck.workspace.discover import relative_path
from memcheck.workspace.targets import Targets
from memcheck.workspace.tracking import Tracker, answerer, listing_digest

if TYPE_CHECKING:
    from memcheck.config import Config
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.skills import Skills
    from memcheck.workspace.stores import Store
    from memcheck.workspace.tracking import Frame, Question

T = TypeVar("T")
PRUNE_EVERY = 24 * 3600  # seconds between two prunings of the folder
UNUSED_FOR = 7 * 24 * 3600  # an entry no run wrote or found for this long is removed


def start(ws: Workspace) -> Workspace:
    """Track what ``ws`` reads and asks from now on, where a cache is kept for it: a
    workspace must be tracked from before it finds its stores, guidance files and
    skills, so that what finding them read is known to every part (a workspace not
    tracked from the start never uses the cache)."""
    if folder_for(ws.config) is not None and not ws.user and ws.tracker is None:
        from memcheck.text import document

        document.keys_asked()
        ws.track(Tracker())
    return ws


def warm(config: Config) -> bool:
    """Whether a cache is kept for ``config``'s runs and holds parts already: a run may
    then find every part kept, and need no rule family at all (see family_catalogue)."""
    folder = folder_for(config)
    return folder is not None and real_folder(folder / "parts")


def discovered(
    ws: Workspace, paths: Sequence[str] | None, deleted: Sequence[str] = (), stores_found: Callable[[list[Store]], None] | None = None
) -> Targets:
    """``targets_for(ws, paths, judge=False)``, from the cache where an earlier run
    found them in the same tree (see engine/cache.py); ``stores_found`` is told the
    stores where they are found (not where the cache gives them)."""
    cache = Cache.open(ws, "")
    if cache is None:
        return targets_for(ws, paths, judge=False, deleted=deleted, stores_found=stores_found)
    # Keyed by what the paths name in the tree, wherever they were given from.
    asked = repr((None if paths is None else [relative_path(ws.root, p) for p in paths], [relative_path(ws.root, p) for p in deleted]))
    return cache.targets(asked, lambda: targets_for(ws, paths, judge=False, deleted=deleted, stores_found=stores_found))


def as_json_gives(value: object) -> object:
    """As JSON gives it back (tuples as lists), to compare an answer with a written one."""
    if isinstance(value, (tuple, list)):
        return [as_json_gives(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    return value


def _outside(path: str) -> bool:
    """A path an entry names that leads out of the tree (absolute, or through ..)."""
    # A backslash is a name's own character here, not a separator (a file citing
    # `.claude\docs\README.md` asks about that name): refused only as a `..` part.
    return path[:1] in ("/", "") or (".." in path and ".." in path.replace("\\", "/").split("/"))


def _temporary_file(folder: Path | str) -> tuple[int, str]:
    """A new file to write and then rename into place (fd, path), made as
    tempfile.mkstemp makes one (a random name, created exclusively, readable by its
    owner alone). Not through tempfile itself: it imports shutil, and with it bz2 and
    lzma, and random: 0.5 MiB of the peak memory of a check of bench/'s M tree, and
    about 10 ms of a hook whose parts are all kept."""
    for _ in range(100):
        path = os.path.join(folder, ".tmp-" + os.urandom(6).hex())
        try:
            return os.open(
                path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0), 0o600
            ), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {folder}")


class Cache:
    """One run's access to the cache folder, for one workspace's parts."""

    def __init__(self, folder: Path, ws: Workspace, checks: str, tracker: Tracker) -> None:
        self.folder = folder
        self._secret: bytes | None = None  # see _seal
        self.ws = ws
        self.keys = FileKeys.of(ws.source)
        settings = repr(_without_cache_settings(ws.config))
        # What the tree's findings depend on besides the files' content.
        self.tree_key = sha1(
            # Not the kind of source: a commit's tree checked at HEAD is the tree the last
            # commit's hooks checked staged, and its parts are found kept (where a check
            # asks whether it judges a staged tree, that question is noted).
            "\0".join([code_digest(), settings, listing_digest(ws.files), repr((ws.partial, ws.in_git, ws.listed_by_git))]).encode(
                "utf-8", "surrogateescape"
            )
        ).hexdigest()
        self.run_key = self.keyed_by(checks)
        self.tracker = tracker
        # (process id, name) of the context this process writes at ``flush`` for the parts
        # it kept (see keep); None while it has kept none.
        self._context: tuple[int, str] | None = None
        # Entries worked out before the checks (what discovery found, the families'
        # catalogue), written by the process that opened the cache once the checking
        # processes are forked (see write_deferred), else at ``flush``: on a first run
        # their writing (a fifth of discovery's time on bench/'s M tree, the cache
        # folder and its key made with them) would otherwise delay the fork, while the
        # second CPU idles.
        self._deferred: list[Callable[[], None]] = []
        self._opener = os.getpid()
        self._contexts: dict[str, bool] = {}  # context id -> it still holds
        self.found: set[Problem] = set()  # the findings of the parts found kept
        self.hits = 0
        # Nothing kept yet (a first run, CI's): nothing is looked up, and no file's key
        # is asked of git (the files read give theirs). Told once per workspace, before
        # discovery writes its own entry: a Cache opened after that (the parts') would
        # otherwise find the folder filled, look up every part and read git's whole
        # index for their keys (on bench/'s M tree 4 MiB of the run's peak, and time).
        if tracker.cache_was_empty is None:
            tracker.cache_was_empty = not real_folder(folder / "parts")
        self.empty = tracker.cache_was_empty

    def keyed_by(self, checks: str) -> str:
        """The run's key, for the rules it checks (see collect.checks_key): set once they
        are known (they may be known from the cache itself: see family_catalogue)."""
        self.run_key = sha1(f"{self.tree_key}\0{checks}".encode()).hexdigest()
        return self.run_key

    @classmethod
    def open(cls, ws: Workspace, checks: str) -> Cache | None:
        """The cache of a workspace tracked from the start (see ``start``); None for any other."""
        folder = folder_for(ws.config)
        if folder is None or ws.tracker is None:
            return None
        # One per workspace, so that what discovery found is written with the run's parts
        # (see _deferred); what one run found kept is that run's (a workspace may be
        # checked in several runs: fix, --new-since).
        opened = ws.__dict__.get("_cache")
        if not isinstance(opened, Cache):
            opened = ws.__dict__["_cache"] = cls(folder, ws, checks, ws.tracker)
        else:
            opened.keyed_by(checks)
            opened.found, opened.hits = set(), 0
        return opened

    def _entry_key(self, part: Targets, read: dict[str, str | None] | None = None) -> str:
        """What a part is, and the content of each of its own files: as read, where
        ``read`` (what checking it read) says, else as the files are now."""
        h = sha1(self.run_key.encode())
        for store in part.stores:
            h.update(
                f"store\0{store.folder}\0{store.has_index}\0{store.by_glob}\0{store.judged}\0{store.outside}\0{store.own}\0".encode(
                    "utf-8", "surrogateescape"
                )
            )
        now = self.keys.key

        def key(path: str) -> str:
            found = read.get(path) if read is not None else None
            return found if found is not None else now(path)

        for kind, paths in _own_files(part):
            h.update(f"{kind}\0{len(paths)}\0".encode())
            for path in paths:
                h.update(f"{path}\0{key(path)}\0".encode("utf-8", "surrogateescape"))
        return h.hexdigest()

    # --- discovery -------------------------------------------------------------

    def targets(self, asked: str, compute: Callable[[], Targets]) -> Targets:
        """What a run checks (the stores, guidance files and skills found), as an
        earlier run of the same settings on the same list of files found it, where what
        finding them read and asked is still as it was; else ``compute``d and kept."""
        key = sha1(f"{self.tree_key}\0discovery\0{asked}".encode("utf-8", "surrogateescape")).hexdigest()
        entry = None if self.empty else self._load("parts", key)
        if entry is not None and entry.get("key") == key and self.holds(entry):
            try:
                return self._found_targets(entry)
            except (KeyError, TypeError, ValueError):
                pass
        with self.tracker.part() as frame:
            found = compute()
        skills = self.ws.skills_if_found()  # found along the way, or not asked
        reads = self._keyed(frame.reads)
        if reads is not None:
            self._deferred.append(lambda: self._keep_targets(key, reads, frame, found, skills))
        return found

    def _keep_targets(self, key: str, reads: dict[str, str], frame: Frame, found: Targets, skills: Skills | None) -> None:
        stores = [[s.folder, list(s.files), s.has_index, s.by_glob, s.judged, list(s.outside), list(s.own)] for s in found.stores]
        body = {
            "stores": stores,
            "guidance": list(found.guidance),
            "skills": list(found.skills),
            "kind_files": list(found.kind_files),
            "configs": list(found.configs),
            "found_skills": None if skills is None else [list(skills.files), list(skills.outside)],
        }
        questions = sorted([m, a, as_json_gives(v)] for (m, a), v in frame.questions.items())
        self._write("parts", key, {"format": FORMAT, "key": key, "reads": reads, "questions": questions, "targets": body})

    def _found_targets(self, entry: dict[str, object]) -> Targets:
        from memcheck.workspace.skills import Skills
        from memcheck.workspace.stores import Store

        body = entry["targets"]
        if not isinstance(body, dict):
            raise ValueError("not targets")
        stores = [
            Store(_text(folder), _texts(files), _flag(has_index), _flag(by_glob), _flag(judged), _texts(outside), _texts(own))
            # (An entry without a store's own documents is of another shape: a miss.)
            for folder, files, has_index, by_glob, judged, outside, own in body["stores"]
        ]
        found = Targets(
            stores,
            list(_texts(body["guidance"])),
            list(_texts(body["skills"])),
            list(_texts(body["kind_files"])),
            list(_texts(body["configs"])),
        )
        skills = body["found_skills"]
        if skills is not None:
            files, outside = skills
            self.ws.give_skills(Skills(_texts(files), _texts(outside)))
        return found

    # --- reading ---------------------------------------------------------------

    def lookup(self, part: Targets) -> set[Problem] | None:
        if self.empty:
            return None
        key = self._entry_key(part)
        entry = self._load("parts", key)
        if entry is None or entry.get("key") != key:
            return None
        try:
            # The entry's key holds the content of the part's own files; everything else it
            # read or asked, its process's context holds (see Tracker): checked once a run.
            context = entry["context"]
            if not isinstance(context, str) or not self._context_holds(context):
                return None
            findings = entry["findings"]
            if not isinstance(findings, list):
                return None
            found = {_problem(p) for p in findings}
        except (KeyError, TypeError, ValueError):
            return None
        self.hits += 1
        self.used("parts", key)
        return found

    def _context_holds(self, context: str) -> bool:
        known = self._contexts.get(context)
        if known is None:
            entry = self._load("contexts", context)
            known = self._contexts[context] = entry is not None and entry.get("key") == context and self.holds(entry)
            if known:
                self.used("contexts", context)
        return known

    def holds(self, entry: dict[str, object]) -> bool:
        """Whether every file an entry read has the same key, and every question it
        asked the same answer; False for anything not of the expected shape."""
        reads, questions = entry.get("reads"), entry.get("questions")
        if not isinstance(reads, dict) or not isinstance(questions, list):
            return False
        listed = self.ws.file_set
        known = self.keys.key
        for path, key in reads.items():
            if not isinstance(path, str) or not isinstance(key, str) or _outside(path):
                return False
            # A file the listing does not hold is read again only where it is inside
            # the tree (see _outside): a path of the entry's never leads out of it.
            if path not in listed and not self.keys.source.is_file(path):
                if key != "-":
                    return False
                continue
            if known(path) != key:
                return False
        ignored: list[tuple[str, object]] = []
        askers: dict[str, Callable[[str], object] | None] = {}
        source, root = self.keys.source, self.ws.root
        for question in questions:
            if not isinstance(question, list) or len(question) != 3:
                return False
            method, argument, answer = question
            if not isinstance(method, str) or not isinstance(argument, str) or (argument and _outside(argument)):
                return False
            if method in ("git_ignored", "git_symlinks"):
                ignored.append((method + "\0" + argument, answer))
                continue
            if method == "tree_files":
                now: object = listing_digest(list(self.ws.tree_files))
            else:
                ask = askers[method] if method in askers else askers.setdefault(method, answerer(source, root, method))
                if ask is None:
                    return False
                now = ask(argument)
            if now != answer and as_json_gives(now) != answer:
                return False
        return self._ask_git_again(ignored)

    def _ask_git_again(self, asked: list[tuple[str, object]]) -> bool:
        """git's answers, one process per kind of question, not one per path."""
        by_method: dict[str, list[tuple[str, object]]] = {}
        for joined, answer in asked:
            method, _, path = joined.partition("\0")
            by_method.setdefault(method, []).append((path, answer))
        for method, pairs in by_method.items():
            found = getattr(self.keys.source, method)([p for p, _ in pairs])
            if any((path in found) != answer for path, answer in pairs):
                return False
        return True

    def _load(self, kind: str, key: str) -> dict[str, object] | None:
        body = self.read_sealed(kind, key)
        if body is None:
            return None
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            return None
        return data if isinstance(data, dict) and data.get("format") == FORMAT else None

    def read_sealed(self, kind: str, key: str) -> bytes | None:
        """A file of the cache, if this clone sealed it (see ``secret``)."""
        if len(key) != 40 or not all(c in "0123456789abcdef" for c in key):
            return None
        raw = read_file(self.folder / kind / key)
        if raw is None:
            return None
        seal, _, body = raw.partition(b"\n")
        if self.secret is None or not compare_digest(seal, self._seal(body)):
            return None
        return body

    @property
    def secret(self) -> bytes | None:
        """A random key of this clone's, kept in its git folder (where no change can
        put a file), else in the cache folder: every entry is sealed with it, so one
        that this clone did not write, a cache committed to the repository or copied
        from another machine, is never believed."""
        if self._secret is None:
            found_git = git_dir(self.ws.root)
            where = make_folders(found_git, "memcheck") if found_git is not None else make_folders(self.folder)
            self._secret = b"" if where is None else self._key_in(where / "key")
        return self._secret if len(self._secret) == 32 else None

    @staticmethod
    def _key_in(where: Path) -> bytes:
        found = read_file(where, 32)
        if found is not None and len(found) == 32:
            return found
        try:
            fd, temporary = _temporary_file(where.parent)
            with os.fdopen(fd, "wb") as f:
                f.write(os.urandom(32))
            # Two runs at once: the first key written stays, and both use it.
            try:
                os.link(temporary, where)
            except FileExistsError:
                pass
            finally:
                os.unlink(temporary)
        except OSError:
            return b""
        return read_file(where, 32) or b""

    def _seal(self, *body: bytes) -> bytes:
        assert self._secret is not None
        seal = blake2b(key=self._secret, digest_size=32)
        for piece in body:
            seal.update(piece)
        return seal.hexdigest().encode()

    # --- writing ---------------------------------------------------------------

    def keep(self, part: Targets, frame: Frame, findings: Iterable[Problem]) -> None:
        """A part checked in this process, written at once: its entry names the context
        this process writes at ``flush``, and is believed only once that is there (never,
        where the run ends first or a file changed under it). Written at the end, the
        entries (50 files a process on bench/'s M tree) lengthened the run's end, where
        now the queue of parts shares their writing out with the checks."""
        if self._keyed(frame.reads) is None or self.tracker.unsteady:
            return  # it read a file out of the tree, or a file changed while checked: not kept
        key = self._entry_key(part, frame.reads)
        if self._context is None or self._context[0] != os.getpid():  # (a forked process names its own)
            self._context = (os.getpid(), os.urandom(20).hex())
        try:
            self._write(
                "parts", key, {"format": FORMAT, "key": key, "context": self._context[1], "findings": [list(p) for p in sorted(findings)]}
            )
        except OSError:
            pass

    def flush(self) -> None:
        """Write the context of the parts this process kept (see keep), each file whole.
        A cache that cannot be written is no cache: the run goes on without it."""
        tracker = self.tracker
        context, self._context = self._context, None
        if tracker.unsteady:  # a file changed while it was checked: keep nothing (its parts' entries are never believed)
            self._deferred.clear()
            return
        self.write_deferred()
        if context is None or context[0] != os.getpid():
            return  # no part kept
        try:
            context_reads = self._keyed(tracker.context_reads)
            if context_reads is None:
                return
            # The context is the largest file a run writes (on bench/'s M tree 0.7 MB of
            # JSON, and the run's peak memory is reached writing it): each half is made
            # into bytes once and written as it is, rather than dumped whole and copied.
            reads = _json_bytes(context_reads)
            del context_reads
            questions = _questions_json(tracker.context_questions)
            # The entry as _write writes one (keys sorted, no spaces), in pieces.
            self.write_sealed(
                "contexts",
                context[1],
                b'{"format":%d,"key":"%s","questions":' % (FORMAT, context[1].encode()),
                *questions,
                b',"reads":',
                reads,
                b"}",
            )
            del reads, questions
            self._prune()
        except OSError:
            pass

    def write_deferred(self) -> None:
        """Write the entries worked out before the checks (see _deferred); in a forked
        process, nothing: its copy of them is its parent's to write. Called in the parent
        as soon as the children are forked, so that the parts queued meanwhile go to
        them (at ``flush`` it would lengthen the run's end, as the parent's alone)."""
        deferred, self._deferred = self._deferred, []
        if os.getpid() != self._opener:
            return
        try:
            for write in deferred:
                write()
        except OSError:
            pass

    def _ignored_by_git(self) -> None:
        """A `.gitignore` of `*` in the cache folder (as ruff's and pytest's): a cache in
        the work tree is never listed, checked or committed."""
        if make_folders(self.folder) is None:
            return
        fd, temporary = _temporary_file(self.folder)
        with os.fdopen(fd, "wb") as f:
            f.write(MARKER)
        os.replace(temporary, self.folder / ".gitignore")

    def _prune(self) -> None:
        """Once a day, remove what no run has written or found for a week: every
        change leaves entries of content no tree holds any more, and the folder would
        otherwise only grow."""
        stamp = self.folder / "pruned"
        now = time.time()
        try:
            info = os.lstat(stamp)
        except OSError:
            info = None
        if info is not None and (not stat.S_ISREG(info.st_mode) or now - info.st_mtime < PRUNE_EVERY):
            return
        try:
            os.close(os.open(stamp, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644))
            os.utime(stamp, follow_symlinks=False)
        except OSError:
            return
        if info is None:
            return  # a new cache: nothing in it is a week old
        for kind in ("parts", "contexts", "values"):
            if not real_folder(self.folder / kind):
                continue
            # (Folders within: where a cache of an earlier release kept its entries.)
            for folder in [str(self.folder / kind), *_subfolders(self.folder / kind)]:
                with os.scandir(folder) as entries:
                    old = [
                        e.path
                        for e in entries
                        if e.is_file(follow_symlinks=False) and now - e.stat(follow_symlinks=False).st_mtime > UNUSED_FOR
                    ]
                for path in old:
                    try:
                        os.unlink(path)
                    except OSError:
                        pass

    def used(self, kind: str, key: str) -> None:
        """An entry found: its time is moved on, so pruning keeps it."""
        try:
            os.utime(self.folder / kind / key, follow_symlinks=False)
        except (OSError, NotImplementedError):
            pass

    def _keyed(self, reads: dict[str, str | None]) -> dict[str, str] | None:
        """Each file read with the key of what was read (where the reader did not say:
        of what is there now); "-" for a file that is not there; None where one is
        outside the tree (not kept)."""
        listed = self.ws.file_set
        keyed: dict[str, str] = {}
        for path, key in reads.items():
            if _outside(path):
                return None
            if path in listed or self.keys.source.is_file(path):
                keyed[path] = key if key is not None else self.keys.key(path)
            else:
                keyed[path] = "-"
        return keyed

    def _write(self, kind: str, key: str, entry: dict[str, object]) -> None:
        self.write_sealed(kind, key, _json_bytes(entry))

    def write_sealed(self, kind: str, key: str, *body: bytes) -> None:
        """Write a file of the cache whole, sealed with this clone's key: its body is
        the pieces ``body`` one after the other (written as they are, not joined)."""
        if self.secret is None:
            return
        if not (self.folder / ".gitignore").exists():
            self._ignored_by_git()
        # One folder per kind, not one per first two characters of the key as git shards
        # its objects: a first run would make a folder for nearly every entry (91 for
        # bench/'s M tree's 106), and a folder costs as much as a file to make (0.6 ms
        # of CPU each where it was measured); a few thousand entries (a week's, see
        # _prune) are no burden to one folder, as ruff keeps its own.
        folder = make_folders(self.folder, kind)
        if folder is None:
            return
        fd, temporary = _temporary_file(folder)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(self._seal(*body) + b"\n")
                for piece in body:
                    f.write(piece)
            os.replace(temporary, folder / key)
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise


# What the cache knows of the rule families (see Cache.families): each family module's
# rule codes, and the qualified name of its check (None: it has none).
Families = list[tuple[str, list[str], "str | None"]]


def family_catalogue(cache: Cache | None, compute: Callable[[], Families]) -> Families:
    """Each rule family's codes and check's name: kept in the cache for this very code
    (code_digest), so that a run whose every part is kept imports no rule family (a
    fifth of a warm commit hook's CPU); else ``compute``d, importing them, and kept."""
    if cache is None:
        return compute()
    name = sha1(f"{code_digest()}\0families".encode()).hexdigest()
    entry = None if cache.empty else cache._load("values", name)
    found = _families(entry["families"]) if entry is not None and entry.get("key") == name and "families" in entry else None
    if found is not None:
        cache.used("values", name)
        return found
    found = compute()
    cache._deferred.append(lambda: cache._write("values", name, {"format": FORMAT, "key": name, "families": found}))
    return found


def _families(data: object) -> Families | None:
    if not isinstance(data, list):
        return None
    found: Families = []
    for item in data:
        if not (isinstance(item, list) and len(item) == 3):
            return None
        module, codes, check = item
        if not (
            isinstance(module, str)
            and isinstance(codes, list)
            and all(isinstance(c, str) for c in codes)
            and (check is None or isinstance(check, str))
        ):
            return None
        found.append((module, codes, check))
    return found


def _subfolders(folder: Path) -> list[str]:
    with os.scandir(folder) as found:
        return [g.path for g in found if g.is_dir(follow_symlinks=False)]


def _own_files(part: Targets) -> list[tuple[str, Sequence[str]]]:
    """A part's own files, by kind, in the order the part holds them."""
    stores: list[str] = []
    for store in part.stores:
        stores.extend(store.all_files)
    return [("stores", stores), ("guidance", part.guidance), ("skills", part.skills), ("kinds", part.kind_files), ("configs", part.configs)]


def store_files(part: Targets) -> list[str]:
    """A store part's own files: no other part depends on its reading them."""
    files: list[str] = []
    for store in part.stores:
        files.extend(store.all_files)
    return files


def _text(value: object) -> str:
    if not isinstance(value, str) or _outside(value) and value != "":
        raise ValueError("not a path")
    return value


def _texts(values: object) -> tuple[str, ...]:
    if not isinstance(values, list):
        raise ValueError("not paths")
    return tuple(_text(v) for v in values)


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError("not a flag")
    return value


def _problem(fields: object) -> Problem:
    if not isinstance(fields, list) or len(fields) != 8:
        raise ValueError("not a finding")
    path, line, col, code, message, severity, fixable, about = fields
    if not (
        isinstance(path, str)
        and isinstance(line, int)
        and isinstance(col, int)
        and isinstance(code, str)
        and isinstance(message, str)
        and severity in (ERROR, WARNING)
        and isinstance(fixable, bool)
        and isinstance(about, str)
    ):
        raise ValueError("not a finding")
    return Problem(path, line, col, code, message, str(severity), fixable, about)


def _questions_json(asked: dict[Question, object], per: int = 256) -> list[bytes]:
    """The questions a context asked, as _write writes them (a JSON array of
    ``[method, argument, answer]`` sorted), in pieces of ``per`` questions. Made whole,
    the array and its rows were the run's peak memory (bench/'s M tree: 5,534 questions,
    0.34 MB of JSON, and the parent process's peak rose by 0.7 MB writing them; in
    pieces, by nothing measurable). Sorted by question: no two share one, so the
    answers are never compared."""
    asked_in_order = sorted(asked)
    pieces: list[bytes] = []
    for start in range(0, len(asked_in_order), per):
        rows = [[m, a, as_json_gives(asked[m, a])] for m, a in asked_in_order[start : start + per]]
        pieces.append((b"," if pieces else b"[") + _json_bytes(rows)[1:-1])
    return [*pieces, b"]"] if pieces else [b"[]"]


def _json_bytes(value: object) -> bytes:
    """``value`` as _write writes JSON (keys sorted, no spaces, UTF-8)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8", "surrogateescape")


def _without_cache_settings(config: Config) -> Config:
    return config._replace(cache_dir="", no_cache=False)
