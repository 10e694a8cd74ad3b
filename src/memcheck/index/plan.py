"""Planning: decide an index's mode and style, and work out what it should hold.

``plan`` is what ``memcheck fix`` writes and ``memcheck check`` compares against:
in generate mode the render of the store, in sync mode the curator's index made to
agree with it (see ``sync``), and with markers only the text between them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Collection, Sequence

from memcheck import lazy_regex
from memcheck.index.fit import fits, fitted_render
from memcheck.index.links import classify, is_entry, is_plain_name, links
from memcheck.index.render import GROUPED, detect_style, entries_as_rendered, headings, pure_style, render, writes
from memcheck.index.survey import Survey, lists_no_file, survey
from memcheck.index.sync import Changes, sync
from memcheck.records import NamedTuple
from memcheck.text import blocks
from memcheck.text.mentions import mask_line

if TYPE_CHECKING:
    from memcheck.index.memory import Exists, Ignored, Memory

GENERATE, SYNC = "generate", "sync"
MARK_START, MARK_END = "<!-- memcheck:start -->", "<!-- memcheck:end -->"
# What memcheck wrote for an empty description before it stopped ending lines in
# whitespace: the entry is still its own, not a curator's.
_DANGLING_SEPARATOR = lazy_regex.compile(r"(\))\s+(?:-|\u2014)\s*$")


class Plan(NamedTuple):
    mode: str
    style: str
    reason: str
    text: str  # the index as it should be
    marked: bool = False  # only the text between the markers is memcheck's
    region: tuple[int, int] = (0, 0)  # lines (0-based, end exclusive) of the text fix rewrites
    survey: Survey | None = None  # of that region, in sync mode
    changes: Changes | None = None  # in sync mode; see changes_of for generate mode
    around: frozenset[str] = frozenset()  # memories the text outside the markers lists
    refused: tuple[str, ...] = ()  # memories not added: no room under the caps


def line_breaks(text: str) -> str:
    """LF line endings: CRLF and a lone CR (old Mac files, which read as one line otherwise) alike."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def split_markers(text: str) -> tuple[str, str, str] | None:
    """(before-and-start-line, inside, end-line-and-after) when both markers are
    present, each alone on its line, outside code blocks and not inside another
    HTML comment (read as the index's other lines are: see blocks.layout)."""
    if MARK_START not in text:
        return None
    lines = text.split("\n")
    kinds = blocks.layout(lines).kinds
    start = end = -1
    in_comment = False
    for i, (line, kind) in enumerate(zip(lines, kinds)):
        if kind == blocks.CODE:
            continue
        was_comment = in_comment
        if in_comment or "<!--" in line:
            in_comment = mask_line(line, in_comment)[1]
        if was_comment or len(line) - len(line.lstrip()) >= 4:
            continue  # inside a comment already open, or indented four columns (code): not a marker
        if start < 0 and line.strip() == MARK_START:
            start = i
        elif start >= 0 and line.strip() == MARK_END:
            end = i
            break
    if start < 0 or end < 0:
        return None
    before = "\n".join(lines[: start + 1]) + "\n"
    inside = "\n".join(lines[start + 1 : end]) + ("\n" if end > start + 1 else "")
    return before, inside, "\n".join(lines[end:])


