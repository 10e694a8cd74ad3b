"""Sharing a run's parts out between processes: how many (``jobs``), and the work
queue they take parts from (forked children, a pipe of part numbers, results back
through pipes; no child outlives the run)."""

from __future__ import annotations

import os
import select
import signal
import sys
from typing import TYPE_CHECKING, Callable, ContextManager, NoReturn

from memcheck.config import ConfigError
from memcheck.engine.part import check_part, check_parts
from memcheck.engine.signals import STOP_SIGNALS, signals_held, stopped_by_signals
from memcheck.engine.targets import size

if TYPE_CHECKING:
    import threading

    from memcheck.engine.cache import Cache
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.targets import Check, Targets

# Below this many files a check takes a tenth of a second or so: not worth a process.
_FILES_PER_PROCESS = 1000
_MAX_PROCESSES = 8


def jobs(files: int, parts: int) -> int:
    """How many processes check ``files`` files in ``parts`` parts.

    MEMCHECK_JOBS sets it (1: never split). Otherwise one per CPU this process may
    use, at most one per 1,000 files and 8 in all (a hook run on a few files stays
    in one process), and only where processes can be
    forked: Linux and the BSDs. macOS is left out because forking there is unsafe
    once system frameworks are loaded, and spawning would re-import everything.
    """
    wanted = os.environ.get("MEMCHECK_JOBS", "").strip()
    if wanted:
        if not wanted.isdigit() or int(wanted) < 1:
            raise ConfigError(f"MEMCHECK_JOBS must be a whole number of processes, 1 or more, not {wanted!r}")
        count = int(wanted)
    else:
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        count = min(cpus, _MAX_PROCESSES, files // _FILES_PER_PROCESS)
    if count < 2 or parts < 2 or sys.platform in ("darwin", "win32") or not hasattr(os, "fork"):
        return 1
    return min(count, parts)


def find_in_processes(
    ws: Workspace,
    own: list[Targets],
    parts: list[Targets],
    checks: list[Check],
    enabled: set[str],
    workers: int,
    cache: Cache | None = None,
    done: Callable[[], None] = lambda: None,
) -> set[Problem]:
    """Fork ``workers - 1`` children; they and this process take ``parts`` from a
    shared queue until it is empty, and children send back their findings, pickled,
    through a pipe. This process checks ``own`` (the guidance files) first, and
    calls ``done`` once the queue is empty, while the children may still check.

    The guidance files stay in this process because their checks share one model of
    who reads what, built from all of them: split between two processes, each built
    it (on bench/'s trees, a third of a second each, the guidance files' whole cost
    twice over); here the children check stores meanwhile.
    """
    pool = Workers()
    try:
        pool.fork(ws, parts, checks, enabled, workers, cache)
        return pool.finish(ws, own, checks, enabled, cache, done)
    finally:
        pool.close()


class Workers:
    """Children forked to check parts from a shared queue with this process (see
    ``fork``), and their findings once they are done (``finish``); ``close`` ends and
    reaps any child left (call it in a ``finally``).

    Forking (rather than a pool) lets every child start from this process as it is:
    files listed, stores found, documents already read; nothing is sent to them,
    and no process sits idle while the others work. The queue (``_PartQueue``) is a
    pipe of the parts' numbers, largest parts first: a reader takes one number at a
    time, so whoever is free takes the next part, and the processes finish together
    however the parts' costs differ.

    No child outlives this process: SIGTERM and SIGINT here end the children before
    this process ends (see ``stopped_by_signals``), and a child whose parent is gone
    all the same (SIGKILL) stops at its next part.
    """

    def __init__(self) -> None:
        self.parts: list[Targets] = []
        self.children: dict[int, int] = {}  # pid -> the read end of its pipe
        self._queue: _PartQueue | None = None
        self._signals: ContextManager[None] | None = None

    @property
    def forked(self) -> bool:
        return self._queue is not None

    def fork(self, ws: Workspace, parts: list[Targets], checks: list[Check], enabled: set[str], workers: int, cache: Cache | None) -> None:
        """Fork ``workers - 1`` children that check ``parts`` with ``checks``, and start
        feeding the queue (from a thread: nothing is forked after this)."""
        self.parts = parts
        self._queue = queue = _PartQueue(sorted(range(len(parts)), key=lambda i: -size(parts[i])))
        self._signals = stopped_by_signals()
        self._signals.__enter__()
        parent = os.getpid()
        # The cycle collector is off here (see collect.find): the children never walk, and
        # so never copy, the memory they share with this process.
        for _ in range(workers - 1):
            read_end, write_end = os.pipe()
            with signals_held():  # a signal between fork() and the next line would lose the child
                pid = os.fork()
                if pid == 0:  # the child: check, report, and leave without running the parent's cleanup
                    queue.close_feed()
                    _child(ws, parts, queue.numbers, checks, enabled, parent, read_end, write_end, cache)
                self.children[pid] = read_end
            os.close(write_end)
        queue.feed()  # once every child is forked: a process with a thread is not forked
        from memcheck.text import secrets

        secrets.keep_probing()  # (this process holds the run's peak memory: see there)

    def finish(
        self, ws: Workspace, own: list[Targets], checks: list[Check], enabled: set[str], cache: Cache | None, done: Callable[[], None]
    ) -> set[Problem]:
        """This process checks ``own``, then takes parts from the queue with the
        children; ``done`` once the queue is empty; then the children's findings."""
        import pickle

        assert self._queue is not None
        if cache is not None:
            cache.write_deferred()
        found = check_parts(ws, own, checks, enabled, cache)
        # Every document read so far (the guidance files' and skills', their text and
        # lines) is dropped before this process takes stores from the queue, which
        # rarely read them again (a store's check that does reads its file anew): their
        # memory is then reused for the stores, rather than the stores' added on top.
        # On bench/'s M tree that is this process's peak, and the run's: 42.1 MB, 40.6 MB
        # so (four runs each). Unlike done()'s forget_all in the serial path, it holds
        # for fix and the HEAD comparison too: what they read again is read anew.
        ws.forget_all()
        found |= _check_queued(ws, self.parts, self._queue.numbers, checks, enabled, cache=cache)
        done()
        children = self.children
        while children:
            pid, read_end = next(iter(children.items()))
            with os.fdopen(read_end, "rb", closefd=False) as pipe:
                payload = pipe.read()
            # Its result is in: it ends by itself. Forgotten before it is reaped, so
            # the cleanup below never signals a process id that may be reused.
            del children[pid]
            os.close(read_end)
            os.waitpid(pid, 0)
            if not payload:
                raise RuntimeError("a checking process ended without a result")
            ok, result = pickle.loads(payload)
            if not ok:
                raise RuntimeError(result)
            found |= result
        return found

    def close(self) -> None:
        if self._queue is not None:
            self._queue.close()
        with signals_held():  # a second Ctrl-C must not cut the cleanup short
            for pid, read_end in self.children.items():  # interrupted or failed: leave no child behind
                os.close(read_end)
                os.kill(pid, signal.SIGTERM)
                os.waitpid(pid, 0)
        self.children = {}
        if self._signals is not None:
            signals, self._signals = self._signals, None
            signals.__exit__(None, None, None)


def _child(
    ws: Workspace,
    parts: list[Targets],
    queue: int,
    checks: list[Check],
    enabled: set[str],
    parent: int,
    read_end: int,
    write_end: int,
    cache: Cache | None,
) -> NoReturn:
    import pickle

    try:
        # The parent's handlers raise into code that is the parent's; a child simply
        # ends when told to (the parent waits for it).
        for number in STOP_SIGNALS:
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        os.close(read_end)
        if cache is not None and cache.empty:
            # A first run: this process reads and hashes the memories of most stores.
            from memcheck.text.blobs import fast_blob_ids

            fast_blob_ids()
        try:
            found = _check_queued(ws, parts, queue, checks, enabled, parent, cache)
            if cache is not None:
                cache.flush()  # this process's parts, with what this process read
            payload = pickle.dumps((True, found))
        except BaseException as e:  # the parent reports it, as an internal error
            payload = pickle.dumps((False, f"{type(e).__name__}: {e}"))
        with os.fdopen(write_end, "wb") as out:
            out.write(payload)
    finally:
        os._exit(0)  # whatever happened: never return into the parent's code


_NUMBER = 4  # bytes per part number in the queue
# Writes of up to PIPE_BUF bytes reach a pipe whole (POSIX), so a number is never split
# between two writes; POSIX promises at least 512, Linux gives 4,096.
_WHOLE_WRITE = getattr(select, "PIPE_BUF", 512) // _NUMBER * _NUMBER


class _PartQueue:
    """The parts' numbers in a pipe that every checking process reads: it reads empty
    once every part is taken.

    A thread of this process feeds the pipe while the processes read, so the queue may
    be longer than the pipe holds: Linux gives a pipe 64 KiB, but only 4 KiB to a user
    past ``pipe-user-pages-soft``, and a queue written in full before anyone read
    would block there. The standard library's pool (``concurrent.futures`` with a fork
    context) shares work the same way, but on bench/'s M tree it took 1.22-1.26x
    this queue's time (ten alternating runs on 2 CPUs: its parent only waits, and
    every part goes through its call queue), and its workers sleep on for good when
    the parent is killed with SIGKILL.
    """

    def __init__(self, order: list[int]):
        self._data = b"".join(i.to_bytes(_NUMBER, "little") for i in order)
        self.numbers, self._feed_end = os.pipe()
        self._feeding: threading.Thread | None = None  # once started

    def feed(self) -> None:
        import threading

        self._feeding = threading.Thread(target=self._write, name="memcheck-part-queue", daemon=True)
        self._feeding.start()

    def _write(self) -> None:
        try:
            for start in range(0, len(self._data), _WHOLE_WRITE):
                os.write(self._feed_end, self._data[start : start + _WHOLE_WRITE])
        except OSError:  # every reader is gone: the run was interrupted
            pass
        finally:
            os.close(self._feed_end)

    def close_feed(self) -> None:
        """In a child: only the parent feeds, and the readers see the end only once
        every copy of the feeding end is closed."""
        os.close(self._feed_end)

    def close(self) -> None:
        os.close(self.numbers)  # a feed still writing fails, and ends
        if self._feeding is None:
            os.close(self._feed_end)


def _check_queued(
    ws: Workspace, parts: list[Targets], queue: int, checks: list[Check], enabled: set[str], parent: int = 0, cache: Cache | None = None
) -> set[Problem]:
    """``parent``: in a child, the process that forked it; when that one is gone, the
    child stops rather than check on for nobody."""
    found: set[Problem] = set()
    # A pipe read takes whole numbers: each arrived whole (see _WHOLE_WRITE), and a
    # read of a pipe is never split between readers.
    while number := os.read(queue, _NUMBER):
        if parent and os.getppid() != parent:
            os._exit(1)
        found |= check_part(ws, parts[int.from_bytes(number, "little")], checks, enabled, cache)
    return found
