"""AGT002: an agent file without frontmatter, where its kind requires keys there."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING, Iterable, Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.checks.agent_files.kind_text import EXAMPLE_OK, noun
from memcheck.problem import ERROR, Problem, Rule
from memcheck.text.document import Document

if TYPE_CHECKING:
    from memcheck.workspace.discover import Workspace

AGT002 = Rule(
    "AGT002",
    "missing-frontmatter",
    ERROR,
    False,
    "Agent file has no frontmatter",
    f"""\
## What it does
Reports a subagent or custom agent that does not start with YAML frontmatter,
where its kind requires keys there (a Claude Code subagent needs `name` and
`description`; a Copilot custom agent needs `description`).

Two kinds of Markdown file an agents folder holds that are not agents are not
reported: a `README.md`, which tells people what the folder holds, and the files of
a subfolder in which no file has frontmatter while the agents folder itself has
agents that do (templates or examples the agents read, such as
`.claude/agents/templates/report.md`): frontmatter would make either an agent.

## Why is this bad?
The agent reads a subagent's name and when to use it from the frontmatter: without
it the subagent is not loaded.

## Example
```markdown
# Code reviewer
You review code.
```

## Use instead
{EXAMPLE_OK}
""",
)


def check(kind: agentkinds.Kind, doc: Document, ws: Workspace | None = None) -> Iterator[Problem]:
    """The finding on a file with no frontmatter (``doc.has_frontmatter`` is false)."""
    required = [spec.name for spec in kind.keys.values() if spec.required and spec.confirmed]
    if required and not _not_an_agent(kind, doc.path, ws):
        yield AGT002.at(
            doc.path,
            1,
            1,
            f"no YAML frontmatter, so {kind.agent_title} does not load this {noun(kind)}; start the file with '---', {' and '.join(required)}, then '---'",
        )


def _not_an_agent(kind: agentkinds.Kind, path: str, ws: Workspace | None) -> bool:
    """Whether a file of the agents folder without frontmatter is what people or the
    agents read rather than an agent: a README, or a file of a subfolder that holds
    no agent while the folder above it holds some (its templates, its examples)."""
    folder, name = posixpath.split(path)
    if name.lower() == "readme.md":
        return True
    if ws is None:
        return False
    from memcheck.workspace.agentfiles import find_agent_files

    top = _agents_folder(kind, folder)
    if top is None or top == folder:
        return False
    same = [p for p, k in find_agent_files(ws).kinds.items() if k == kind.id and p != path]
    if not _has_agents(ws, (p for p in same if posixpath.dirname(p) == top)):
        return False  # no agent there to tell what an agent of this folder looks like
    sub = top + "/" + folder[len(top) + 1 :].split("/")[0] + "/"
    return not _has_agents(ws, (p for p in same if p.startswith(sub)))


def _agents_folder(kind: agentkinds.Kind, folder: str) -> str | None:
    """The folder the kind's files are in (``.claude/agents``), at or above ``folder``."""
    for glob in kind.globs:
        name = glob.removeprefix("**/").split("/*")[0]
        at = ("/" + folder + "/").rfind("/" + name + "/")
        if at >= 0 and "*" not in name:
            return folder[: at + len(name)]
    return None


def _has_agents(ws: Workspace, paths: Iterator[str]) -> bool:
    return any(ws.document(p).has_frontmatter for p in paths)


def judged_with(ws: Workspace, paths: Iterable[str]) -> set[str]:
    """The agent files without frontmatter whose AGT002 verdict an edit of ``paths``
    (a deleted one too) can change: those of the same agents folder, where whether
    the folder and their subfolder hold agents decides it."""
    from memcheck.workspace.agentfiles import find_agent_files

    kinds = find_agent_files(ws).kinds
    folders: set[tuple[str, str]] = set()
    for path in paths:
        kind_id = kinds.get(path)
        for kind in [agentkinds.by_id(kind_id)] if kind_id is not None else [k for k in agentkinds.kinds() if k.role == "agent"]:
            top = _agents_folder(kind, posixpath.dirname(path))
            if top is not None:
                folders.add((kind.id, top + "/"))
    return {
        p
        for p, k in kinds.items()
        if any(k == kind_id and p.startswith(folder) for kind_id, folder in folders) and not ws.document(p).has_frontmatter
    }
