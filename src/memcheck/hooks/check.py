"""`memcheck check`: run every enabled rule family over what the paths belong to."""
from __future__ import annotations

import gc
import importlib
import os
import select
import signal
import sys
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, NamedTuple, NoReturn, Sequence

from memcheck import suppression
from memcheck.checks import secrets
from memcheck.config import Config, ConfigError
from memcheck.hooks.report import destination, drop_path_ignores, report
from memcheck.problem import Problem, failing
from memcheck.rules import FAMILY_MODULES
from memcheck.text import document
from memcheck.workspace.discover import USER_PREFIX, Store, Workspace, select_targets, user_workspace
from memcheck.workspace.source import Source


class Targets(NamedTuple):
    stores: list[Store]
    guidance: list[str]
    skills: list[str]


Check = Callable[[Workspace, Targets], Iterable[Problem]]


def targets_for(ws: Workspace, paths: Sequence[str] | None, judge: bool = True, deleted: Sequence[str] = ()) -> Targets:
    """What to check; with ``judge`` False, possibly stores that ``find`` finds are not
    (see ``select_targets``): only for checking, never for writing indexes."""
    return Targets(*select_targets(ws, paths, judge, deleted))


def collect(ws: Workspace, targets: Targets) -> list[Problem]:
    """Every enabled finding for the targets, sorted and without repeats."""
    return finish(ws.config, find(ws, targets))


def find(ws: Workspace, targets: Targets) -> set[Problem]:
    """Every enabled finding for the targets, one part at a time.

    A part is a store, the guidance files, or the skills. Each family checks a
    part, then a store's documents are dropped: memory stays flat however many
    stores the tree holds, and no document is read twice. On a large tree the
    parts are shared out between processes (see ``jobs``).
    """
    enabled = set(ws.rules_on)
    # A family whose rules are all off is not run at all (see Workspace.wants for the
    # rules within a family).
    checks = [check for codes, check in family_checks() if ws.wants(*codes)]
    # The guidance files are one part: their findings come from one model of who reads
    # what, built from all of them (see _find_in_processes). The skills too, since
    # SKL009/SKL011 compare each skill with all the others.
    guidance = [Targets([], targets.guidance, [])] if targets.guidance else []
    parts = [Targets([store], [], []) for store in targets.stores]
    if targets.skills:
        parts.append(Targets([], [], targets.skills))
    workers = jobs(sum(map(_size, [*guidance, *parts])), len(guidance) + len(parts))
    with _no_cycle_collection():
        if workers > 1:
            return _find_in_processes(ws, guidance, parts, checks, enabled, workers)
        return _check_parts(ws, [*parts, *guidance], checks, enabled)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Checking allocates hundreds of thousands of objects that live for one part
    (documents, lines, findings) and makes no reference cycles (a test in
    tests/test_fast_paths.py keeps it so): the cycle collector would walk the live
    ones again and again (a seventh of the run), and find nothing. Memory is still
    freed as usual, by reference counting; the collector is back on as soon as the
    check ends."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@cache
def family_checks() -> list[tuple[frozenset[str], Check]]:
    """Each rule family's codes and check (guard has none: it judges paths, not files)."""
    families = [importlib.import_module(name) for name in FAMILY_MODULES]
    return [(frozenset(r.code for r in f.RULES), f.check) for f in families if hasattr(f, "check")]


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


def _check_part(ws: Workspace, part: Targets, checks: list[Check], enabled: set[str]) -> set[Problem]:
    if not all(ws.is_store(store) for store in part.stores):
        for store in part.stores:
            ws.forget([*store.files, store.index])
        part = part._replace(stores=[store for store in part.stores if ws.is_store(store)])
    found = {p for check in checks for p in check(ws, part) if p.code in enabled}
    commented = _commented(ws, part, found)
    if commented:
        found = set(suppression.apply(found, commented, enabled))
    if found:
        # Whatever rule quoted a value, no secret leaves in a message (SEC ignored
        # or not); scrubbed while the part's documents are still in memory.
        found = set(secrets.scrub(found, ws, secrets.files_of(part)))
    for store in part.stores:
        ws.forget([*store.files, store.index])
    return found


