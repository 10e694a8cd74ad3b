"""Sync mode: keep a curator's index and make it agree with the store.

Every line the curator wrote stays, in order; a dead entry is re-pointed or its list
item removed (as ``survey`` decides), and each unlisted memory gets an entry in the
index's style, in its type's section when the index has one, inside the caps when
there is room.
"""
from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING, List, NamedTuple, Sequence, Tuple, Union

from memcheck.index.links import links, readings
from memcheck.index.render import FLAT_EMDASH, OTHER, entry_line, escape_target, escape_text, missing_as, one_line, shown_name
from memcheck.index.survey import REMOVE, REPOINT, Dead, Survey, survey
from memcheck.text import blocks

if TYPE_CHECKING:
    from memcheck.index.memory import Exists, Memory

SYNC_HEADING = "## Other"

# The title is empty or ends in a non-space, so the closing run of spaces and `#`s is
# tried only after a non-space, and possessively: a heading with a long run of spaces
# is read in one pass, not once from each space (a heading with 8,000 spaces: 1.12 s
# to match, 4 times more per doubling -> 0.0002 s).
_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:\s+(|.*?\S))?(?:\s+#+)?\s*$")


class Changes(NamedTuple):
    """What ``fix`` does to one index, for its report."""

    added: tuple[tuple[str, int], ...] = ()  # (memory file, line of its new entry)
    repointed: tuple[tuple[str, str], ...] = ()  # (target as written, memory file)
    removed: tuple[str, ...] = ()  # targets of the dead entries removed
    rewrote: tuple[str, ...] = ()  # memory files whose entry text a regenerated index replaced


# Headings that name a memory type: `## User`, `### Feedback:`, `## Projects`, `## 📁
# Reference memories`, in any case: the type's word, singular or plural, maybe
# followed by "memory" or "memories", and nothing else but punctuation and symbols.
# `## Other` is where memories of no type go.
_TYPE_HEADING = re.compile(r"^\W*([^\W\d_]+)(?:\s+memor(?:y|ies))?\W*$", re.IGNORECASE)


def _heading_type(text: str, types: Sequence[str]) -> str | None:
    word = _TYPE_HEADING.match(text.strip())
    if word is None:
        return None
    kind = word.group(1).casefold()
    for candidate in (kind, kind[:-1] if kind.endswith("s") else None):
        if candidate is not None and (candidate in types or candidate == OTHER):
            return candidate
    return None


def sync(
    text: str,
    memories: Sequence[Memory],
    exists: Exists,
    style: str,
    types: Sequence[str] = ("user", "feedback", "project", "reference"),
    found: Survey | None = None,
    caps: tuple[int, int] | None = None,
) -> tuple[str, Changes]:
    """Keep the curator's index and make it agree with the store.

    Every line and its order is kept, except that a dead entry is re-pointed in
    place or its list item removed (see ``survey``). Memories still unlisted get
    entries in the index's style, sorted (see ``_place_entries`` for where), and
    inside the caps (max lines, max bytes) when there is room (see ``_within_caps``).
    Returns the text and what changed (each new entry's line counted in this text).
    """
    if found is None:
        found = survey(text, memories, exists)
    drop: set[int] = set()
    edits: dict[int, list[tuple[int, int, str]]] = {}
    repointed: list[tuple[str, str]] = []
    removed: list[str] = []
    for dead in found.dead.values():
        if dead.action == REMOVE:
            drop.update(dead.drop)
            removed.append(dead.target)
        elif dead.action == REPOINT:
            edits.setdefault(dead.line, []).append((*dead.span, _repointed(dead)))
            repointed.append((dead.target, dead.renamed[0]))
    lines: list[str] = []
    for lineno, line in enumerate(found.lines, 1):
        if lineno in drop:
            continue
        for start, end, target in sorted(edits.get(lineno, ()), reverse=True):  # right to left: earlier offsets stay true
            line = line[:start] + target + line[end:]
        lines.append(line)
    listed = found.listed | {name for _target, name in repointed}
    missing = [m for m in sorted(memories, key=lambda m: m.filename) if m.filename not in listed]
    if not missing:
        return "\n".join(lines), Changes((), tuple(repointed), tuple(removed))
    lay = blocks.layout(lines)
    # New entries at the end go after the last line with text; the blank lines and
    # the final newline after it are the end of the text, not part of a section.
    while lines and lay.kinds[len(lines) - 1] == blocks.BLANK:
        lines.pop()
    dash = "\u2014" if style == FLAT_EMDASH else "-"
    placed = _place_entries(lines, lay, missing, types, dash)
    if caps is not None:
        placed = _within_caps(lines, lay, placed, caps, types, missing)
    out: list[str] = []
    added: list[tuple[str, int]] = []
    for i in range(len(lines) + 1):
        for item in placed.get(i, ()):
            if isinstance(item, tuple):
                out.append(item[1])
                added.append((item[0], len(out)))
            else:
                out.append(item)
        if i < len(lines):
            out.append(lines[i])
    return "\n".join(out) + "\n", Changes(tuple(sorted(added)), tuple(repointed), tuple(removed))


_QUERY_OR_FRAGMENT = re.compile(r"(?<!\\)[#?]")


def _repointed(dead: Dead) -> str:
    """The target a re-pointed link gets: the memory's file, with the dead target's
    ``#fragment`` or ``?query`` kept when it was read as one."""
    target = escape_target(dead.renamed[0])
    cut = _QUERY_OR_FRAGMENT.search(dead.target)
    if cut is not None and readings(dead.target)[0][0] != dead.path:
        target += dead.target[cut.start() :]
    return target


Placed = List[Union[str, Tuple[str, str]]]  # lines to insert: text, or (memory file, its new entry)


def _place_entries(lines: list[str], lay: blocks.Layout, missing: Sequence[Memory], types: Sequence[str], dash: str) -> dict[int, Placed]:
    """Where new entries go: for a line number, what to insert before that line
    (``len(lines)``: at the end), entries with any heading or blank line they need.

    When the index has type sections (`## User`, a setext `Feedback\\n---`), each
    memory goes into its type's: after the section's last list item or table row (a
    row, in the table's columns, when the table has a column of links), or after its
    text, a blank line between, when it has only prose. A type the index has no
    section for gets one, at the level of the last type section and right after it.
    Else the entries go into an `Other` section, under a final `## Other` heading when
    the index has sections, or at the end; before the link reference definitions
    that end an index, and after closing a code block or comment the index leaves open.
    """
    n = len(lines)
    headings, sections = _sections(lines, lay, types)
    typed = any(kind in sections for kind in types)
    # A lone `# Title` is the index's name, not a section: entries then simply follow.
    sectioned = len(headings) > 1 or any(level > 1 for _i, level in headings)
    groups: dict[str, list[Memory]] = {}
    for memory in missing:
        groups.setdefault(memory.type if typed and memory.type in types and memory.type else OTHER, []).append(memory)
    at: dict[int, Placed] = {}
    tail: Placed = []
    lacking = []  # kinds without a section of their own
    for kind in [*types, OTHER]:
        group = groups.get(kind)
        if not group:
            continue
        if kind not in sections:
            lacking.append(kind)
            continue
        pos, block = _into_section(lines, lay, sections[kind], headings, group, dash)
        if 0 <= lay.unclosed < pos:
            tail.extend(_entry_lines(group, dash))  # inside a code block or comment left open: at the end
        else:
            at.setdefault(pos, []).extend(block)
    if lacking and typed:
        last, level = max(sections[kind] for kind in types if kind in sections)
        pos = _section_stop(lay, last, level, headings)
        added: Placed = []
        for kind in lacking:
            added += ["", f"{'#' * level} {kind.capitalize()}", *_entry_lines(groups[kind], dash)]
        if 0 <= lay.unclosed < pos:
            tail.extend(added)
        else:
            if pos < n and lines[pos].strip():
                added.append("")
            at.setdefault(pos, []).extend(added)
    elif lacking and not sectioned and lay.unclosed < 0 and (rows := _last_table_rows(lines, lay, groups[OTHER])) is not None:
        at.setdefault(rows[0], []).extend(rows[1])  # an index that is a table of links gets rows
    elif lacking:
        if sectioned:
            tail += ["", f"## {OTHER.capitalize()}"]
        tail.extend(_entry_lines(groups[OTHER], dash))
    if not tail:
        return at
    pos = n
    if lay.unclosed >= 0:
        # The text ends inside a code block or comment nobody closed: close it first, or
        # the new entries would be code, and the next run would add them again.
        tail.insert(0, lay.open_fence or "-->")
    else:
        pos = _before_definitions(lay, n)
        if pos < n and lay.kinds[pos] != blocks.BLANK:
            tail.append("")
        if tail[0] == "" and not pos:
            tail.pop(0)  # nothing before: no blank line first
        elif pos and isinstance(tail[0], tuple) and lay.kinds[pos - 1] not in (blocks.ITEM, blocks.CONTINUATION):
            tail.insert(0, "")  # a list straight after a paragraph would run into it
    at.setdefault(pos, []).extend(tail)
    return at


def _sections(lines: list[str], lay: blocks.Layout, types: Sequence[str]) -> tuple[list[tuple[int, int]], dict[str, tuple[int, int]]]:
    """(line, level) of every heading, and the first heading of each memory type's
    section (or Other's)."""
    headings = [(i, lay.levels[i]) for i in range(len(lines)) if lay.kinds[i] == blocks.HEADING]
    sections: dict[str, tuple[int, int]] = {}
    # A title over the sections (`# Project memory`, then `## ...` headings) names the
    # index, not a type's section.
    title = headings[0][0] if headings and sum(lv <= headings[0][1] for _i, lv in headings) == 1 and len(headings) > 1 else -1
    for i, level in headings:
        if i == title:
            continue
        named = _heading_type(_heading_text(lines[i]), types)
        if named is not None:
            sections.setdefault(named, (i, level))
    return headings, sections


def _within_caps(
    lines: list[str], lay: blocks.Layout, at: dict[int, Placed], caps: tuple[int, int], types: Sequence[str], missing: Sequence[Memory]
) -> dict[int, Placed]:
    """``at``, with new entries that would land past a cap (where agents stop reading)
    moved up to where they read: between the list items of their type's section, or
    of any list when the index has no section for their type; a new section, before
    an earlier heading of its level. Each move is to a place that stays inside the
    caps whatever else is inserted (all new lines counted before it); what has no
    such place stays where it was, and `fix` says it is past the cap.

    Linear in the index: one pass for the places, then at most one walk of them per
    run of new lines, and there are as many runs as memory types (a few) plus new
    entries outside sections."""
    max_lines, max_bytes = caps
    n = len(lines)
    if lay.unclosed >= 0 or not _past_caps(lines, at, max_lines, max_bytes):
        return at
    headings, sections = _sections(lines, lay, types)
    typed = any(kind in sections for kind in types)
    kinds = {m.filename: m.type if typed and m.type in sections else None for m in missing}
    added_lines = sum(len(items) for items in at.values())
    added_bytes = sum(len(_placed_text(item).encode("utf-8")) + 1 for items in at.values() for item in items)
    before = [0] * (n + 1)  # bytes of lines[:j], each with its newline
    for j, line in enumerate(lines):
        before[j + 1] = before[j] + len(line.encode("utf-8")) + 1
    # Between two list items: before a top-level, unindented item that follows
    # another item or a heading (a new `- ` line there joins the list).
    between = [
        j
        for j in range(1, n)
        if lay.kinds[j] == blocks.ITEM
        and lay.parent[j] == -1
        and blocks.indent_of(lines[j]) == 0
        and lay.kinds[j - 1] in (blocks.ITEM, blocks.CONTINUATION, blocks.HEADING, blocks.UNDERLINE)
        and not lay.lazy[j - 1]
        and before[j] + added_bytes <= max_bytes
        and j + added_lines <= max_lines
    ]
    moved: dict[int, Placed] = {}
    for pos in sorted(at, reverse=True):
        keep: Placed = []
        loose_moved = False
        for run, section in _runs(at[pos]):
            target = None
            if section or isinstance(run[0], tuple):
                target = _earlier_place(run, pos, lines, lay, between, headings, sections, kinds, before, added_lines, added_bytes, caps)
            if target is None:
                keep.extend(run)
            else:
                moved.setdefault(target[0], []).extend(target[1])
                loose_moved = loose_moved or not section
        if loose_moved and not any(isinstance(item, tuple) for item in keep):
            keep = [item for item in keep if item != ""]  # the blank lines that set the entries apart
        if keep:
            moved.setdefault(pos, [])[:0] = keep  # what was there first stays first
    return moved


def _placed_text(item: str | tuple[str, str]) -> str:
    return item[1] if isinstance(item, tuple) else item


def _past_caps(lines: list[str], at: dict[int, Placed], max_lines: int, max_bytes: int) -> bool:
    """Whether a new entry would land past a cap."""
    count = size = 0
    for i in range(len(lines) + 1):
        for item in at.get(i, ()):
            count += 1
            size += len(_placed_text(item).encode("utf-8")) + 1
            if isinstance(item, tuple) and (count > max_lines or size > max_bytes):
                return True
        if i < len(lines):
            count += 1
            size += len(lines[i].encode("utf-8")) + 1
    return False


def _runs(items: Placed) -> list[tuple[Placed, bool]]:
    """The lines inserted at one place, cut into what moves together, each with
    whether it is a new section: a new section (a blank line, its heading, its
    entries), or else one entry, or one other line (a blank line, a fence closed)."""
    runs: list[tuple[Placed, bool]] = []
    in_section = False
    for k, item in enumerate(items):
        text = _placed_text(item)
        heading = isinstance(item, str) and text.startswith("#") and _HEADING.match(text) is not None
        opens = heading and (k == 0 or items[k - 1] != "") or (text == "" and isinstance(item, str) and k + 1 < len(items) and isinstance(items[k + 1], str) and _placed_text(items[k + 1]).startswith("#"))
        if opens:
            runs.append(([item], True))
            in_section = True
        elif in_section:
            runs[-1][0].append(item)
        else:
            runs.append(([item], False))
    return runs


def _earlier_place(
    run: Placed,
    pos: int,
    lines: list[str],
    lay: blocks.Layout,
    between: list[int],
    headings: list[tuple[int, int]],
    sections: dict[str, tuple[int, int]],
    kinds: dict[str, str | None],
    before: list[int],
    added_lines: int,
    added_bytes: int,
    caps: tuple[int, int],
) -> tuple[int, Placed] | None:
    """Where a run placed past the caps goes instead, and what it is there; None
    when it stays."""
    entries = [item for item in run if isinstance(item, tuple)]
    if not entries or not all(entry.startswith("- ") for _name, entry in entries):
        return None  # table rows stay in their table
    heading = next((item for item in run if isinstance(item, str) and item), None)
    if heading is not None:
        level = len(heading) - len(heading.lstrip("#"))
        max_lines, max_bytes = caps
        spots = [
            h
            for h, lv in headings
            if 0 < h < pos and lv <= level and lay.kinds[h - 1] == blocks.BLANK and h + added_lines <= max_lines and before[h] + added_bytes <= max_bytes
        ]
        # (A walk over the headings per new section: there are as many as memory types.)
        return (spots[-1], [heading, *entries, ""]) if spots else None
    kind = kinds.get(entries[0][0])
    low, high = 0, pos
    if kind is not None and kind in sections:
        first = sections[kind][0]
        low, high = first, min(pos, next((i for i, _lv in headings if i > first), len(lines)) + 1)
    k = bisect.bisect_left(between, high) - 1  # the last place before ``high``: a bisection per entry, not a walk
    return (between[k], list(run)) if k >= 0 and between[k] > low else None


def _entry_lines(group: Sequence[Memory], dash: str) -> Placed:
    return [(m.filename, entry_line(m, shown_name(m), missing_as(m.description, ""), dash)) for m in group]


def _heading_text(line: str) -> str:
    m = _HEADING.match(line)
    return (m.group(2) or "") if m else line.strip()


def _section_stop(lay: blocks.Layout, heading: int, level: int, headings: list[tuple[int, int]]) -> int:
    """Just after the last line with text of a section and its subsections (it ends at
    the next heading of its level or above)."""
    stop = next((i for i, lv in headings if i > heading and lv <= level), len(lay.kinds))
    return _after_text(lay, heading, stop)


def _after_text(lay: blocks.Layout, start: int, stop: int) -> int:
    """Just after the last line with text before ``stop``, but not before ``start + 1``."""
    while stop > start + 1 and lay.kinds[stop - 1] == blocks.BLANK:
        stop -= 1
    return stop


def _before_definitions(lay: blocks.Layout, n: int) -> int:
    """Where entries at the end go: before the link reference definitions (and the
    blank lines among them) that end the text, if it ends so."""
    j = n
    while j > 0 and lay.kinds[j - 1] in (blocks.BLANK, blocks.DEFINITION):
        j -= 1
    return j if blocks.DEFINITION in lay.kinds[j:n] else n


def _into_section(
    lines: list[str], lay: blocks.Layout, section: tuple[int, int], headings: list[tuple[int, int]], group: Sequence[Memory], dash: str
) -> tuple[int, Placed]:
    """Where a section's new entries go, and the lines to insert there."""
    heading, _level = section
    start = heading + 1
    if start < len(lines) and lay.kinds[start] == blocks.UNDERLINE:
        start += 1
    stop = next((i for i, _lv in headings if i > heading), len(lines))  # its own part ends at any heading
    entries = _entry_lines(group, dash)
    last = next((j for j in range(stop - 1, start - 1, -1) if lay.kinds[j] in _ENTRY_BLOCK), -1)
    if last >= 0 and lay.kinds[last] in blocks.TABLE:
        rows = _table_rows(lines, lay, last, group)
        return last + 1, rows if rows is not None else ["", *entries]
    if last >= 0:
        return last + 1, entries
    text_end = _after_text(lay, start - 1, stop)
    if text_end > start:
        return text_end, ["", *entries]  # after the section's prose, not into it
    return start, entries


_ENTRY_BLOCK = frozenset({blocks.ITEM, blocks.CONTINUATION, *blocks.TABLE})


def _last_table_rows(lines: list[str], lay: blocks.Layout, group: Sequence[Memory]) -> tuple[int, Placed] | None:
    """Rows after the index's last table, when its entries end in one with a column of links."""
    last = next((j for j in range(len(lines) - 1, -1, -1) if lay.kinds[j] in _ENTRY_BLOCK), -1)
    if last < 0 or lay.kinds[last] not in blocks.TABLE:
        return None
    rows = _table_rows(lines, lay, last, group)
    return (last + 1, rows) if rows is not None else None


def _table_rows(lines: list[str], lay: blocks.Layout, last: int, group: Sequence[Memory]) -> Placed | None:
    """New rows for the table ending on line ``last``, in its columns, when one of
    them holds links; else None."""
    head = last
    while head > 0 and lay.kinds[head] != blocks.TABLE_HEAD:
        head -= 1
    columns = len(blocks.cells(lines[head]))
    linked = next(
        (c for r in range(head + 2, last + 1) for c, cell in enumerate(blocks.cells(lines[r])) if c < columns and links(cell, 0)),
        None,
    )
    if linked is None:
        return None
    described = linked + 1 if linked + 1 < columns else None
    outer = lines[head].strip().startswith("|")
    rows: Placed = []
    for m in group:
        cells = [""] * columns
        cells[linked] = f"[{_cell(escape_text(shown_name(m)))}]({escape_target(m.filename)})"
        if described is not None:
            cells[described] = _cell(one_line(missing_as(m.description, "")).strip())
        row = " | ".join(cells)
        rows.append((m.filename, f"| {row} |" if outer else row.rstrip()))
    return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