def plan(
    existing: str | None,
    memories: Sequence[Memory],
    exists: Exists,
    types: Sequence[str],
    mode: str | None,
    style: str | None,
    *,
    store_folder: str = "",
    ignored: Ignored | None = None,
    unstaged: Ignored | None = None,
    caps: tuple[int, int] | None = None,
    settle: bool = True,
    listed_elsewhere: frozenset[str] = frozenset(),
) -> Plan:
    """Decide mode and style for one index and work out what it should hold.

    ``exists``, ``ignored`` and ``unstaged`` answer for paths relative to the store's folder,
    ``store_folder``; ``caps`` (lines, bytes) is how much of the index agents load,
    which sync mode places new entries inside when it can. ``settle`` False: no second
    look at what sync leaves (the second look itself). ``listed_elsewhere``: memories an
    index file that this one links lists (see ``store.listed_by_linked_indexes``):
    listed, as those the text around the markers lists."""
    memories = sorted(memories, key=lambda m: m.filename)
    automatic, style_asked = mode is None, style
    if existing is None:
        chosen = style or GROUPED
        origin = "from index.style in the config" if style else "the default for a new index"
        reason = f"mode generate (automatic): there is no MEMORY.md yet; style {chosen} ({origin})"
        text, left_out = fitted_render(chosen, memories, types, caps, None, exists)
        return Plan(GENERATE, chosen, reason, text, region=(0, len(text.split("\n"))), refused=left_out)
    existing = line_breaks(existing)
    marked = split_markers(existing)
    region = marked[1] if marked else existing
    region_lines = region.split("\n")
    # A memory the text around the markers lists is listed: the block neither repeats
    # it nor counts it as added.
    around = survey(marked[0] + marked[2], memories, exists, store_folder=store_folder).listed if marked else frozenset()
    around |= listed_elsewhere
    pure = pure_style(region_lines, types, style) if region.strip() else None
    pure_render: str | None = None  # the render of every memory in style ``pure``, once made
    if mode is None:
        if marked:
            mode, why = GENERATE, "the marker block is memcheck's to regenerate"
        elif not region.strip() or (pure is not None and (style is None or pure == style)):
            curated = None
            if pure is not None:
                pure_render = render(pure, memories, types)
                # An index that is the render (as agents and `fix` write it, blank lines
                # aside) holds no line of its own: no need to look for one (a hypothesis
                # test checks it).
                if not same_but_blank_lines(pure_render, region):
                    curated = _line_to_keep(region_lines, memories, pure, types, exists, unstaged)
            if curated is None:
                what = f"nothing but {pure}-style headings and entries in that style's order" if pure else "nothing"
                mode, why = GENERATE, f"MEMORY.md holds {what}, so regenerating loses nothing"
            else:
                mode, why = SYNC, curated
        else:
            mode, why = SYNC, _foreign_line(region_lines, types, style or detect_style(region_lines) or GROUPED)
        why_mode = f"mode {mode} (automatic): {why}"
    else:
        why_mode = f"mode {mode} (from index.mode in the config)"
    if style is not None:
        why_style = f"style {style} (from index.style in the config)"
    else:
        # A text of one style's lines alone has that style's entries, if any: detecting
        # it again, entry by entry, can only say the same (or nothing).
        detected = pure if pure is not None else detect_style(region_lines)
        style = detected or GROUPED
        origin = "detected from the existing entries" if detected else "the default for an index without entries"
        why_style = f"style {style} ({origin})"
    first = marked[0].count("\n") if marked else 0
    end = first + len(region_lines) - (1 if marked else 0)
    if not region.strip() and all(m.filename in around for m in memories):
        # No memories to list (none, or all listed around the markers) and nothing in
        # the index: settled, in every style (an empty grouped render would be a lone
        # `# Memory`, an empty flat one nothing at all, and the style of an empty index
        # is the default one: each would undo the other).
        nothing = "the store holds no memories" if not memories else "the text around the markers lists every memory"
        empty = "its marker block is empty" if marked else "the index is empty"
        why_mode = f"mode {mode}: {nothing} and {empty}, so there is nothing to write"
        return Plan(mode, style, f"{why_mode}; {why_style}", existing, bool(marked), (first, end), around=around)
    found: Survey | None = None
    changes: Changes | None = None
    room = _room(caps, marked)
    refused: tuple[str, ...] = ()
    kept = False  # the region is the render but for blank lines: left as it is
    if mode == GENERATE:
        new_region = (
            pure_render
            if pure_render is not None and style == pure and not around
            else render(style, [m for m in memories if m.filename not in around], types)
        )
        if room is not None and not fits(new_region, room, not marked):
            new_region, refused = fitted_render(
                style, [m for m in memories if m.filename not in around], types, room, region, exists, store_folder, not marked
            )
        if same_but_blank_lines(new_region, region):
            # Blank lines are a Markdown formatter's (around headings and lists): kept,
            # or fix and the formatter would undo each other on every run.
            new_region, kept = region, True
    else:
        found = survey(region, memories, exists, store_folder=store_folder, ignored=ignored, unstaged=unstaged, also_listed=around)
        if not marked and lists_no_file(found):
            new_region, changes = region, Changes()  # no file index: nothing of it is fix's to list
        else:
            new_region, changes = sync(region, memories, exists, style, types, found, room, not marked)
        refused = changes.refused
        if changes.added and first:
            changes = changes._replace(added=tuple((name, line + first) for name, line in changes.added))
    if marked:
        text = normalise(marked[0] + new_region + marked[2])
    elif kept:  # blank lines at its end too
        text = existing.lstrip("\ufeff") + ("" if existing.endswith("\n") else "\n")
    else:
        text = normalise(new_region)
        if changes is not None and not any(changes) and text.rstrip("\n") == existing.lstrip("\ufeff").rstrip("\n"):
            # Nothing to sync but blank lines at the end: a formatter's, kept, as check
            # judges the index (fix rewrote a clean index, and failed the fix hook).
            text = existing.lstrip("\ufeff") + ("" if existing.endswith("\n") else "\n")
    # (pure_style first: cheap, and a synced index that keeps a line of its own is never pure.)
    if (
        settle
        and automatic
        and mode == SYNC
        and not marked
        and changes is not None
        and pure_style(text.split("\n"), types, style_asked) is not None
    ):
        # Sync can leave nothing of the curator's (every line it kept was dead): the
        # next run would then find an index to regenerate. Settle in this run, so that a
        # second fix changes nothing (a hypothesis test found `# Memory` over one dead
        # nested entry going flat, then grouped).
        again = plan(
            text,
            memories,
            exists,
            types,
            None,
            style_asked,
            store_folder=store_folder,
            ignored=ignored,
            unstaged=unstaged,
            caps=caps,
            settle=False,
            listed_elsewhere=listed_elsewhere,
        )
        if again.mode == GENERATE and again.text != text:
            text, refused = again.text, again.refused
            line_of: dict[str, int] = {}
            for name, lineno in entry_lines(
                text.split("\n"), 0, text.count("\n") + 1, {name for name, _line in changes.added} | set(changes.refused), exists
            ):
                line_of.setdefault(name, lineno)
            changes = changes._replace(added=tuple(sorted(line_of.items())), refused=refused)
    if settle and mode == GENERATE and style_asked is None and refused:
        # The caps can leave a detected style's render with no entry at all, and the
        # next run would find an empty index, of the default style, to render again
        # (a hypothesis test found an emptied flat marker block gaining `# Memory`).
        # Settle in this run, so that a second fix changes nothing.
        again = plan(
            text,
            memories,
            exists,
            types,
            None if automatic else mode,
            None,
            store_folder=store_folder,
            ignored=ignored,
            unstaged=unstaged,
            caps=caps,
            settle=False,
            listed_elsewhere=listed_elsewhere,
        )
        if again.text != text:
            text, refused, style = again.text, again.refused, again.style
    return Plan(mode, style, f"{why_mode}; {why_style}", text, bool(marked), (first, end), found, changes, around, refused)


