"""MEM021: a memory's link that points at nothing: its Markdown links and its
description's, judged on the memory alone, and its [[wiki]] links, judged once every
name of the store is known."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.agents import links
from memcheck.paths import basename, join, parent
from memcheck.problem import STORE, WARNING, Rule
from memcheck.workspace.memo import SKILLS, kept_with

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.text.mentions import Token
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.stores import Store

MEM021 = Rule(
    "MEM021",
    "broken-link",
    WARNING,
    False,
    "Memory link or [[wiki]] link points at nothing",
    """\
## What it does
Reports, in a memory file's body or its `description` (which the store's
MEMORY.md shows beside the memory's entry), a relative Markdown link whose target
does not exist (resolved from the store's folder), and a `[[wiki]]` link (`[[name]]`,
`[[name|text]]`, `[[name#heading]]`, `[[folder/name]]`) that names nothing: not a
memory of the same store, by file stem (`[[deploy-notes]]` for `deploy-notes.md`) or
`name`, and not, as in a note vault (Obsidian's), a Markdown file of the repository
by its stem or the end of its path (`[[Deploy Runbook]]`, `[[adr/0001-queue]]`),
another file by its name (`![[diagram.png]]`), or a path from the memory's folder
(`[[../notes/x]]`), nor a skill of the repository by its name (`[[backend-design]]`
for `.claude/skills/backend-design/SKILL.md`: an agent runs it by that name). Names
are compared without case, as Obsidian finds them.
Links in code spans, fenced blocks and HTML comments are not read, and definitions
are read as CommonMark reads them: a `[text]: more` line inside a paragraph is text,
and so is one with more than a target and a title.

## Why is this bad?
Agents follow these links to related memories; a dead one, usually left by a
rename or a deleted memory, points them at nothing.

## Example
```markdown
See [[deploy_notes]] for the rollout steps.
```
in a store whose file is `deploy-notes.md`.

## Use instead
```markdown
See [[deploy-notes]] for the rollout steps.
```
""",
    scope=STORE,
)


def check(ws: Workspace, doc: Document) -> list[Problem]:
    """The memory's dead Markdown links, in its body and its description (a list, not
    a generator: asked of every memory, and most have none)."""
    path = doc.path
    # Claude Code keeps its memory outside the repository, so paths in memories are
    # written from the project root as often as from the store: either counts.
    found = [MEM021.at(path, line, col, message) for line, col, message in links.dead_links(ws, doc, from_root_too=True)]
    found += [MEM021.at(path, line, col, message) for line, col, message in links.description_dead_links(ws, doc, from_root_too=True)]
    return found


def wiki_tokens(ws: Workspace, doc: Document) -> list[Token]:
    """The memory's [[wiki]] links, for ``wiki_links``."""
    return links.wiki_links(ws, doc) if "[[" in doc.body else []


def wiki_links(ws: Workspace, store: Store, docs: list[tuple[str, list[Token]]], names: dict[str, str]) -> Iterator[Problem]:
    """A [[wiki]] link names a memory of the same store by file stem or ``name``, or,
    as in a note vault, a file of the repository (see ``links.names_a_note``)."""
    stems = {basename(p)[:-3].casefold(): p for p in store.files}
    # One look-up per broken link, not a walk over the store: n memories with a
    # broken link each took 0.81 / 1.59 / 4.28 s CPU at n = 1,000 / 2,000 / 4,000,
    # now 0.38 / 0.58 / 1.06 s. Built at the first broken link: a store whose links
    # all resolve (a commit hook's usual case) never needs it.
    nearest: dict[str, str] | None = None
    for path, tokens in docs:
        for token in tokens:
            target = token.text.strip()
            key = (target[:-3] if target.lower().endswith(".md") else target).casefold()
            if key in stems or key in names:
                continue
            if "/" in target and (
                ws.exists(join(store.folder, target))
                or ws.exists(join(store.folder, target + ".md"))
                or ws.exists(target)
                or ws.exists(target + ".md")
            ):
                continue
            if links.names_a_note(ws, target, parent(path)) or key in ws.once(skill_names):
                continue
            if nearest is None:
                nearest = links.nearest_stems(stems)
            near = nearest.get(links.loose(key))
            elsewhere = links.memory_elsewhere(ws, store.folder, key)
            hint = f"did you mean [[{near}]]? " if near else f"{elsewhere} has that name but is in another store; " if elsewhere else ""
            yield MEM021.at(
                path,
                token.line,
                token.col,
                f"[[{target}]] names no memory of this store and no file of the repository (no file stem or name is {target!r}); {hint}fix the link or remove it",
            )


@kept_with(SKILLS)  # from the skills alone: the language server keeps it while they stay
def skill_names(ws: Workspace) -> frozenset[str]:
    """The names the repository's skills are run by, without case: a skill folder's
    name (`.claude/skills/backend-design/SKILL.md`), a flat skill file's stem."""
    return frozenset((basename(parent(p)) if basename(p) == "SKILL.md" else basename(p).rpartition(".")[0]).casefold() for p in ws.skills)
