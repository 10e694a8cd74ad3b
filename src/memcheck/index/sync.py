"""Sync mode: keep a curator's index and make it agree with the store.

Every line the curator wrote stays, in order; a dead entry is re-pointed or its list
item removed (as ``survey`` decides), a placeholder description is filled in, and
each unlisted memory gets an entry in the form of its neighbours, where the index's
convention puts it: its type's section, the date order of a newest-first list, a
final section or the end. The caps come first: a change that would take the index
over a cap, or push a line agents read today past one, is not made.
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING, List, Sequence, Tuple, Union

from memcheck import lazy_regex
from memcheck.index.fit import fit
from memcheck.index.form import Entry, EntryForm, detect_form, entries, label_of, placeholders, write_entry
from memcheck.index.links import links, readings
from memcheck.index.order import by_date, by_type, by_worth, in_type_order, newest_first, newest_first_order
from memcheck.index.render import OTHER, described, escape_target, escape_text
from memcheck.index.survey import REMOVE, REPOINT, Dead, Survey, survey
from memcheck.records import NamedTuple
from memcheck.text import blocks

if TYPE_CHECKING:
    from memcheck.index.memory import Exists, Memory

SYNC_HEADING = "## Other"

# The title is empty or ends in a non-space, so the closing run of spaces and `#`s is
# tried only after a non-space, and possessively: a heading with a long run of spaces
# is read in one pass, not once from each space (a heading with 8,000 spaces: 1.12 s
# to match, 4 times more per doubling -> 0.0002 s).
_HEADING = lazy_regex.compile(r"^ {0,3}(#{1,6})(?:\s+(|.*?\S))?(?:\s+#+)?\s*$")


class Changes(NamedTuple):
    """What ``fix`` does to one index, for its report."""

    added: tuple[tuple[str, int], ...] = ()  # (memory file, line of its new entry)
    repointed: tuple[tuple[str, str], ...] = ()  # (target as written, memory file)
    removed: tuple[str, ...] = ()  # targets of the dead entries removed
    rewrote: tuple[str, ...] = ()  # memory files whose entry text a regenerated index replaced
    filled: tuple[str, ...] = ()  # memory files whose entry's placeholder description was filled in
    refused: tuple[str, ...] = ()  # memory files not added (or re-pointed to): no room under the caps
    newest_first: bool = False  # new entries took the room the newest first, as the list runs (else by order.by_worth)


# Headings that name a memory type: `## User`, `### Feedback:`, `## Projects`, `## 📁
# Reference memories`, in any case: the type's word, singular or plural, maybe
# followed by "memory" or "memories", and nothing else but punctuation and symbols.
# `## Other` is where memories of no type go.
_TYPE_HEADING = lazy_regex.compile(r"^\W*([^\W\d_]+)(?:\s+memor(?:y|ies))?\W*$", re.IGNORECASE)


def _heading_type(text: str, types: Sequence[str]) -> str | None:
    word = _TYPE_HEADING.match(text.strip())
    if word is None:
        return None
    kind = word.group(1).casefold()
    for candidate in (kind, kind[:-1] if kind.endswith("s") else None):
        if candidate is not None and (candidate in types or candidate == OTHER):
            return candidate
    return None


class _Edit(NamedTuple):
    """A change to a kept line: a re-point, a filled placeholder, or both."""

    at: int  # the line among the kept ones
    text: str  # the line, changed
    repointed: tuple[tuple[str, str], ...]
    filled: str | None  # the memory file whose placeholder is filled in


def sync(
    text: str,
    memories: Sequence[Memory],
    exists: Exists,
    style: str,
    types: Sequence[str] = ("user", "feedback", "project", "reference"),
    found: Survey | None = None,
    caps: tuple[int, int] | None = None,
    trimmed: bool = True,
) -> tuple[str, Changes]:
    """Keep the curator's index and make it agree with the store.

    Every line and its order is kept, except that a dead entry is re-pointed in
    place or its list item removed (see ``survey``) and a placeholder description is
    filled in (see ``form.placeholders``). Memories still unlisted get entries in the
    index's form (see ``form.detect_form``), placed as ``_place_entries`` says.

    ``caps`` (lines, bytes) is the room the text has (``trimmed``: as ``fix`` writes
    it, without trailing blank lines). The caps come first: removing lines is always
    done, and so is an edit that does not make a line longer; the rest (longer lines,
    new entries) is done, in that order and new entries in the order the index
    shows them, as far as the whole still fits. Whatever does not fit is not
    written (``Changes.refused``): an index over a cap gets nothing new, and no line
    agents read today is pushed past a cap. Returns the text and what changed (each
    new entry's line counted in this text)."""
    if found is None:
        found = survey(text, memories, exists)
    drop: set[int] = set()
    edits: dict[int, list[tuple[int, int, str]]] = {}
    repoints: dict[int, list[tuple[str, str]]] = {}
    removed: list[str] = []
    for dead in found.dead.values():
        if dead.action == REMOVE:
            drop.update(dead.drop)
            removed.append(dead.target)
        elif dead.action == REPOINT:
            edits.setdefault(dead.line, []).append((*dead.span, repointed_target(dead)))
            repoints.setdefault(dead.line, []).append((dead.target, dead.renamed[0]))
    # The index's form is read with each entry re-pointed here as its new memory's, as the
    # next run reads it: read without it (when the one hyphen-separated entry was the dead
    # one) the new entries took another separator, and the next run found room for an
    # entry this one had refused (found by tests/cli/test_index_sync.py's property test).
    resolved = found.resolved
    if repoints:
        resolved = list(resolved)
        for dead in found.dead.values():
            if dead.action == REPOINT:
                on_line = resolved[dead.line - 1]
                resolved[dead.line - 1] = tuple(
                    (link, kind, dead.renamed[0] if link.col == dead.col and path == dead.path else path) for link, kind, path in on_line
                )
    found_entries = list(entries(found.lines, found.layout.kinds, resolved, memories))
    form = detect_form(found_entries, style)
    holes = {p.line + 1: p for p in placeholders(found_entries, form) if p.fill is not None}
    lines: list[str] = []
    kept: dict[int, int] = {}  # line (0-based) of the text -> its line among the kept ones
    optional: list[_Edit] = []  # edits that make a line longer: made while the caps allow
    filled: list[str] = []
    for lineno, line in enumerate(found.lines, 1):
        if lineno in drop:
            continue
        kept[lineno - 1] = len(lines)
        here = list(edits.get(lineno, ()))
        hole = holes.get(lineno)
        if hole is not None and hole.fill is not None:
            here.append((hole.start, hole.end, hole.fill))
        if not here:
            lines.append(line)
            continue
        new = line
        for start, end, replacement in sorted(here, reverse=True):  # right to left: earlier offsets stay true
            new = new[:start] + replacement + new[end:]
        edit = _Edit(len(lines), new, tuple(repoints.get(lineno, ())), hole.memory.filename if hole is not None else None)
        if caps is not None and len(new.encode("utf-8")) > len(line.encode("utf-8")):
            optional.append(edit)
            lines.append(line)
        else:
            lines.append(new)
            filled += [edit.filled] if edit.filled else []
    # A memory a dead entry is re-pointed to is that entry's, re-pointed or not.
    listed = found.listed | {name for pairs in repoints.values() for _target, name in pairs}
    missing = [m for m in sorted(memories, key=lambda m: m.filename) if m.filename not in listed]
    ours = [e._replace(line=kept[e.line]) for e in found_entries if e.line in kept]
    key = newest_first(ours)
    if key is not None:
        missing = newest_first_order(missing, key)  # the newest first, in the room there is
    # Which new entries get the room when not all fit: the newest first in a list kept
    # so; else the lessons and the newest (see order.by_worth), placed as ever.
    ranked = missing if key is not None else by_worth(missing)
    lay = blocks.layout(lines)
    if missing:
        # New entries at the end go after the last line with text; the blank lines and
        # the final newline after it are the end of the text, not part of a section.
        while lines and lay.kinds[len(lines) - 1] == blocks.BLANK:
            lines.pop()

    def build(k: int) -> tuple[str, list[tuple[str, int]]]:
        """The text with the first ``k`` optional changes: the longer lines, then the new entries."""
        now = list(lines)
        for edit in optional[:k]:
            now[edit.at] = edit.text
        taken = {m.filename for m in ranked[: max(0, k - len(optional))]}
        new = [m for m in missing if m.filename in taken]
        if not new:
            return "\n".join(now) + ("\n" if missing else ""), []
        return _assemble(now, _place_entries(now, lay, new, types, form, ours))

    k, (out, added) = fit(build, len(optional) + len(missing), caps, trimmed)
    for edit in optional[:k]:
        filled += [edit.filled] if edit.filled else []
    refused = [name for edit in optional[k:] for _target, name in edit.repointed]
    left = {pair for edit in optional[k:] for pair in edit.repointed}
    repointed = [pair for pairs in repoints.values() for pair in pairs if pair not in left]
    refused += [m.filename for m in ranked[max(0, k - len(optional)) :]]
    return out, Changes(
        tuple(sorted(added)),
        tuple(repointed),
        tuple(removed),
        filled=tuple(sorted(filled)),
        refused=tuple(sorted(refused)),
        newest_first=key is not None,
    )


def _assemble(lines: list[str], placed: dict[int, Placed]) -> tuple[str, list[tuple[str, int]]]:
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
    return "\n".join(out) + "\n", added


_QUERY_OR_FRAGMENT = lazy_regex.compile(r"(?<!\\)[#?]")


def repointed_target(dead: Dead) -> str:
    """The target a re-pointed link gets: the memory's file, with the dead target's
    ``#fragment`` or ``?query`` kept when it was read as one."""
    target = escape_target(dead.renamed[0])
    cut = _QUERY_OR_FRAGMENT.search(dead.target)
    if cut is not None and readings(dead.target)[0][0] != dead.path:
        target += dead.target[cut.start() :]
    return target


Placed = List[Union[str, Tuple[str, str]]]  # lines to insert: text, or (memory file, its new entry)


def _place_entries(
    lines: list[str], lay: blocks.Layout, missing: Sequence[Memory], types: Sequence[str], form: EntryForm, ours: Sequence[Entry]
) -> dict[int, Placed]:
    """Where new entries go: for a line number, what to insert before that line
    (``len(lines)``: at the end), entries with any heading or blank line they need.
    ``ours``: the index's entries (their lines among ``lines``).

    The conventions, read from the index as it is, in this order:

    - type sections (`## User`, a setext `Feedback\\n---`): each memory goes into its
      type's: after the section's last list item or table row (a row, in the table's
      columns, when the table has a column of links), or after its text, a blank line
      between, when it has only prose. A type the index has no section for gets one,
      at the level of the last type section and right after it.
    - a list kept newest first (see ``order.newest_first``), a type section's or, in an
      index without sections, the whole index's: each new entry where its date puts
      it in that list, not at the end.
    - in an index with sections but none per type, the section that holds most of
      its entries (a `## See also` or `## Memory files` list of every memory): after
      its last item.
    - else an `Other` section, under a final `## Other` heading when the index has
      sections, or the end; before the link reference definitions that end an index,
      and after closing a code block or comment the index leaves open.

    Entries placed anywhere but by date are in file-name order."""
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
        places = _into_section(lines, lay, sections[kind], headings, group, form, ours)
        if 0 <= lay.unclosed < max(places):
            tail.extend(_entry_lines(group, form))  # inside a code block or comment left open: at the end
        else:
            for pos, block in places.items():
                at.setdefault(pos, []).extend(block)
    if lacking and typed:
        last, level = max(sections[kind] for kind in types if kind in sections)
        pos = _section_stop(lay, last, level, headings)
        added: Placed = []
        for kind in lacking:
            added += ["", f"{'#' * level} {kind.capitalize()}", *_entry_lines(groups[kind], form)]
        if 0 <= lay.unclosed < pos:
            tail.extend(added)
        else:
            if pos < n and lines[pos].strip():
                added.append("")
            at.setdefault(pos, []).extend(added)
    elif lacking and not sectioned and lay.unclosed < 0 and (rows := _last_table_rows(lines, lay, groups[OTHER], form)) is not None:
        at.setdefault(rows[0], []).extend(rows[1])  # an index that is a table of links gets rows
    elif lacking and not sectioned and lay.unclosed < 0 and (dated := _by_date(ours, groups[OTHER], lay, form)):
        for pos, block in dated.items():
            at.setdefault(pos, []).extend(block)
    elif lacking and not sectioned and lay.unclosed < 0 and (kept := _by_type(ours, groups[OTHER], lay, form, types)):
        for pos, block in kept.items():
            at.setdefault(pos, []).extend(block)
    elif lacking and sectioned and (home := _entries_home(ours, headings)) is not None:
        places = _into_section(lines, lay, home, headings, groups[OTHER], form, ours)
        if 0 <= lay.unclosed < max(places):
            tail.extend(_entry_lines(groups[OTHER], form))
        else:
            for pos, block in places.items():
                at.setdefault(pos, []).extend(block)
    elif lacking:
        if sectioned:
            tail += ["", f"## {OTHER.capitalize()}"]
        tail.extend(_entry_lines(groups[OTHER], form))
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


def _entries_home(ours: Sequence[Entry], headings: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The heading (line, level) of the section that holds more than half of the
    index's entries (a section's own part: up to the next heading), if one does."""
    starts = [i for i, _level in headings]
    count: dict[int, int] = {}
    for e in ours:
        k = bisect.bisect_right(starts, e.line) - 1
        if k >= 0:
            count[k] = count.get(k, 0) + 1
    best = max(count, key=lambda k: (count[k], k), default=None)
    return headings[best] if best is not None and 2 * count[best] > len(ours) else None


def _by_date(ours: Sequence[Entry], group: Sequence[Memory], lay: blocks.Layout, form: EntryForm) -> dict[int, Placed]:
    """New entries in the date order of a newest-first list of entries (``ours``,
    top-level items all); nothing when they are not one."""
    key = newest_first(ours)
    if key is None:
        return {}
    return {pos: [(m.filename, write_entry(form, m)) for m in new] for pos, new in by_date(ours, key, group, lay).items()}


def _by_type(
    ours: Sequence[Entry], group: Sequence[Memory], lay: blocks.Layout, form: EntryForm, types: Sequence[str]
) -> dict[int, Placed]:
    """New entries beside their type's in a flat list kept in type order (top-level
    items all); nothing when it is not one."""
    if not in_type_order(ours, types) or (placed := by_type(ours, types, group, lay)) is None:
        return {}
    return {pos: [(m.filename, write_entry(form, m)) for m in new] for pos, new in placed.items()}


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


def _entry_lines(group: Sequence[Memory], form: EntryForm) -> Placed:
    return [(m.filename, write_entry(form, m)) for m in sorted(group, key=lambda m: m.filename)]


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
    lines: list[str],
    lay: blocks.Layout,
    section: tuple[int, int],
    headings: list[tuple[int, int]],
    group: Sequence[Memory],
    form: EntryForm,
    ours: Sequence[Entry],
) -> dict[int, Placed]:
    """Where a section's new entries go (one place, or several in a list kept newest
    first), and the lines to insert there."""
    heading, _level = section
    start = heading + 1
    if start < len(lines) and lay.kinds[start] == blocks.UNDERLINE:
        start += 1
    stop = next((i for i, _lv in headings if i > heading), len(lines))  # its own part ends at any heading
    last = next((j for j in range(stop - 1, start - 1, -1) if lay.kinds[j] in _ENTRY_BLOCK), -1)
    if last >= 0 and lay.kinds[last] in blocks.TABLE:
        rows = _table_rows(lines, lay, last, group, form)
        return {last + 1: rows if rows is not None else ["", *_entry_lines(group, form)]}
    if last >= 0:
        dated = _by_date([e for e in ours if start <= e.line < stop], group, lay, form)
        return dated or {last + 1: _entry_lines(group, form)}
    text_end = _after_text(lay, start - 1, stop)
    if text_end > start:
        return {text_end: ["", *_entry_lines(group, form)]}  # after the section's prose, not into it
    return {start: _entry_lines(group, form)}


_ENTRY_BLOCK = frozenset({blocks.ITEM, blocks.CONTINUATION, *blocks.TABLE})


def _last_table_rows(lines: list[str], lay: blocks.Layout, group: Sequence[Memory], form: EntryForm) -> tuple[int, Placed] | None:
    """Rows after the index's last table, when its entries end in one with a column of links."""
    last = next((j for j in range(len(lines) - 1, -1, -1) if lay.kinds[j] in _ENTRY_BLOCK), -1)
    if last < 0 or lay.kinds[last] not in blocks.TABLE:
        return None
    rows = _table_rows(lines, lay, last, group, form)
    return (last + 1, rows) if rows is not None else None


def _table_rows(lines: list[str], lay: blocks.Layout, last: int, group: Sequence[Memory], form: EntryForm) -> Placed | None:
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
    said = linked + 1 if linked + 1 < columns else None
    outer = lines[head].strip().startswith("|")
    rows: Placed = []
    for m in sorted(group, key=lambda m: m.filename):
        cells = [""] * columns
        label = label_of(form, m)
        cells[linked] = f"[{_cell(escape_text(label))}]({escape_target(m.filename)})"
        if said is not None:
            cells[said] = _cell(described(m, label))
        row = " | ".join(cells)
        rows.append((m.filename, f"| {row} |" if outer else row.rstrip()))
    return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