def _commented(ws: Workspace, part: Targets, found: set[Problem]) -> dict[str, document.Document]:
    """The part's files (and the files its findings are on or about) that hold a
    suppression comment; the part's own are in memory already."""
    paths = set(secrets.files_of(part))
    paths.update(p.path for p in found)
    paths.update(p.about for p in found if p.about)
    docs = {path: ws.document(path) for path in sorted(paths)}
    return {path: doc for path, doc in docs.items() if "memcheck-" in doc.text}


def _find_in_processes(ws: Workspace, own: list[Targets], parts: list[Targets], checks: list[Check], enabled: set[str], workers: int) -> set[Problem]:
    """Fork ``workers - 1`` children; they and this process take ``parts`` from a
    shared queue until it is empty, and children send back their findings, pickled,
    through a pipe. This process checks ``own`` (the guidance files) first.

    The guidance files stay in this process because their checks share one model of
    who reads what, built from all of them: split between two processes, each built
    it (on bench/'s trees, a third of a second each, the guidance files' whole cost
    twice over); here the children check stores meanwhile.

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
    import pickle

    queue = _PartQueue(sorted(range(len(parts)), key=lambda i: -_size(parts[i])))
    children: dict[int, int] = {}  # pid -> the read end of its pipe
    parent = os.getpid()
    # The cycle collector is off here (see find): the children never walk, and so never
    # copy, the memory they share with this process.
    try:
        with stopped_by_signals():
            for _ in range(workers - 1):
                read_end, write_end = os.pipe()
                with signals_held():  # a signal between fork() and the next line would lose the child
                    pid = os.fork()
                    if pid == 0:  # the child: check, report, and leave without running the parent's cleanup
                        queue.close_feed()
                        _child(ws, parts, queue.numbers, checks, enabled, parent, read_end, write_end)
                    children[pid] = read_end
                os.close(write_end)
            queue.feed()  # once every child is forked: a process with a thread is not forked
            found = _check_parts(ws, own, checks, enabled)
            found |= _check_queued(ws, parts, queue.numbers, checks, enabled)
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
    finally:
        queue.close()
        with signals_held():  # a second Ctrl-C must not cut the cleanup short
            for pid, read_end in children.items():  # interrupted or failed: leave no child behind
                os.close(read_end)
                os.kill(pid, signal.SIGTERM)
                os.waitpid(pid, 0)


def _child(ws: Workspace, parts: list[Targets], queue: int, checks: list[Check], enabled: set[str], parent: int, read_end: int, write_end: int) -> NoReturn:
    import pickle

    try:
        # The parent's handlers raise into code that is the parent's; a child simply
        # ends when told to (the parent waits for it).
        for number in _STOP_SIGNALS:
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
        os.close(read_end)
        try:
            payload = pickle.dumps((True, _check_queued(ws, parts, queue, checks, enabled, parent)))
        except BaseException as e:  # the parent reports it, as an internal error
            payload = pickle.dumps((False, f"{type(e).__name__}: {e}"))
        with os.fdopen(write_end, "wb") as out:
            out.write(payload)
    finally:
        os._exit(0)  # whatever happened: never return into the parent's code


_STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Stopped(SystemExit):
    """SIGTERM arrived: end as a process killed by it would (exit 143), after the
    cleanup on the way out."""


def _stop(number: int, frame: object) -> None:
    raise Stopped(128 + number)


@contextmanager
def stopped_by_signals() -> Iterator[None]:
    """SIGTERM raises ``Stopped`` (SIGINT already raises KeyboardInterrupt), so
    ``finally`` blocks run and the children are ended and reaped."""
    try:
        previous = signal.signal(signal.SIGTERM, _stop)
    except ValueError:  # not the main thread: signals go to the main thread anyway
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def signals_held() -> Iterator[None]:
    """SIGTERM and SIGINT wait until the block is done (then arrive as usual)."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: nothing to hold (and nothing forks)
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


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
        self._feeding: Any = None  # the feeding thread, once started

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


