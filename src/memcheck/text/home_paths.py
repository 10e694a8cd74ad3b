"""Absolute paths into a user's home folder (`/Users/<name>/`, `/home/<name>/`,
`C:\\Users\\<name>\\`): found for REF002, and rewritten from the home folder (`~/…`)
where `fix` copies a memory's text into its index."""

from __future__ import annotations

import re
from typing import Iterator

from memcheck import lazy_regex

# Cheap first: most files hold none of these (`in` tests the file, this its lines).
MAY_HOLD_HOME = lazy_regex.compile(r"/Users/|/home/|\\Users\\", re.IGNORECASE)
# (Not after a variable or a command's output: `${projectRoot}/home/dot_claude/` and
# `$(pwd)/home/x` are folders inside a project, a dotfiles repository's `home/`.)
_HOME = lazy_regex.compile(
    r"(?P<head>(?<![\w.~})-])/(?:Users|home)/|\b[A-Za-z]:\\{1,2}Users\\{1,2})"
    r"(?P<name>[^\s/\\\"'`<>()\[\]{}|,;:*?]+)(?=[/\\]|$|[\s\"'`)\],;:.])",
    re.IGNORECASE,
)
# User names that are no one's: placeholders, and the accounts of CI runners,
# containers and operating systems (GitHub's runner, Docker images, dev containers,
# Jupyter, Homebrew on Linux, macOS's and Windows' shared folders).
_NO_ONES = frozenset(
    """nonroot user username user_name user-name yourname your_name your-name yourusername you me name
    myname myuser someone somebody anyone runner ubuntu ec2-user node vscode codespace codespaces
    coder jovyan linuxbrew app dev developer admin administrator root guest shared public default
    all default user john jane jdoe johndoe janedoe alice bob foo bar example test testuser demo
    x xx xxx""".split()
)


def private_homes(line: str) -> Iterator[re.Match[str]]:
    """The paths into a person's home folder on the line (``head`` and ``name``
    groups): placeholders and accounts that are no one's left out, an ellipsis
    (`/Users/…`, a rule against such paths) among them."""
    for m in _HOME.finditer(line):
        name = m.group("name")
        if name.casefold() in _NO_ONES or name.startswith(("$", "%", "<", "{", ".", "…")) or not name.isprintable():
            continue
        yield m


def from_home(text: str) -> str:
    """``text`` with each path into a person's home folder written from the home
    folder: `/Users/jsmith/work/x` is `~/work/x`, as REF002 advises."""
    if not MAY_HOLD_HOME.search(text):
        return text
    found = list(private_homes(text))
    for m in reversed(found):
        text = text[: m.start()] + "~" + text[m.end() :]
    return text
