"""REF002: an absolute path into a user's home folder in an agent file; the message
redacts the user name.

The family's pass (``checks.references``) calls ``check`` on a file that holds
``/home/`` or ``Users`` at all (one ``in`` test each: most files hold neither).
"""

from __future__ import annotations

import re
from typing import Iterator

from memcheck import lazy_regex
from memcheck.problem import WARNING, Problem, Rule, escaped
from memcheck.text.document import Document

REF002 = Rule(
    "REF002",
    "private-path",
    WARNING,
    False,
    "An absolute path into a user's home folder",
    """\
## What it does
Reports an absolute path into a user's home folder (`C:\\Users\\<name>\\`,
`/Users/<name>/`, `/home/<name>/`) in an agent file. The message shows the user
name redacted (`/Users/j***/…`). Placeholders and accounts that are no one's
(`/home/user`, `/Users/<name>`, `$USER`, `/home/runner`, `/Users/Shared`, …) are
not reported.

## Why is this bad?
The path names a person's account on one machine: committed, it tells every reader
the user name, and it points nowhere on any other clone, so the agent that follows
it finds nothing.

## Example
```markdown
Logs are in `/Users/jsmith/work/shop/logs/`.
```

## Use instead
```markdown
Logs are in `logs/` (from the repository root).
```
and for a file outside the repository, a path from the home folder:
`~/.claude/projects/`, `~/Library/Android/sdk/`.
""",
)


# Cheap first: most files hold none of these (`in` tests the file, this its lines).
_MAY_HOLD_HOME = lazy_regex.compile(r"/Users/|/home/|\\Users\\", re.IGNORECASE)
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


def check(doc: Document) -> Iterator[Problem]:
    for number, line in enumerate(doc.lines, 1):
        if not _MAY_HOLD_HOME.search(line):
            continue  # the file holds one, not every line does
        for m in _HOME.finditer(line):
            name = m.group("name")
            if name.casefold() in _NO_ONES or name.startswith(("$", "%", "<", "{", ".")) or not name.isprintable():
                continue
            head = m.group("head")
            sep = "\\" if "\\" in head else "/"
            redacted = f"{head.rstrip(sep)}{sep}{name[0]}***{sep}…"
            yield REF002.at(
                doc.path, number, m.start() + 1,
                f"absolute path into a user's home folder ({escaped(redacted)}, user name redacted): it tells readers the user name "
                "and points nowhere on other clones; write the path relative to the repository root, or from the home folder (~/…) "
                "if it is outside the repository",
            )  # fmt: skip
            break  # one per line: the same home is usually repeated along it
