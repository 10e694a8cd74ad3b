"""The `memcheck` command (and `python -m memcheck`)."""

from __future__ import annotations

import gc
import os
import sys
from typing import NoReturn

from memcheck import launch


def entry() -> NoReturn:
    """Run the command line, then exit at once.

    A hook's line (a command and flags alone) runs without click (launch.py); any
    other goes through click (cli.main). Tearing the interpreter down (every module,
    PyYAML and click included) costs a hook run a sixth of its time, and memcheck has
    nothing left to clean up by then: files are closed, child processes waited for.
    So the output is flushed and the process ends without it, as mypy does. (Tools
    that rely on atexit, such as coverage in a subprocess, see nothing of these runs;
    cli.main() is unaffected.)
    """
    _open_closed_streams()
    # A hook's run (check, fix, guard with their flags) is short, and the cycle
    # collector would only walk its imports and listing again and again and free
    # nothing: the checks themselves already run without it (collect.no_cycle_collection).
    # Off for the whole run it saves a fortieth of a commit's check (cachegrind: 553.0 M
    # instructions, 540.2 M without it). Any other command (the language server, which
    # runs for hours) has it back before it starts.
    gc.disable()
    code = launch.fast(sys.argv[1:])
    if code is None:
        gc.enable()
        from memcheck.cli import main

        code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader left before the last of the report: as launch.run says it
        code = launch.READER_LEFT
    except (OSError, ValueError):  # the stream was closed under us: nothing more to say
        pass
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)


def _open_closed_streams() -> None:
    """A standard stream the caller closed (`memcheck check >&-`, `2>&-`, `<&-`) is
    opened on the null device before anything else opens a file. Python leaves
    sys.stdout None for a closed descriptor, so every write would fail, and the next
    file memcheck opened (a cache entry) would take descriptor 1 and receive what a
    git process writes there. What the closed stream would have shown is lost, as the
    caller asked; the exit status is still the run's."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, "r" if fd == 0 else "w", encoding="utf-8", errors="backslashreplace", closefd=False))  # noqa: SIM115 (it lives as long as the process)


if __name__ == "__main__":
    entry()
