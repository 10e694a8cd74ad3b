"""Lists a curator keeps newest first, or in type order: how to tell one, and where
a new entry goes in it.

Many curated indexes are a log: the latest memory on top. Appending a new entry at
the end of such a list puts it last, and in a long list past the caps, where agents
never read it. So a list whose entries run newest first gets each new entry where
its date puts it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from memcheck import lazy_regex
from memcheck.index.memory import NO_DATES
from memcheck.text import blocks

if TYPE_CHECKING:
    from memcheck.index.form import Entry
    from memcheck.index.memory import Memory

MIN_DATED = 3  # dated entries a list needs before its order says anything


def newest_first(found: Sequence[Entry]) -> int | None:
    """Which of the memories' dates (an index into ``Memory.dates``: `updated`,
    `created`, the date in the file name) these entries, in their order, run newest
    first by; None when they do not.

    The detection: under that date, at least MIN_DATED of the entries are dated and
    at least half of them are; the dated ones never get newer going down the list;
    and the first is newer than the last (a list of one day says nothing). Entries
    without that date are left out of the comparison: a curator's pointer to a plan,
    a memory saved without one."""
    for key in range(len(NO_DATES)):
        dated = [d for e in found if (d := e.memory.dates[key])]
        if (
            len(dated) >= MIN_DATED
            and 2 * len(dated) >= len(found)
            and dated[0] > dated[-1]
            and all(a >= b for a, b in zip(dated, dated[1:]))
        ):
            return key
    return None


def newest_first_order(new: Sequence[Memory], key: int) -> list[Memory]:
    """New memories in the order a newest-first list shows them: those without the
    date first (a memory just saved is the newest), then the newest first; ties by
    file name."""
    undated = sorted((m for m in new if not m.dates[key]), key=lambda m: m.filename)
    dated = sorted((m for m in new if m.dates[key]), key=lambda m: m.filename)
    dated.sort(key=lambda m: m.dates[key] or "", reverse=True)  # stable: file names stay in order within a date
    return undated + dated


def by_date(found: Sequence[Entry], key: int, new: Sequence[Memory], lay: blocks.Layout) -> dict[int, list[Memory]]:
    """Before which line each new memory goes in a newest-first list: before the first
    entry whose date is not newer than its own, after the last dated entry (and its
    wrapped lines) when it is older than all of them, and before the first entry when
    it has no date. One pass over the entries, new memories in date order."""
    dated = [(e.memory.dates[key] or "", e.line) for e in found if e.memory.dates[key]]
    top = found[0].line
    after_last = blocks.item_extent(lay, dated[-1][1])[0]
    at: dict[int, list[Memory]] = {}
    j = 0
    for m in newest_first_order(new, key):
        date = m.dates[key]
        if not date:
            at.setdefault(top, []).append(m)
            continue
        while j < len(dated) and dated[j][0] > date:
            j += 1
        at.setdefault(dated[j][1] if j < len(dated) else after_last, []).append(m)
    return at


def in_type_order(found: Sequence[Entry], types: Sequence[str]) -> bool:
    """Whether a flat list's entries run in the order of ``types`` (every user memory,
    then every feedback one, ...), at least two types of them: a curator's list kept
    by type without headings. An entry of a type outside ``types`` says nothing."""
    ranks = [types.index(e.memory.type) for e in found if e.memory.type in types]
    return len(set(ranks)) >= 2 and all(a <= b for a, b in zip(ranks, ranks[1:]))


def by_type(found: Sequence[Entry], types: Sequence[str], new: Sequence[Memory], lay: blocks.Layout) -> dict[int, list[Memory]] | None:
    """Before which line each new memory goes in a list kept in type order: after the
    last entry of its type (and its wrapped lines), else after the last of a type
    before it, else before the first entry. None where a new memory has a type outside
    ``types`` (it has no place in the order: it goes at the end, as before)."""
    if any(m.type not in types for m in new):
        return None
    typed = [(types.index(e.memory.type), e.line) for e in found if e.memory.type in types]
    at: dict[int, list[Memory]] = {}
    for m in new:
        rank = types.index(m.type)
        before = [line for r, line in typed if r <= rank]
        at.setdefault(blocks.item_extent(lay, before[-1])[0] if before else found[0].line, []).append(m)
    return at


# A memory that says of itself it no longer holds: the last a short room should take.
_SUPERSEDED = lazy_regex.compile(r"(?i)\b(?:superseded|obsolete|deprecated|outdated|no longer (?:used|true|applies))\b")
LESSONS = "feedback"  # the type Claude Code gives what the user taught it (corrections, preferences)


def by_worth(new: Sequence[Memory]) -> list[Memory]:
    """New memories in the order a curator would give them room when the caps cannot
    take them all: the lessons first (type `feedback`: what the user corrected, which
    changes what the agent does next session), then the others; within each, the
    newest first by the first date a memory has (updated, created, its file name's),
    then the undated (no date says nothing of its age); and, last of all, those that
    call themselves superseded or obsolete. Ties by file name, so the order is the
    same on every machine. File-name order, what an index without dates shows, would
    give the room to `a_old_plan.md` before `z_lesson_today.md`."""

    ordered = sorted(new, key=lambda m: m.filename)
    ordered.sort(key=lambda m: next((d for d in m.dates if d), ""), reverse=True)  # stable: undated ("") last
    ordered.sort(key=lambda m: (_SUPERSEDED.search(f"{m.name or ''} {m.description or ''}") is not None, m.type != LESSONS))
    return ordered
