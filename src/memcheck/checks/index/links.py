"""IDX002, IDX004, IDX005: what the index's links point at (a file that does not
exist, a memory an earlier entry lists, a place outside the store). One cluster: the
three are told in one walk over the index's resolved links, each link judged once
(a dead link is neither a duplicate nor a way out)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

from memcheck.paths import basename, join
from memcheck.problem import ERROR, STORE, WARNING, Rule

if TYPE_CHECKING:
    from memcheck.checks.index.state import IndexState
    from memcheck.index.links import Link
    from memcheck.index.plan import Plan
    from memcheck.index.survey import Dead, Survey
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.stores import Store

IDX002 = Rule(
    "IDX002",
    "dead-entry",
    ERROR,
    True,
    "Index entry points at a file that does not exist",
    """\
## What it does
Reports a link in MEMORY.md whose target file is not in the repository.

## Why is this bad?
The agent is told a memory exists, tries to read it, and fails; the entry also
spends index lines that count against the cap.

## Example
```markdown
- [Old plan](project_old_plan.md) - deleted last week
```

## Use instead
Point the entry at the file's new name if it was renamed, restore the file, or
remove the line. The entry pointed at `project_plan.md`, the file's new name:
```markdown
- [Old plan](project_plan.md) - deleted last week
```
`memcheck fix` re-points an entry whose file was renamed (an
unlisted memory with the entry's name, or the same file name but for case, Unicode
form, `-`, `_` and spaces; a `#fragment` is kept) and removes a list item, with its
wrapped lines and nested items, whose only link points at a missing memory file of
the store. A reference link (`[x][1]`) is reported at its definition (`[1]: x.md`);
a `[1]: x.md` line right under a list item or a paragraph line continues it, as
CommonMark reads it, and defines nothing.
A link to a path git ignores is not reported, and `fix` leaves its entry: the file
is kept out of the repository on purpose (a memory that holds credentials, a folder
synced from elsewhere), it is there on the machines that have it, and no clone can
hold it (GDN013 and REF001 leave such paths alone too).
Left for you, with the reason: a dead link to anything else (a subfolder's file, a
file of another kind, a file outside the store: it may name a file this clone
lacks), in an entry's description, with several memories that look like its file
renamed (up to three are named; fix adds none of them until you choose), or in a
list item that holds more (another link, an unindented line).
""",
    scope=STORE,
)

IDX004 = Rule(
    "IDX004",
    "duplicate-entry",
    WARNING,
    False,
    "Two index entries point at the same file",
    """\
## What it does
Reports an index entry (a list item that starts with its link) for a memory file
that an earlier entry already lists. Notes that mention a file mid-sentence are not
entries.

## Why is this bad?
Duplicates waste index lines (agents stop reading at the cap) and often disagree
about the description.

## Example
```markdown
- [Testing](feedback_testing.md) - run pytest
- [Testing conventions](feedback_testing.md) - always run pytest first
```

## Use instead
Keep one entry per memory file.
```markdown
- [Testing conventions](feedback_testing.md) - always run pytest first
```
""",
    scope=STORE,
)

IDX005 = Rule(
    "IDX005",
    "link-escapes-store",
    WARNING,
    False,
    "Index link leaves the memory store",
    """\
