"""The `memcheck` command (and `python -m memcheck`)."""
from __future__ import annotations

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
    code = launch.fast(sys.argv[1:])
    if code is None:
        from memcheck.cli import main

        code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # the reader left (`memcheck check | head`), or closed the stream: nothing more to say
        pass
    os._exit(code)


if __name__ == "__main__":
    entry()
