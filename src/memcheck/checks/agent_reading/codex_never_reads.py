"""GDN020: a file Codex never reads where it is (a fallback name beside AGENTS.md,
a project's .codex/AGENTS.md)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Iterator

from memcheck import agents
from memcheck.paths import basename, join, parent
from memcheck.problem import TREE, WARNING, Rule

if TYPE_CHECKING:
    from memcheck.agents import readers
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

GDN020 = Rule(
    "GDN020",
    "codex-never-reads",
    WARNING,
    False,
    "Codex never reads this file where it is",
    """\
## What it does
Reports two files Codex never reads although they look meant for it: a fallback name
from `.codex/config.toml`'s `project_doc_fallback_filenames` (such as `CODEX.md`) in
a folder that also holds `AGENTS.md` or `AGENTS.override.md` (reported on that
file), and a project's `.codex/AGENTS.md`. A fallback that another agent the
settings name reads there (`CLAUDE.md`, Claude Code's) is not reported.

## Why is this bad?
Codex reads one file per folder: `AGENTS.override.md`, else `AGENTS.md`, and only
in a folder with neither, the first fallback name. Its global file is
`$CODEX_HOME/AGENTS.md` (`~/.codex` by default), never a project's `.codex/AGENTS.md`.
What such a file says never reaches Codex.

## Example
`AGENTS.md` and `CODEX.md` side by side, with `project_doc_fallback_filenames =
["CODEX.md"]` in `.codex/config.toml`. In `AGENTS.md`:
```markdown
# Team

Run `make test` before every commit.
```
in `CODEX.md`:
```markdown
# Codex

Work in the `src/` folder only.
```
and in `.codex/config.toml`:
```toml
project_doc_fallback_filenames = ["CODEX.md"]
```

## Use instead
Move what the file says into `AGENTS.md`, and delete it. `AGENTS.md`:
```markdown
# Team

Run `make test` before every commit.

# Codex

Work in the `src/` folder only.
```
""",
    scope=TREE,
)


def _fallback_names(ws: Workspace) -> tuple[str, ...]:
    """The project_doc_fallback_filenames of the repository's .codex/config.toml."""
    keys = [s.key for s in agents.agent(agents.CODEX).settings if s.fallbacks]
    for setting in agents.agent(agents.CODEX).settings:
        if not setting.fallbacks or setting.file not in ws.file_set:
            continue
        # Imported only for a repository that has the file: tomllib compiles its
        # regular expressions as it is imported (0.8 MiB of a run's memory).
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover - Python 3.10
            import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

        doc = ws.document(setting.file)
        try:
            data = tomllib.loads(doc.text) if doc.error is None else {}
        # An unreadable config is Codex's own error, not a reading to judge; tomllib
        # recurses once per nesting level, so `x = [[[...` thousands deep is one too.
        except (tomllib.TOMLDecodeError, RecursionError):
            return ()
        value: object = next((data[k] for k in keys if k in data), [])
        return tuple(v for v in value if isinstance(v, str) and v) if isinstance(value, list) else ()
    return ()


def check(ws: Workspace, model: readers.Reading) -> Iterator[Problem]:
    fallbacks = _fallback_names(ws)
    for path, kind in sorted(model.kind.items()):
        if kind not in (agents.K_AGENTS, agents.K_OVERRIDE):
            continue
        folder = parent(path)
        if basename(folder) == ".codex" and kind == agents.K_AGENTS:
            yield GDN020.at(
                path, 1, 1,
                f"Codex never reads a project's {path}: its own AGENTS.md is $CODEX_HOME/AGENTS.md (~/.codex by default), and in a project it reads "
                "AGENTS.md from each folder of the way down; move what it says into the AGENTS.md of the folder it is about, and delete it",
            )  # fmt: skip
            continue
        for name in fallbacks:
            fallback = join(folder, name)
            # A file another agent the settings name reads here (`CLAUDE.md` beside
            # `AGENTS.md`, a fallback for the folders without one): Codex reads AGENTS.md
            # here, and that agent its own file; nothing is lost (an unseen repository
            # was told to delete its only file for Claude Code). Amp's `AGENT.md` beside
            # `AGENTS.md` is read by nobody, and told.
            if fallback in model.kind and any(model.state(a, fallback) == agents.READS for a in model.configured if a != agents.CODEX):
                continue
            if fallback in ws.file_set and fallback != path and name not in ("AGENTS.md", "AGENTS.override.md"):
                yield GDN020.at(
                    path, 1, 1,
                    f"Codex never reads {fallback}: .codex/config.toml names {name} in project_doc_fallback_filenames, but Codex reads a fallback only "
                    f"in a folder without AGENTS.md or AGENTS.override.md, and {basename(path)} is here; move what {name} says into {basename(path)}, and delete {name}",
                )  # fmt: skip
