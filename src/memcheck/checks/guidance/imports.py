"""GDN009, GDN010, GDN011: an @-import that names no file, that leads out of the repository, or that leads back to its file."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.agents import expansion, guidance_model
from memcheck.agents.expansion import imports
from memcheck.problem import ERROR, IMPORTS, WARNING, Rule
from memcheck.text import mentions
from memcheck.workspace.links_out import secret_location

if TYPE_CHECKING:
    from memcheck.agents.expansion import Reach
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

GDN009 = Rule(
    "GDN009",
    "missing-import",
    ERROR,
    False,
    "@-import names a file that does not exist",
    """\
## What it does
Reports an `@path` import (a token with a file extension, or starting with
`./`, `../` or `/`) whose file does not exist, or is a FIFO or other special file
no agent can read, resolved from the importing file's folder, in files read by an
agent that follows `@` imports (Claude Code, Gemini CLI, Amp) and in every file
their imports bring in (reported once, on the file that holds the import, however
many files import it). Mentions in code spans, fenced blocks and HTML comments,
e-mail addresses, package scopes (`@types/node`) and bare words (`@id`) are not
imports.
A glob mention (`@docs/*.md`, which Amp expands) is reported when no file of the
checkout matches it, ignored and untracked ones included.

## Why is this bad?
Agents expand imports into the prompt; a missing one is silently left as text, and
the rules it held never reach the agent.

## Example
```markdown
See @docs/missing-guide.md for the release process.
```

## Use instead
Fix the path, or put the text in backticks if it is not meant as an import. The path
of the guide that is there, `docs/release.md`:
```markdown
See @docs/release.md for the release process.
```
""",
    scope=IMPORTS,
)

GDN010 = Rule(
    "GDN010",
    "import-escapes-repository",
    WARNING,
    False,
    "@-import points outside the repository",
    """\
## What it does
Reports an `@` import of an absolute path or one that climbs above the repository
root with `..`. `@~/…` imports are the user's own files and are not reported.

## Why is this bad?
No other clone has the file: the agent gets the import on the author's machine only.

## Example
```markdown
@../../shared/rules.md
```

## Use instead
Copy the rules into the repository, or import them from `@~/…` deliberately. The
rules copied to `docs/shared-rules.md`:
```markdown
@docs/shared-rules.md
```
""",
    scope=IMPORTS,
)

GDN011 = Rule(
    "GDN011",
    "import-cycle",
    ERROR,
    False,
    "@-imports form a cycle",
    """\
## What it does
Reports a guidance file whose imports lead back to itself (`AGENTS.md` imports
`docs/rules.md`, which imports `AGENTS.md`).

## Why is this bad?
Agents stop at the repeat (or at the depth limit), so part of the chain is loaded
twice or not at all, depending on the tool.

## Example
`CLAUDE.md` with `@AGENTS.md` and `AGENTS.md` with `@CLAUDE.md`. In `CLAUDE.md`:
```markdown
@AGENTS.md
```
and in `AGENTS.md`:
```markdown
# Rules

@CLAUDE.md
```

## Use instead
Import in one direction only. `AGENTS.md`, which `CLAUDE.md` still imports:
```markdown
# Rules

Run `make test` before every commit.
```
""",
    scope=IMPORTS,
)


def _guidance_set(ws: Workspace) -> frozenset[str]:
    return frozenset(ws.guidance)


def check(ws: Workspace, doc: Document, reached: Reach) -> Iterator[Problem]:
    path = doc.path
    for imp in imports(ws, doc):
        if imp.kind in (mentions.ABSOLUTE, mentions.OUTSIDE):
            if secret_location(ws, path, imp.token) is not None:
                continue  # GDN023's, an error
            yield GDN010.at(
                path,
                imp.line,
                imp.col,
                f"@{imp.token} points outside the repository, so other clones do not have it; move the file into the repository or import it from @~/ deliberately",
            )
        elif expansion.is_glob_mention(imp):
            if not ws.user and not guidance_model.glob_matches(ws, imp.target):
                yield GDN009.at(
                    path,
                    imp.line,
                    imp.col,
                    f"@{imp.token}: no file here matches it; fix the pattern, or put it in backticks if it is not an import",
                )
        elif imp.kind == mentions.PATH and not ws.exists(imp.target):
            if ws.is_inside_root(imp.target):  # through a symlink out of the repository: not followed, so not known
                yield _missing_import(path, imp)
        elif imp.kind == mentions.PATH and (special := ws.special_kind(imp.target)) is not None:
            yield GDN009.at(
                path,
                imp.line,
                imp.col,
                f"@{imp.token} imports {imp.target}, which is {special}, not a file agents can read; import a regular file",
            )
    # A file reached by imports is loaded with this one: its missing imports are
    # reported on it, once however many files import it (the same finding).
    for where, imp in reached.missing:
        if where != path:
            yield _missing_import(where, imp)
    guidance = ws.once(_guidance_set)  # not a set per file: that is quadratic
    reported: set[frozenset[str]] = set()
    for hop, cycle in reached.cycles:
        members = frozenset(cycle)
        # A cycle through other guidance files is reported on them; this file only
        # reports cycles it is part of, or ones no guidance file owns.
        if members in reported or (path not in members and members & guidance):
            continue
        reported.add(members)
        yield GDN011.at(path, hop.line, hop.col, f"import cycle {' -> '.join(cycle)}; import in one direction only")


def _missing_import(path: str, imp: expansion.Import) -> Problem:
    return GDN009.at(
        path,
        imp.line,
        imp.col,
        f"@{imp.token} imports {imp.target}, which does not exist; fix the path, or put it in backticks if it is not an import",
    )