def _room(caps: tuple[int, int] | None, marked: tuple[str, str, str] | None) -> tuple[int, int] | None:
    """The caps left for the text fix rewrites: the whole index's, or what the text
    around the markers leaves of them."""
    if caps is None or marked is None:
        return caps
    tail = marked[2].rstrip("\n") + "\n"
    return caps[0] - marked[0].count("\n") - tail.count("\n"), caps[1] - len(marked[0].encode("utf-8")) - len(tail.encode("utf-8"))


def entry_lines(lines: Sequence[str], start: int, end: int, names: Collection[str], exists: Exists) -> list[tuple[str, int]]:
    """(file name, line) of each entry among ``lines[start:end]`` whose first link is to
    one of ``names``, in one pass over the lines (1-based line numbers)."""
    where = []
    for lineno in range(start + 1, end + 1):
        for link in links(lines[lineno - 1], lineno)[:1]:
            kind, path = classify(link.target, "", exists)
            if kind == "local" and path in names:
                where.append((path, lineno))
    return where


def _line_to_keep(
    lines: Sequence[str], memories: Sequence[Memory], style: str, types: Sequence[str], exists: Exists, unstaged: Ignored | None = None
) -> str | None:
    """Why regenerating an index of nothing but ``style`` headings and entries would
    lose something, if it would: the first line where the index keeps an order of its
    own (sections out of type order, entries out of file-name order: a curator's, as
    the render sorts) or a line of its own: an entry that links to something that
    exists but is not a memory (a folder, a file of another kind), or carries a name
    or description other than its memory's (people write all three styles by hand, and
    edit what an agent wrote), which regenerating would replace; or, judging what is
    staged, an entry whose file is on disk but not staged (``unstaged``).

    An entry under another type's section is neither: the memory's type changed since
    the index was rendered, and regenerating moves it (IDX006 says so)."""
    names = {m.filename for m in memories}
    rendered = entries_as_rendered(style, memories)
    rank = headings(tuple(types)) if style == GROUPED else {}
    section: tuple[int, str] | None = None  # (rank, heading) of the section the lines are in
    previous = ""  # the file the section's last entry links to
    for lineno, line in enumerate(lines, 1):
        if line in rank:
            if section is not None and rank[line] == section[0]:
                return f"section {line} comes twice (line {lineno})"
            if section is not None and rank[line] < section[0]:
                return f"sections are not in type order (line {lineno}: {section[1]} before {line})"
            section, previous = (rank[line], line), ""
            continue
        for link in links(line, lineno)[:1]:
            kind, path = classify(link.target, "", exists)
            if kind != "local":
                continue
            if rank and section is None:
                # The grouped render puts every entry under its type's heading: an entry
                # under none was written by hand (`# Memory` and one entry is the usual
                # start of a curated index, and one entry has no order to betray it).
                return f"line {lineno} ({path}) is under no type heading, where the grouped render puts every entry: written by hand"
            if path < previous:
                return f"entries are not in file-name order (line {lineno}: {previous} before {path})"
            previous = path
            if path not in names and exists(path):
                return f"line {lineno} links to {path}, which is not a memory file: regenerating would drop the line"
            if path not in names and unstaged is not None and not exists(path) and unstaged([path]):
                return f"line {lineno} links to {path}, which is on disk but not staged: regenerating would drop the entry"
            if path in rendered and rendered[path] != _DANGLING_SEPARATOR.sub(r"\1", line):
                return f"line {lineno} ({path}) carries a name or description other than its memory's, which regenerating would replace"
    return None


