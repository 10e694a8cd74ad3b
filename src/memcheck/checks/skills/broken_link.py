"""SKL012: a relative link in a skill file that points at a missing file.

Checked in any readable skill file, frontmatter or none: a skill's body points the
agent at its resources whatever its header says; and in every other Markdown file a
skill folder ships (`references/*.md`, an `AGENTS.md` beside the SKILL.md), which the
agent reads when the skill sends it there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.agents import links
from memcheck.paths import ancestors, join, parent
from memcheck.problem import WARNING, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.workspace.discover import Workspace

SKL012 = Rule(
    "SKL012",
    "broken-link",
    WARNING,
    False,
    "Relative link in a skill points at a missing file",
    """\
## What it does
Reports `[text](path)` links, images and reference definitions in a skill file,
and in every other Markdown file of a skill's folder (`references/*.md`, an
`AGENTS.md` the skill ships), whose relative target does not exist, resolved from
the file's folder (outside code spans, fenced blocks and HTML comments). Samples of
what the skill writes (a file or folder whose name holds the word `example`, `template`
or `sample`: `example-class.md`, `digest-template.md`)
are left out: their links belong to the page they show; so is a skill's changelog
(`CHANGELOG.md`, `CHANGES.md`, `HISTORY.md`), a record of what changed and where
its author found it, not a page the skill sends the agent to. A link written
`{baseDir}/references/x.md` is resolved from the skill's folder: `{baseDir}` is the
skill-folder placeholder of OpenClaw's skills reference ("Use {baseDir} to reference
the skill folder path"). Definitions are read as CommonMark
reads them: a `[text]: more` line inside a paragraph is text, and so is one with
more than a target and a title.

## Why is this bad?
A skill's body points the agent at its resources (`references/api.md`,
`scripts/run.sh`); a dead link sends it looking for a file that is gone.

## Example
```markdown
See [the API notes](references/api.md).
```
with no `references/api.md` beside the `SKILL.md`.

## Use instead
Point the link at the file's current path, or remove it. The link to
`references/api-v2.md`, which is beside the `SKILL.md`:
```markdown
See [the API notes](references/api-v2.md).
```
""",
)


def check(ws: Workspace, doc: Document, skill_folder: str | None = None) -> Iterator[Problem]:
    """``doc``'s dead links; ``skill_folder`` (the skill file's own folder when not
    given) is what a ``{baseDir}/`` link starts from."""
    folder = parent(doc.path) if skill_folder is None else skill_folder
    for line, col, message in links.dead_links(ws, doc, skill_folder=folder):
        yield SKL012.at(doc.path, line, col, message)


def check_shipped(ws: Workspace, skill: str) -> Iterator[Problem]:
    """The dead links of the other Markdown files the skill's folder ships, for a
    SKILL.md skill (a flat skill's folder is the skills root, which ships nothing)."""
    folder = parent(skill)
    for path in ws.once(_shipped).get(folder, ()):
        doc = ws.document(path)
        if doc.error is None:
            yield from check(ws, doc, folder)


def sample_page(inside: str) -> bool:
    """A sample of what the skill writes (`references/example-class.md`,
    `templates/report.md`, `assets/digest-template.md`): its links are the page it
    shows, relative to where such a page would go, not pointers of the skill's. On one
    repository's API-docs skill, all 22 dead links of its shipped Markdown were in its
    `example-*.md` pages; on another, a digest template's `[<tag>](url)`."""
    return any(not _SAMPLES.isdisjoint(part.split(".")[0].lower().replace("_", "-").split("-")) for part in inside.split("/"))


_SAMPLES = frozenset(("example", "examples", "template", "templates", "sample", "samples"))


def changelog(name: str) -> bool:
    """A changelog a skill ships: its links record where a change was found (on one
    skill collection, 8 links to the files of another project's checkout), not what
    the agent running the skill reads."""
    return name.rsplit(".", 1)[0].upper() in _CHANGELOGS


_CHANGELOGS = frozenset(("CHANGELOG", "CHANGES", "HISTORY"))


def _shipped(ws: Workspace) -> dict[str, tuple[str, ...]]:
    """Skill folder -> the Markdown files in it, at any depth, that are not skills (a
    nested SKILL.md is one of its resources too), samples (see ``sample_page``),
    changelogs (``changelog``) nor symlinks out of the root."""
    folders = ws.skill_folders
    skipped = {*ws.skills, *ws.skill_links_out}
    found: dict[str, list[str]] = {}
    for folder, names in ws.markdown_by_folder.items():
        owner = next((f for f in reversed(list(ancestors(folder))) if f in folders), None)
        if owner is None:
            continue
        for name in names:
            path = join(folder, name)
            if path in skipped or changelog(name) or sample_page(path[len(owner) + 1 :]):
                continue
            if ws.link_out(path) is None:
                found.setdefault(owner, []).append(path)
    return {folder: tuple(sorted(paths)) for folder, paths in found.items()}
