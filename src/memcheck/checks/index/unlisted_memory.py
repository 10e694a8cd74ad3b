"""IDX003: a memory file no line of the index lists (one finding per memory, and one for
those the index has no room for)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.paths import join
from memcheck.problem import ERROR, STORE, Rule, about_several, several_named
from memcheck.workspace.stores import INDEX_NAME

if TYPE_CHECKING:
    from memcheck.checks.index.state import IndexState
    from memcheck.config import IndexConfig
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.stores import Store

IDX003 = Rule(
    "IDX003",
    "unlisted-memory",
    ERROR,
    True,
    "Memory file is not listed in MEMORY.md",
    """\
## What it does
Reports a memory file that no line of the index lists. A line lists a memory when it
links to the memory's file; a line without links to files (as in link-less indexes,
`- user_prefs: ...`) lists a memory when it names the file (`user_prefs.md`) as a
word, or its stem or frontmatter `name` as a whole phrase: between punctuation (`:`,
`|`, `*`, a dash with spaces around it, brackets) or the start or end of the line.
So `- api: ...` and `| api |` list the memory named `api`; a line about "api tests"
does not, nor does one about `Note 10` list `Note 1`. Links count inline
(`[a](a.md#usage)`) and by reference (`[a][1]` with `[1]: a.md`). A code span that
holds exactly the file name or its path from the index (`` `user_prefs.md` ``,
`` `./user_prefs.md` ``) lists the memory on any line, links or not: an agent reading
the index learns the file exists. A paragraph whose lines without links to files
hold two or more code spans each exactly a memory's stem lists those memories, on
one line or wrapped over several: curated indexes name their topic files so ("the
detail is in `user_prefs`, `deploy_notes`"). Only
list items, table rows and paragraph lines name memories: a name in a link's text
lists nothing (the link says which file it means), nor does a code span that holds
more than the file (`` `cat user_prefs.md` ``) or one stem alone (`` `user_prefs` ``:
as often a command or a package), and neither do headings, HTML
comments, link definitions and code blocks. A memory that another index of the
store lists is listed too where MEMORY.md links that index (an archive of three
entries or more), and so is one that the store's archive of its index lists
(`MEMORY-archive.md`, linked or not): a curator moved it there to keep MEMORY.md
under its caps, and `fix` does not pull it back. A memory whose
`superseded_by` names another memory of the store need not be listed.

An index that holds three entries or more of its own (list items, table rows) but
lists none of the store's memories and links no file is no file index (a digest a
tool writes, notes kept in the index): nothing is reported
there, and `fix` adds nothing to it. An index that is a heading alone, as a new
store's, is still asked to list every memory.

## Why is this bad?
Agents discover memories through the index only: an unlisted memory is never read.

## Example
`feedback_testing.md` saved by hand without an index line. `.claude/memory/MEMORY.md`,
beside `user_prefs.md` and `feedback_testing.md`:
```markdown
- [User preferences](user_prefs.md) — How the user likes to work
```

## Use instead
Run `memcheck fix`: it adds an entry in the form of the index's own entries (link
text, separator, bullet), with a description, in the section for the memory's type
when the index has type sections (`## User`, `## Feedback`, ...), or where its date
puts it in a list kept newest first. When the entries would take the index over its
line or byte cap, or push lines agents read today past it, `fix` adds as many as fit
in the order it ranks them (feedback memories first, then the others by the date each
gives, newest first, those without one by file name, and those that call themselves
superseded last; in a list kept newest first, those without a date first, as if
just saved, then the newest). Those it leaves out are one finding, not fixable, naming
them (`--format json` lists each, as `files`): each might fit alone, but the room
went to those ranked before it. A baseline holds it while it names no new memory.
Make room (merge memories, shorten entries), then run `memcheck fix`. `.claude/memory/MEMORY.md`, as `fix` leaves it:
```markdown
- [Testing](feedback_testing.md) — Run pytest before every commit
- [User preferences](user_prefs.md) — How the user likes to work
```
""",
    scope=STORE,
)


def check(ws: Workspace, store: Store, state: IndexState) -> Iterator[Problem]:
    # The index engine is imported where an index is judged afresh (see the package's judged).
    from memcheck.index.plan import GENERATE, changes_of
    from memcheck.index.store import store_exists
    from memcheck.index.survey import REPOINT, lists_no_file

    path, text, plan, whole, memories = state.path, state.text, state.plan, state.whole, state.memories
    if not plan.marked and lists_no_file(whole):
        return  # no file index: the agent reaches the memories another way, and fix adds nothing
    last_line = max(len(whole.lines) - (1 if text.endswith("\n") else 0), 1)
    # A memory that fix re-points a dead entry to is that entry's finding (IDX002), not
    # an unlisted memory of its own: check then counts what fix does.
    renamed = {d.renamed[0] for d in plan.survey.dead.values() if d.action == REPOINT} if plan.survey is not None else set()
    unlisted = [m.filename for m in memories if m.filename not in whole.listed and m.filename not in renamed]
    if plan.marked and plan.mode == GENERATE:
        # Between markers fix regenerates the block: a memory is unlisted when fix adds
        # it there, which is what the text around the markers and the block leave out
        # (the whole text read at once can pair a dead link outside the block with one
        # inside, and call a memory listed that fix then adds).
        added = {name for name, _line in changes_of(plan, text, memories, store_exists(ws, store)).added} | set(plan.refused)
        unlisted = [m.filename for m in memories if m.filename in added]
    for name in unlisted:
        if name not in plan.refused:
            message = f"memory file {name} is not listed in {INDEX_NAME}; agents that load only the index never see it (run `memcheck fix`)"
            # About the memory file too: a suppression comment in it keeps it out of the index on purpose.
            yield IDX003.at(path, last_line, 1, message, about=join(store.folder, name))
    listed_not = set(unlisted)
    left_out = [join(store.folder, name) for name in plan.refused if name in listed_not]  # (a tuple: named in the plan's order)
    if left_out:
        message = _no_room(
            len(unlisted), len(unlisted) - len(left_out), plan.changes is not None and plan.changes.newest_first, ws.config.index
        )
        yield IDX003.at(path, last_line, 1, message + several_named(left_out), about=about_several(left_out))._replace(fixable=False)


def _no_room(unlisted: int, taken: int, newest_first: bool, cfg: IndexConfig) -> str:
    """Why ``fix`` leaves these memories out, as it does: it adds the unlisted memories
    in the order it ranks them, as many as fit, so one left out would often fit alone;
    the room is what the others took first. The same words for one memory or many
    (the names follow): a baseline holds the finding as its memories change."""
    # As order.by_worth ranks them, every step said: "then the newest" alone was untrue of
    # a store whose memories carry no date, which fix takes by file name.
    order = (
        "those without a date first, as if just saved, then the newest first, as the list runs"
        if newest_first
        else "feedback memories first, then the others, each newest first by its updated (or modified), created (or date) or file name's date, "
        "those with none by file name, and those that call themselves superseded last"
    )
    caps = f"the {cfg.max_lines:,}-line cap or the {cfg.max_bytes:,}-byte cap, where agents stop reading"
    # The same words whatever fix adds (the numbers aside): a commit that makes room for
    # one of them changes a number, and the finding stays the one a baseline holds.
    return (
        f"unlisted memory files that {INDEX_NAME} has no room for: `memcheck fix` adds {taken:,} of its {unlisted:,} unlisted memories, "
        f"those it ranks first ({order}), as many as fit under {caps}; make room (merge or shorten entries), then run `memcheck fix`; left out"
    )
