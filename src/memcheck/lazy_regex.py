"""Regular expressions compiled when first used, not when their module is imported.

memcheck's modules name their patterns at module level, as is usual, and a commit
hook imports the modules of every kind of file it might meet. Most of those patterns
serve a file the commit did not touch or a line that a cheaper test already passed
over: of the 82 that ``check --changed`` compiled at import on a commit of one memory,
53 were never used, and compiling them cost 7 ms of the hook's 140 ms of CPU
(Python 3.11). The standard library compiles at once (``re.compile``) or on every
call's cache lookup (``re.search(pattern, ...)``); neither defers the work without a
cost on each use. A pattern from ``compile`` here compiles on its first use and then
keeps the compiled pattern's methods in its own attributes, so every later use is a
plain attribute lookup, as cheap as the compiled pattern's own.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import AnyStr

    def compile(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:  # noqa: A001 (named as re's)
        ...

else:

    class _OnFirstUse:
        """Stands for ``re.compile(pattern, flags)`` until an attribute other than
        ``pattern`` or ``flags`` is asked for."""

        def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
            self.pattern = pattern
            self.flags = flags

        def __getattr__(self, name: str) -> object:  # only for names not yet kept
            compiled = re.compile(self.pattern, self.flags)
            vars(self).update((n, getattr(compiled, n)) for n in dir(compiled) if not n.startswith("__"))
            return getattr(compiled, name)

        def __repr__(self) -> str:
            return f"lazy_regex.compile({self.pattern!r}, {self.flags!r})"

    compile = _OnFirstUse  # noqa: A001 (named as re's)
