"""GDN022: a CLAUDE.local.md that makes Claude Code leave the team's AGENTS.md aside.

Worked out from the reading model and the local files' @-imports alone, so the
language server keeps it while the model stays (``@kept_with(MODEL)``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import agents
from memcheck.agents import readers
from memcheck.agents.expansion import import_targets
from memcheck.paths import basename, down_from_root, parent
from memcheck.problem import TREE, WARNING, Rule
from memcheck.workspace.memo import MODEL, kept_with

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

GDN022 = Rule(
    "GDN022",
    "local-file-hides-agents-md",
    WARNING,
    False,
    "CLAUDE.local.md makes Claude Code leave AGENTS.md aside",
    """\
## What it does
Reports a `CLAUDE.local.md` at or above a folder whose instructions are in
`AGENTS.md` alone (no `CLAUDE.md` or `.claude/CLAUDE.md` at or above it), when it
does not import that `AGENTS.md`.

## Why is this bad?
Claude Code 2.1.277 and later reads `AGENTS.md` only where no `CLAUDE.md`,
`.claude/CLAUDE.md` or `CLAUDE.local.md` sits at or above the folder (its default
*Project instructions* setting). A personal, uncommitted `CLAUDE.local.md` therefore
makes that user's Claude Code leave the team's `AGENTS.md` aside, with no sign.

## Example
`AGENTS.md` with the team's rules, and a `CLAUDE.local.md` beside it holding one
personal preference. In `AGENTS.md`:
```markdown
# Team

Run `make test` before every commit.
```
and in `CLAUDE.local.md`:
```markdown
Answer in British English.
```

## Use instead
Start `CLAUDE.local.md` with `@AGENTS.md`, so Claude Code reads both.
```markdown
@AGENTS.md
Answer in British English.
```
""",
    scope=TREE,
)


@kept_with(MODEL)  # the reading and the local files' @-imports alone
def check_once(ws: Workspace) -> list[Problem]:
    """GDN022 over the tree: a ``ws.once`` key, kept with the model."""
    return list(_local_hides_agents_md(ws, readers.reading(ws)))


def _local_hides_agents_md(ws: Workspace, model: readers.Reading) -> Iterator[Problem]:
    by_folder: dict[str, dict[str, str]] = {}
    for path, kind in model.kind.items():
        by_folder.setdefault(model.owner[path], {})[kind] = path

    def own(folder: str) -> tuple[bool, tuple[str, ...]]:
        kinds = by_folder.get(folder, {})
        local = kinds.get(agents.K_CLAUDE_LOCAL)
        return agents.K_CLAUDE in kinds or agents.K_CLAUDE_DOT in kinds, (local,) if local is not None else ()

    # Per folder: a team CLAUDE.md at or above it, and the CLAUDE.local.md files there.
    above = down_from_root(model.owner.values(), own, lambda up, here: (up[0] or here[0], up[1] + here[1]))
    hidden: dict[str, list[str]] = {}  # CLAUDE.local.md -> the AGENTS.md it hides
    for path, kind in sorted(model.kind.items()):
        if kind != agents.K_AGENTS:
            continue
        team_claude_md, locals_above = above[model.owner[path]]
        if team_claude_md:
            continue  # the team's CLAUDE.md already decides what Claude Code reads there
        real = model.real.get(path, path)
        for local in locals_above:
            if real not in import_targets(ws, model.real.get(local, local)):
                hidden.setdefault(local, []).append(path)
    for local, agents_files in hidden.items():
        hidden_files = ", ".join(agents_files[:3]) + (f" and {len(agents_files) - 3} more" if len(agents_files) > 3 else "")
        first = agents_files[0]
        yield GDN022.at(
            local, 1, 1,
            f"{basename(local)} hides {hidden_files} from your Claude Code: Claude Code 2.1.277+ reads AGENTS.md only where no CLAUDE.md, .claude/CLAUDE.md "
            f"or CLAUDE.local.md sits at or above the folder; start {basename(local)} with @{_relative(parent(local), first)} to read both",
        )  # fmt: skip


def _relative(folder: str, path: str) -> str:
    if not folder:
        return path
    ups = folder.count("/") + 1
    return "../" * ups + path if not path.startswith(folder + "/") else path[len(folder) + 1 :]
