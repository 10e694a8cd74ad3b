"""SKL027: a skill reference reached only through another reference (advice, opt-in)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.agents import links
from memcheck.checks.skills.broken_link import sample_page
from memcheck.paths import parent
from memcheck.problem import WARNING, Rule
from memcheck.text import mentions

if TYPE_CHECKING:
    from memcheck.checks.skills.facts import Advice, SkillFile
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

SKL027 = Rule(
    "SKL027",
    "nested-reference",
    WARNING,
    False,
    "Skill file reached only through another reference",
    """\
## What it does
Off by default: `select: [ALL, SKL027]` turns it on with every other rule
(docs/guidance-and-skills.md, *Advice for skill authors*). Reports a link in a
`SKILL.md` to a Markdown file of its own folder (`references/api.md`) that links, in
turn, to another file of the skill's folder that `SKILL.md` does not link itself:
a reference two levels deep. Anthropic's guidance for skill authors: keep references
one level deep from `SKILL.md`.

## Why is this bad?
The guidance says Claude may read only part of a file it reaches through another
reference (a preview of its first lines), so a file two links away may be read
incompletely or not at all. Linking each file the skill needs from `SKILL.md` puts
it one step away. Advice, not a fault an agent trips on.

## Example
```markdown
See [the API notes](references/api.md).
```
where `references/api.md` says `Details in [errors](errors.md).` and `SKILL.md` never
links `references/errors.md`.

## Use instead
```markdown
See [the API notes](references/api.md) and [the error codes](references/errors.md).
```
""",
    opt_in=True,  # advice from a style guide (issue 41: off by default)
)


def check(ws: Workspace, skill: SkillFile, advice: Advice) -> Iterator[Problem]:
    folder = parent(skill.path) if skill.folder else ""
    if not folder:
        return  # a flat skill's folder is the skills root: it ships no references
    inside = folder + "/"
    tokens = links.link_tokens(ws, skill.doc)
    direct = {mentions.link_path(t.text, folder) for t in tokens}
    seen: set[str] = set()
    for token in tokens:
        first = mentions.link_path(token.text, folder)
        if first is None or first in seen or not first.startswith(inside) or not first.lower().endswith(".md"):
            continue
        seen.add(first)
        if sample_page(first[len(inside) :]) or not ws.is_file(first):
            continue
        doc = ws.document(first)
        if doc.error is not None:
            continue
        deeper = _deeper(ws, doc, first, inside, direct | {skill.path, first})
        if deeper:
            (line, target), more = deeper[0], len(deeper) - 1
            others = f" (and {more} more)" if more else ""
            yield SKL027.at(
                skill.path,
                token.line,
                token.col,
                f"{first} links {target} (its line {line}){others}, which SKILL.md does not link: a reference two levels "
                f"deep, which Claude may read only in part; Anthropic's guidance for skill authors keeps references one level "
                f"deep from SKILL.md ({advice.source}); link {target} from SKILL.md",
            )


def _deeper(ws: Workspace, doc: Document, path: str, inside: str, known: set[str | None]) -> list[tuple[int, str]]:
    """(line, file) of each file of the skill's folder that ``doc`` links and ``known``
    does not hold, in order, each once."""
    found: list[tuple[int, str]] = []
    named: set[str] = set()
    for token in links.link_tokens(ws, doc):
        target = mentions.link_path(token.text, parent(path))
        if target is None or target in named or not target.startswith(inside) or _linked(target, known) or not ws.is_file(target):
            continue
        named.add(target)
        found.append((token.line, target))
    return found


def _linked(target: str, known: set[str | None]) -> bool:
    """``target`` is linked already: itself, or a folder holding it (SKILL.md's
    `[assets/](assets/)` puts every file in it one step away)."""
    return target in known or any(folder is not None and target.startswith(folder + "/") for folder in known)