def _foreign_line(lines: Sequence[str], types: Sequence[str], style: str) -> str:
    """Why an index that is not one style's headings and entries alone is curated: its
    first line that ``style`` (the one asked for, or the one its entries use) does not
    write."""
    first = next((n for n, line in enumerate(lines, 1) if line.strip()), 0)
    for lineno, line in enumerate(lines, 1):
        if line.strip() and not writes(style, line, types, first=lineno == first):
            what = "a grouped heading or entry" if style == GROUPED else f"a {style} entry"
            shown = line.strip() if len(line.strip()) <= 60 else line.strip()[:59] + "\u2026"
            return f"line {lineno} ({shown}) is not {what}, so regenerating would lose it"
    return "MEMORY.md holds curated text (headings, notes or other entry forms) that regenerating would lose"


def same_but_blank_lines(a: str, b: str) -> bool:
    """The same lines but for blank ones, which Markdown formatters add and remove
    around headings and lists (markdownlint's MD022 and MD032)."""
    return [line for line in a.split("\n") if line.strip()] == [line for line in b.split("\n") if line.strip()]


def normalise(text: str) -> str:
    """UTF-8 without BOM, LF line endings, exactly one final newline (empty stays empty)."""
    text = line_breaks(text.lstrip("\ufeff"))
    if not text.strip():
        return ""
    return text.rstrip("\n") + "\n"


def changes_of(plan: Plan, existing: str | None, memories: Sequence[Memory], exists: Exists) -> Changes:
    """What ``fix`` adds, re-points, removes and rewrites when it writes ``plan``."""
    if plan.changes is not None:
        return plan.changes
    old = ""
    if existing is not None:
        existing = line_breaks(existing)
        marked = split_markers(existing)
        old = marked[1] if marked else existing
    before = survey(old, memories, exists, also_listed=plan.around)
    added = {m.filename for m in memories if m.filename not in before.listed}
    lines = plan.text.split("\n")
    start, end = 0, len(lines)
    written = split_markers(plan.text) if plan.marked else None
    if written is not None:
        start = written[0].count("\n")
        end = start + written[1].count("\n")
    where = entry_lines(lines, start, end, added, exists)
    # Regenerating drops every dead entry of the region, whatever sync would do with
    # it, and replaces every entry whose text is not its memory's render.
    rendered = entries_as_rendered(plan.style, [m for m in memories if m.filename not in plan.around])
    rewrote = []
    for line, resolved in zip(before.lines, before.resolved):
        if resolved and is_entry(line):
            link, kind, path = resolved[0]
            if kind == "local" and path in rendered and path not in added and rendered[path] != _DANGLING_SEPARATOR.sub(r"\1", line):
                rewrote.append(path)
    return Changes(tuple(where), (), tuple(d.target for d in before.dead.values()), tuple(sorted(set(rewrote))), refused=plan.refused)


def is_own_render(plan: Plan, text: str, memories: Sequence[Memory]) -> bool:
    """The index is exactly what ``memcheck fix`` writes for these memories, and so
    holds one entry per memory file, linking to it by its plain name, and no other
    link: the link and listing rules (IDX002-IDX005) have nothing to find, and are
    not run. (The usual case for an index memcheck keeps; tests/cli/test_fast_paths.py
    checks the claim against the long way.)

    A name or description holding ``](`` could make a second link on its line, a
    file name that is not plain (``#``, ``%``, spaces) is escaped in its link, and
    an index with markers keeps curated text around the render: those take the long
    way."""
    return (
        plan.mode == GENERATE
        and not plan.marked
        and not plan.refused
        and plan.text == text
        and all(is_plain_name(m.filename) and "](" not in (m.name or "") and "](" not in (m.description or "") for m in memories)
    )