## What it does
Reports an index entry (a list item that starts with its link) whose link is a
URL, an absolute path, or uses `..` to climb above the repository, and a reference
definition (`[1]: https://...`) that does. A link to another file of the repository
(the project's CLAUDE.md, its docs) is a cross-reference agents can follow, and
passes; so does a link cited mid-sentence (a pull request or a CI run named in a
status note), which is no entry: nothing of it belongs in the store.

## Why is this bad?
Agents resolve index links inside the repository; links above the repository root
and absolute paths point at files no clone has, and a URL is no memory of the store.

## Example
```markdown
- [Plans](../../../plans/INDEX.md) - every plan
```

## Use instead
Keep memories inside the store; point at other documents from the memory body. An
entry for a memory of the store, whose body says where the plans are:
```markdown
- [Plans](project_plans.md) - where the plans are kept
```
""",
    scope=STORE,
)


def check(ws: Workspace, store: Store, state: IndexState) -> Iterator[Problem]:
    # The index engine is imported where an index is judged afresh (see the package's judged).
    from memcheck.index.links import DEFINED, REFERENCE, classify, is_entry
    from memcheck.index.survey import IGNORED, NOT_STAGED, UNICODE_FORM

    path, whole = state.path, state.whole
    existing = ws.file_set
    descriptions = {m.filename: m.description for m in state.memories if m.description and "](" in m.description}
    seen: dict[str, int] = {}
    # The links that leave the store, read from the repository's root; whether git
    # ignores the missing ones is asked of git once for them all, not once a link.
    leaving = {
        (lineno, link.col): classify(link.target, store.folder, ws.exists)
        for lineno, line_links in enumerate(whole.resolved, 1)
        for link, kind, _ in line_links
        if kind not in ("anchor", "url", "absolute", "local") and link.form != REFERENCE
    }
    ignored = ws.ignored_by_git(
        {target for kind, target in leaving.values() if kind != "outside-repo" and target not in existing and not ws.exists(target)}
    )
    for lineno, (line, line_links) in enumerate(zip(whole.lines, whole.resolved), 1):
        for link, kind, local in line_links:
            if kind == "anchor" or link.form == REFERENCE:
                continue  # a reference link is judged where its target is written: at its definition
            if kind in ("url", "absolute"):
                if _leads_an_entry(line, line_links, link):
                    yield IDX005.at(
                        path,
                        lineno,
                        link.col,
                        f"link to {link.target!r} points outside the store; keep index entries inside the memory store",
                    )
                continue
            if kind == "local":
                target = join(store.folder, local) if local != "." else (store.folder or ".")
                missing = (lineno, link.col) in whole.dead
                if missing and whole.dead[(lineno, link.col)].why == UNICODE_FORM:
                    advice, _ = _dead_advice(whole, state.plan, state.generated, lineno, link.col)
                    yield IDX002.at(path, lineno, link.col, f"entry points at {link.target!r}; {advice}")
                    continue
            else:  # it leaves the store: for where, read it from the repository's root
                kind, target = leaving[(lineno, link.col)]
                if kind == "outside-repo":
                    if not _leads_an_entry(line, line_links, link):
                        continue
                    yield IDX005.at(
                        path,
                        lineno,
                        link.col,
                        f"link to {link.target!r} points outside the repository; keep index entries inside the memory store",
                    )
                    continue
                missing = target not in existing and not ws.exists(target) and target not in ignored
            if missing:
                if descriptions and _in_description(line, line_links, link, descriptions):
                    continue
                dead = whole.dead.get((lineno, link.col))
                if dead is not None and dead.why == IGNORED:
                    continue  # kept out of the repository on purpose: see the doc
                advice, fixable = _dead_advice(whole, state.plan, state.generated, lineno, link.col)
                what = f"reference [{link.text}] points" if link.form == DEFINED else "entry points"
                absent = "which the commit does not hold" if dead is not None and dead.why == NOT_STAGED else "which does not exist"
                problem = IDX002.at(path, lineno, link.col, f"{what} at {link.target!r}, {absent}; {advice}")
                yield problem if fixable else problem._replace(fixable=False)
                continue
            if kind == "escapes":
                # A file of the repository outside the store (the project's CLAUDE.md,
                # its docs): a cross-reference agents can follow, as curated indexes
                # keep them (3 of 3 such findings judged unwanted on real repositories).
                continue
            if link.form != DEFINED and link is line_links[0][0] and is_entry(line):
                if target in seen:
                    yield IDX004.at(
                        path, lineno, link.col, f"{basename(target)} is already listed on line {seen[target]}; keep one entry per memory"
                    )
                else:
                    seen[target] = lineno


def _leads_an_entry(line: str, line_links: Sequence[tuple[Link, str, str]], link: Link) -> bool:
    """Whether ``link`` is what IDX005 judges: the link an index entry leads with (an
    agent takes it for a memory and opens it), or a reference definition (``[1]: x``,
    whose uses are not weighed here). A link cited mid-sentence (a pull request or a CI
    run in a prose status log) is no entry: nothing of it belongs in the store."""
    from memcheck.index.links import DEFINED, is_entry

    return link.form == DEFINED or (link is line_links[0][0] and is_entry(line))


def _renamed_note(dead: Dead | None) -> str:
    if dead is None or not dead.renamed:
        return ""
    names = list(dead.renamed)
    more = dead.candidates - len(names)
    listed = (
        f"{', '.join(names)} and {more} more"
        if more > 0
        else " or ".join(names)
        if len(names) < 3
        else f"{', '.join(names[:-1])} or {names[-1]}"
    )
    return f" ({listed} {'may be' if dead.candidates == 1 else 'look like'} its file renamed)"


def _dead_advice(whole: Survey, plan: Plan, generated: frozenset[str], lineno: int, col: int) -> tuple[str, bool]:
    """IDX002's advice for the dead link at (lineno, col), and whether ``fix`` takes it:
    the plan's own reading of the line when fix rewrites it, else the whole index's.
    ``generated``: the lines of the index fix generates (``IndexState.generated``)."""
    from memcheck.index.links import DEFINED
    from memcheck.index.plan import GENERATE
    from memcheck.index.survey import (
        AMBIGUOUS,
        HOLDS,
        IN_DESCRIPTION,
        LAZY,
        NOT_STAGED,
        REMOVE,
        REPOINT,
        SHARED,
        UNICODE_FORM,
        UNUSED,
    )

    start, end = plan.region
    mine = start < lineno <= end
    dead = whole.dead.get((lineno, col))
    offset = 0
    if mine and plan.survey is not None:
        offset = start
        dead = plan.survey.dead.get((lineno - start, col), dead)
    maybe = _renamed_note(dead)
    if mine and plan.mode == GENERATE:
        if whole.lines[lineno - 1] in generated:
            return f"regenerating keeps the line: point the link at the right file, restore it, or remove the link{maybe}", False
        return f"`memcheck fix` regenerates the index without it{maybe}", True
    if not mine or dead is None:
        return f"point the link at the right file, restore it, or remove the link{maybe}", False
    if dead.why == UNICODE_FORM:
        return (
            f"the memory file is {dead.renamed[0]}, the same name in another Unicode form (macOS opens either, Linux only that one): `memcheck fix` re-points the entry there",
            True,
        )
    if dead.action == REPOINT and dead.renamed[0] in plan.refused:
        return (
            f"it looks renamed to {dead.renamed[0]}, but re-pointing it would take the index over a cap: make room, then run `memcheck fix`",
            False,
        )
    if dead.action == REPOINT:
        return (
            f"it looks renamed to {dead.renamed[0]}: `memcheck fix` re-points the {'definition' if dead.form == DEFINED else 'entry'} there",
            True,
        )
    if dead.action == REMOVE:
        lines = sorted(dead.drop)
        item = (
            f"its list item (lines {lines[0] + offset}-{lines[-1] + offset})"
            if len(lines) > 1 and lines[-1] - lines[0] == len(lines) - 1
            else "its list item"
        )
        what = (
            "the line"
            if len(lines) == 1
            else item
            if dead.form != DEFINED
            else f"the definition and the entry using it (lines {', '.join(str(n + offset) for n in lines)})"
        )
        return f"restore the file, or let `memcheck fix` remove {what}{maybe}", True
    at = dead.at + offset
    reasons = {
        NOT_STAGED: "the file is on disk but not staged: memcheck leaves the entry alone; `git add` the file, or remove the entry by hand",
        IN_DESCRIPTION: "it is in the entry's description, not its own link: fix that link or remove it",
        AMBIGUOUS: "point it at the right file by hand",
        LAZY: f"its list item goes on, unindented, on line {at}: re-point or remove the item by hand",
        HOLDS: f"its list item holds more on line {at}: re-point the link, or remove what you no longer need by hand",
        UNUSED: "no line uses this definition: point it at the right file, or remove it",
        SHARED: "several lines use this definition: point it at the right file, or restore the file",
    }
    advice = reasons.get(dead.why, "point the link at the right file, restore it, or remove the link")
    return f"{advice}{maybe}", False


def _in_description(line: str, line_links: Sequence[tuple[Link, str, str]], link: Link, descriptions: dict[str, str]) -> bool:
    """A link after an entry's own link that its memory's description holds (as the
    index shows it): the memory's finding (MEM021), not the index's."""
    from memcheck.index.links import is_entry

    first, kind, local = line_links[0]
    return first is not link and kind == "local" and is_entry(line) and line[link.col - 1 : link.stop] in descriptions.get(local, "")
