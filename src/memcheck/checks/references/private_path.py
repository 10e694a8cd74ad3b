"""REF002: an absolute path into a user's home folder in an agent file; the message
redacts the user name.

The family's pass (``checks.references``) calls ``check`` on a file that holds
``/home/`` or ``Users`` at all (one ``in`` test each: most files hold neither).
"""

from __future__ import annotations

from typing import Iterator

from memcheck.problem import WARNING, Problem, Rule, escaped
from memcheck.text.document import Document
from memcheck.text.home_paths import MAY_HOLD_HOME, private_homes

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
not reported, nor are the memories, the index and the files read with them
(`SOUL.md`) of a store that is the whole repository (its `MEMORY.md` at the root):
that is a copy of one person's own store (Claude Code keeps auto memory per user,
under `~/.claude/projects/`), read by that person's agent alone, and a path into
their home is where the file is. So is the
root `CLAUDE.md` of such a repository: it mirrors the person's `~/.claude`, and that
file is their own instructions to their own Claude Code. A store inside a project's
tree travels with the project to every clone and is checked.

Off by default: `select: [ALL, REF002]` turns it on with every other rule. On 51
public repositories nobody on the project had read, in three sets judged by someone
who had not read the code, the paths were there, but 5 of 48 judged findings were
wanted: most were in repositories one person runs on their own machine (an agent
system that runs only on its owner's server, a project whose CLAUDE.md names the
developer's host), where the path is where the file really is and the user name is
the public account's. Turn it on for a repository many people clone, or one that
ships rules and skills to others.

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
    opt_in=True,  # wanted on few repositories read by an outside judge (issue 40: off by default)
)


def check(doc: Document) -> Iterator[Problem]:
    for number, line in enumerate(doc.lines, 1):
        if not MAY_HOLD_HOME.search(line):
            continue  # the file holds one, not every line does
        for m in private_homes(line):
            name = m.group("name")
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