def _check_queued(ws: Workspace, parts: list[Targets], queue: int, checks: list[Check], enabled: set[str], parent: int = 0) -> set[Problem]:
    """``parent``: in a child, the process that forked it; when that one is gone, the
    child stops rather than check on for nobody."""
    found: set[Problem] = set()
    # A pipe read takes whole numbers: each arrived whole (see _WHOLE_WRITE), and a
    # read of a pipe is never split between readers.
    while number := os.read(queue, _NUMBER):
        if parent and os.getppid() != parent:
            os._exit(1)
        found |= _check_part(ws, parts[int.from_bytes(number, "little")], checks, enabled)
    return found


def _check_parts(ws: Workspace, parts: list[Targets], checks: list[Check], enabled: set[str]) -> set[Problem]:
    found: set[Problem] = set()
    for part in parts:
        found |= _check_part(ws, part, checks, enabled)
    return found


def _size(part: Targets) -> int:
    """About how many files a part reads (skills count double: each is compared with
    the others)."""
    return len(part.guidance) + 2 * len(part.skills) + sum(len(s.files) + 1 for s in part.stores)


def finish(config: Config, found: set[Problem]) -> list[Problem]:
    """The findings to report, sorted: per-path ignores, then the baseline."""
    problems = sorted(drop_path_ignores(found, config))
    if config.baseline:
        from memcheck import baseline

        problems = baseline.drop_accepted(problems, config)
    return problems


def _collect_tree(config: Config, paths: Sequence[str] | None, source: Source | None, deleted: Sequence[str]) -> list[Problem]:
    ws = Workspace(config, source)
    return collect(ws, targets_for(ws, paths, judge=False, deleted=deleted))


def collect_user(config: Config) -> list[Problem]:
    """Findings in the user-level locations (``~/.config/amp/AGENTS.md``,
    ``~/.agh/memory``, ``~/.claude/skills``, ...), with ``~/`` paths."""
    ws = user_workspace(config)
    return [p._replace(path=USER_PREFIX + p.path) for p in collect(ws, targets_for(ws, None))]


def run(
    config: Config,
    paths: Sequence[str] | None,
    fmt: str = "text",
    user: bool = False,
    source: Source | None = None,
    *,
    deleted: Sequence[str] = (),
    statistics: bool = False,
    output_file: str | None = None,
    write_baseline: str | None = None,
) -> int:
    """Check, report and say whether the run fails (exit 1) under ``fail-on``.

    ``paths`` None: the whole tree; an empty list (a change that touches nothing,
    see ``staged.changed_paths``): nothing."""
    problems: list[Problem] = []
    if paths is None or paths or deleted:
        # Imported while git lists the files (see cli.check), rather than after: the
        # checks and, for a whole tree (where some frontmatter is sure to need it),
        # PyYAML, which each checking process would otherwise import on its own.
        family_checks()
        if paths is None:
            document.load_yaml()
        # The collector is back on only once the run's documents are freed: turned on
        # while they live (as at the end of ``find``), its first pass walks every one
        # of them (a fiftieth of a check on bench/'s trees), only to find them alive.
        with _no_cycle_collection():
            problems = _collect_tree(config, paths, source, deleted)
    if user:
        problems = sorted([*problems, *collect_user(config)])
    if write_baseline is not None:
        from memcheck import baseline

        kept, secrets_left = baseline.write(Path(write_baseline), problems)
        note = f"; {secrets_left} secret finding(s) left out: a secret is removed and rotated, never accepted" if secrets_left else ""
        print(f"memcheck: wrote {kept} finding(s) to {write_baseline}{note}", file=sys.stderr)
        return 0
    with destination(output_file) as out:
        report(problems, fmt, out, statistics=statistics)
    return 1 if failing(problems, config.fail_on) else 0
