"""What is worked out from each memory's content alone, and the pieces of a store's
check, kept between runs for one store (see ``StoreValues``): the cache of one part's
inside, where engine/cache.py keeps each part whole."""

from __future__ import annotations

import marshal
from typing import TYPE_CHECKING, Callable, Collection, TypeVar, cast

from memcheck.digests import sha1
from memcheck.engine.cache import as_json_gives
from memcheck.engine.content_keys import code_digest
from memcheck.text.blobs import content_key

if TYPE_CHECKING:
    from memcheck.engine.cache import Cache
    from memcheck.text.document import Document, OfContent

T = TypeVar("T")
W = TypeVar("W")  # the workspace an OfContent value is worked out in


class StoreValues:
    """What is worked out from each memory's content alone (see document.OfContent),
    and the pieces of the store's check (see ``remembered``), kept between runs for one
    store, so that a store one memory of which changed works out again for that memory
    only. One sealed file per store, written anew with the values of the files it holds
    now (so older content's values go)."""

    def __init__(self, cache: Cache, folder: str) -> None:
        self._cache = cache
        self._name = sha1(f"{code_digest()}\0{folder}".encode("utf-8", "surrogateescape")).hexdigest()
        self._kept: dict[str, object] = {}
        self._now: dict[str, object] = {}
        # The pieces of each file's own work (``of_file``), by the file (the run's key,
        # its path and its content key), then by the work's name: a commit of one memory
        # in a store of 600 looks up about 4,200 such pieces, seven a memory. Kept by
        # file, each memory's key is worked out and looked up once, not seven times, and
        # the store's file holds each path and content key once: a third of the bytes
        # to read, seal and write (772 KB on that store, was).
        self._kept_files: dict[str, dict[str, object]] = {}
        self._now_files: dict[str, dict[str, object]] = {}
        self._file_keys: dict[str, str] = {}
        # A first run keeps no piece (see ``remembered``), unless this very run checks
        # the store again.
        self.keeps_pieces = not cache.empty or cache.tracker.pieces_serve_this_run
        raw = cache.read_sealed("values", self._name)
        if raw is not None:
            try:
                kept = marshal.loads(raw)
            except (EOFError, ValueError, TypeError):
                kept = None
            if type(kept) is tuple and len(kept) == 2 and type(kept[0]) is dict and type(kept[1]) is dict:
                self._kept, self._kept_files = kept

    def value(self, compute: OfContent[W, T], doc: Document, work: Callable[[], T]) -> T:
        key = f"{compute.name}\0{doc.path}\0{content_key(doc)}"
        if key in self._kept:
            kept = self._now[key] = self._kept[key]
            return cast(T, kept)
        found = work()
        self._now[key] = found
        return found

    def remembered(
        self,
        key: Callable[[], str],
        work: Callable[[], T],
        encode: Callable[[T], object],
        decode: Callable[[object], T],
        covers: Collection[str] = (),
    ) -> T:
        """``work()``, a piece of a store's check (one memory's findings, the index's),
        kept from an earlier run of the same settings where ``key()`` (what it is
        worked out from: the caller's, with the content keys of ``covers``, the files
        whose content it reads) was the same and every question it asked of the tree
        has the same answer now. Asked again, those questions count as this part's,
        as if ``work`` had run. A piece that read a file ``covers`` does not name is
        worked out every time: its key would not tell a change of that file; so is
        one ``encode`` gives None for (a message that quotes a secret: the cache keeps
        nothing the report would not show).

        A first run keeps no piece: it keeps every part whole, and the next run that
        finds a part changed keeps that part's pieces. Keeping them costs (a frame per
        piece, the key of each, writing them), and on a whole tree checked once, as
        in CI, nothing would ever read them: on bench/'s M tree they cost a first run
        about a third more CPU. The exception is a run that checks the same stores
        twice, a commit hook's (the tree at HEAD, then the commit's): its first pass
        keeps them for the second, which works out only the memories the commit
        changed (on a first commit of one memory in a store of 600, a quarter less
        CPU for the check hook)."""
        if not self.keeps_pieces:
            return work()
        return self._remember(self._kept, self._now, f"piece\0{self._cache.run_key}\0{key()}", work, encode, decode, covers)

    def of_file(
        self, name: str | Callable[[], str], path: str, work: Callable[[], T], encode: Callable[[T], object], decode: Callable[[object], T]
    ) -> T:
        """``remembered`` for work on one file of the store, keyed by its content as
        git knows it (see FileKeys): a memory whose work is kept is not even read."""
        if not self.keeps_pieces:
            return work()
        file_key = self._file_keys.get(path)
        if file_key is None:
            cache = self._cache
            file_key = self._file_keys[path] = f"{cache.run_key}\0{path}\0{cache.keys.key(path)}"
        label = name() if callable(name) else name
        kept_file = self._kept_files.get(file_key)
        now_file = self._now_files.get(file_key)
        if now_file is None:
            now_file = self._now_files[file_key] = {}
        if type(kept_file) is not dict:  # (none kept; or not a value this code wrote)
            kept_file = {}
        else:
            # The usual case first, in as few calls as it takes: all but a few pieces
            # of a commit's run are kept and asked nothing of the tree.
            kept = kept_file.get(label)
            if type(kept) is tuple and len(kept) == 2 and not kept[1]:
                try:
                    found = decode(kept[0])
                except (TypeError, ValueError, KeyError):
                    pass
                else:
                    now_file[label] = kept
                    return found
        return self._remember(kept_file, now_file, label, work, encode, decode, (path,))

    def _remember(
        self,
        kept_in: dict[str, object],
        now_in: dict[str, object],
        full: str,
        work: Callable[[], T],
        encode: Callable[[T], object],
        decode: Callable[[object], T],
        covers: Collection[str],
    ) -> T:
        """``work()``, or what ``kept_in`` kept under the piece's key ``full`` (either way
        noted in ``now_in``, to keep)."""
        kept = kept_in.get(full)
        if kept is not None:
            try:
                value, questions = cast("tuple[object, list[list[object]]]", kept)
                # (most pieces asked nothing: a memory with no link)
                if not questions or self._cache.holds({"reads": {}, "questions": questions}):
                    found = decode(value)
                    tracker = self._cache.tracker
                    for method, argument, answer in questions:
                        tracker.asked(cast(str, method), cast(str, argument), answer)
                    now_in[full] = kept
                    return found
            except (TypeError, ValueError, KeyError):
                pass
        with self._cache.tracker.piece() as frame:
            found = work()
        encoded = encode(found) if set(frame.reads).issubset(covers) else None
        if encoded is not None:
            questions = sorted([m, a, as_json_gives(v)] for (m, a), v in frame.questions.items())
            now_in[full] = (encoded, questions)
        return found

    def save(self) -> None:
        now_files = {key: pieces for key, pieces in self._now_files.items() if pieces}
        if self._now == self._kept and now_files == self._kept_files:
            self._cache.used("values", self._name)
            return
        try:
            self._cache.write_sealed("values", self._name, marshal.dumps((self._now, now_files)))
        except (OSError, ValueError):  # a value marshal cannot write: none kept
            pass
