"""Files memcheck reads or writes by a name it is given (a config, a baseline, a
report, a SARIF file): never through a symlink that leads out of the repository,
and written whole or not at all.

A pull request can commit symlinks, and CI runs memcheck on its checkout: a
``.memcheck.yaml -> ~/.git-credentials`` must not be read, and ``-o reports/x.sarif``
must not write into ``~/.ssh`` because the pull request made ``reports`` a link
there. A path named on the command line outside the repository is the user's own
choice (``--config ~/shared.yaml``, ``-o /tmp/report.sarif``): the rule is about
names that are in the repository as written and lead out of it.

Imports nothing of memcheck's, and ``tempfile`` only when it writes: commands that
write nothing start as fast as before.
"""

from __future__ import annotations

import os
import stat
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Callable, Iterator, TextIO


class Refused(Exception):
    """A write memcheck will not make: its message names the path and why."""


def _under(real: str, top: str) -> bool:
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


def within(path: str | os.PathLike[str], top: str | os.PathLike[str]) -> str | None:
    """``path`` relative to the folder ``top``, when, as written, it names something
    in ``top``; None when it does not.

    As written: ``..`` is taken away by the text (``reports/../x`` is ``x``), and
    no symlink is followed, except that a folder on the way that *is* ``top``
    (``/tmp/repo`` where the repository is ``/private/tmp/repo``, or a link to it)
    counts as ``top``."""
    full = os.path.abspath(path)
    real_top = os.path.realpath(top)
    if _under(full, real_top):
        return os.path.relpath(full, real_top)
    folder = full
    while True:
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
        if os.path.realpath(folder) == real_top:
            return os.path.relpath(full, folder)


def link_out(path: str | os.PathLike[str], top: str | os.PathLike[str]) -> str | None:
    """Where ``path``, a name in ``top`` as written, leads out of it through a
    symlink: the first such link on the way, relative to ``top`` (``reports`` for
    ``reports/x.json``, or ``x.json`` itself); None when it stays inside, or does
    not name something in ``top`` at all. Nothing of where the link points is
    returned: a message may name the link, never its target."""
    rel = within(path, top)
    real_top = os.path.realpath(top)
    if rel is None or _under(os.path.realpath(path), real_top):
        return None
    parts = rel.split(os.sep)
    for i in range(1, len(parts) + 1):
        if not _under(os.path.realpath(os.path.join(real_top, *parts[:i])), real_top):
            return "/".join(parts[:i])
    return "/".join(parts)  # `link/../x`: the text stays inside, the link does not


class NotRegular(Exception):
    """``read_regular`` was named something other than a regular file (a FIFO, a
    device, a folder): not read."""


def read_regular(path: str | os.PathLike[str], limit: int = -1) -> bytes:
    """The bytes of the regular file at ``path`` (at most ``limit``), or NotRegular.
    Opened without blocking and read only once it is known to be a regular file: a
    FIFO's open waits for a writer, and ``/dev/zero`` never ends. OSError as ``open``."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegular(os.fspath(path))
        with os.fdopen(os.dup(fd), "rb") as f:
            return f.read(limit)
    finally:
        os.close(fd)


def _special(mode: int) -> bool:
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


@contextmanager
def replacing(
    path: str, top: str | os.PathLike[str] | None, held: Callable[[], AbstractContextManager[object]] = nullcontext
) -> Iterator[TextIO]:
    """A text file (UTF-8, ``\\n`` line ends; a character that cannot be encoded, such
    as a file name that is not UTF-8, backslash-escaped) whose content replaces
    ``path`` whole when the block ends without an error: it is written to a
    temporary file in the real folder of ``path``, flushed to disk, given the mode
    of the file it replaces (or of any new file), then renamed onto ``path``. On an
    error the temporary file is removed, and ``path`` is as it was.

    ``top`` is the repository (or the working folder outside one). Raises
    ``Refused`` when ``path`` is a symlink: it is never written through, nor
    replaced by a file (the link is the repository's, and a report is not worth
    losing it); and when ``path``, a name in ``top``, lies in a folder that leads
    out of it. A device or pipe named outside ``top`` (``/dev/null``,
    ``-o >(tee log)``) is written to as it is: there is nothing to replace.
    OSError: the file cannot be written (its message says why).

    The temporary file is named ``.NAME.memcheck-PID-XXXXXXXX.tmp``: the process id
    tells a later run whether the writer is gone (``fix`` removes an index's
    leftovers by it). ``held``: what it is created under, so that it is created and
    known to the cleanup as one step (``fix`` holds SIGTERM and SIGINT there). The
    handle's ``buffer`` takes bytes written as they are."""
    inside = top is not None and within(path, top) is not None
    try:
        mode: int | None = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError:
        mode = None  # a folder on the way is a file, or cannot be read: the write below says so
    if mode is not None and (stat.S_ISLNK(mode) or _special(mode)):
        try:
            target_mode: int | None = os.stat(path).st_mode
        except OSError:
            target_mode = None
        if inside or target_mode is None or not _special(target_mode):
            raise Refused(
                f"{path} is a symlink; not writing through it" if stat.S_ISLNK(mode) else f"{path} is not a regular file; not writing it"
            )
        with open(path, "w", encoding="utf-8", errors="backslashreplace", newline="\n") as handle:
            yield handle
        return
    folder = os.path.dirname(path) or os.curdir
    real_folder = os.path.realpath(folder)
    if inside:
        assert top is not None
        link = link_out(folder, top)
        if link is not None:
            raise Refused(f"{path}: {link} is a symlink out of the repository; not writing through it")
    os.makedirs(real_folder, exist_ok=True)
    target = os.path.join(real_folder, os.path.basename(path))
    with _replacing(target, held) as handle:
        yield handle


@contextmanager
def _replacing(target: str, held: Callable[[], AbstractContextManager[object]]) -> Iterator[TextIO]:
    import tempfile

    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    folder, name = os.path.split(target)
    with held():
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{name}.memcheck-{os.getpid()}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace", newline="\n") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        raise
