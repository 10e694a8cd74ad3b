"""Reading an index's links: inline, reference and definition links, and where each points.

Links are read as CommonMark reads them (escapes, balanced brackets, ``<...>``
destinations, titles, reference labels), plus the one thing agents and curators read
as a link that CommonMark does not: a target with a raw space in it. ``classify``
says where a target points, relative to the store's folder.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Sequence
from urllib.parse import unquote

from memcheck import lazy_regex
from memcheck.records import NamedTuple
from memcheck.text.mentions import reference_definition

if TYPE_CHECKING:
    from memcheck.index.memory import Exists

_PLAIN_NAME = lazy_regex.compile(r"[\w-][\w.-]*\Z")
_SCHEME = lazy_regex.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_LIST_ITEM = lazy_regex.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_BACKSLASH_ESCAPE = lazy_regex.compile(r"\\([!-/:-@\[-`{-~])")  # CommonMark escapes of ASCII punctuation


INLINE, DEFINED, REFERENCE = "inline", "definition", "reference"


class Link(NamedTuple):
    line: int  # 1-based
    col: int  # 1-based, of the `[`
    text: str
    target: str  # as written, without <> and title
    start: int  # offsets of the destination in the line, <> included
    end: int
    stop: int = 0  # offset just after the whole link
    form: str = INLINE  # INLINE `[t](x.md)`; DEFINED `[1]: x.md`; REFERENCE `[t][1]` (target: its definition's)
    ref: int = 0  # of a REFERENCE link: its definition's line (where start and end are)


# [text](target "title"): the text may hold escaped brackets and one level of
# balanced ones (`[Phi [nested] notes](phi.md)`), the target may be <...>. Linear on
# any line: the text stops at an unbalanced `[` as well as at `]`, `<...>` at the
# next `<`, and the spaces before the target are taken whole (the lookahead).
_TEXT = r"(?:\\.|[^\[\]\\]|\[(?:\\.|[^\[\]\\])*\])*"
_LINK = lazy_regex.compile(rf"\[({_TEXT})\]\(\s*(?!\s)(<[^<>\n]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
# `[x](Gone Notes.md)`: not a link to CommonMark (a raw space ends a destination),
# but a link to the agent that reads it, and to the curator who wrote it. Read only
# where no real link is, and only to a Markdown file, so that prose in brackets
# followed by a parenthesis (`[sic] (see above)`) stays prose.
_SPACED_LINK = lazy_regex.compile(rf"\[({_TEXT})\]\(([^()<>\"'\n]*)\)")  # linear: one class, then `)`
# `[text][label]`, `[text][]` and the shortcut `[label]`: links when a definition
# has that label.
_REFERENCE = lazy_regex.compile(rf"\[({_TEXT})\](?:\[((?:\\.|[^\[\]\\])*)\])?")


def _escaped(line: str, at: int) -> bool:
    """Whether the character at ``at`` is backslash-escaped (an odd run of backslashes before it)."""
    run = 0
    while at - run > 0 and line[at - run - 1] == "\\":
        run += 1
    return run % 2 == 1


# Remembered: checking a store reads each index line more than once (entries, listing,
# link targets), and a line is the same line each time.
@lru_cache(maxsize=4096)
def links(line: str, lineno: int) -> tuple[Link, ...]:
    """The inline links of a line of Markdown text (``\\[`` opens none)."""
    if "](" not in line:  # most lines of a curated index hold no link: skip the regex
        return ()
    found = []
    at = 0
    while (m := _LINK.search(line, at)) is not None:
        if _escaped(line, m.start()):
            at = m.start() + 1
            continue
        target = m.group(2)
        if target.startswith("<") and target.endswith(">"):
            target = target[1:-1]
        found.append(Link(lineno, m.start() + 1, m.group(1), target, m.start(2), m.end(2), m.end()))
        at = m.end()
    if "](" in line and " " in line:
        found.extend(_spaced_links(line, lineno, found))
        found.sort(key=lambda link: link.col)
    return tuple(found)


def _spaced_links(line: str, lineno: int, found: Sequence[Link]) -> list[Link]:
    """Links whose target holds a raw space (see _SPACED_LINK), outside ``found``."""
    starts = [link.col - 1 for link in found]
    spaced = []
    for m in _SPACED_LINK.finditer(line):
        target = m.group(2).strip()
        path, _hash, fragment = target.partition("#")
        spaced_md = path.endswith(".md") and " " in path and not any(c.isspace() for c in fragment)
        if (
            spaced_md
            and not _escaped(line, m.start())
            and _span_at(found, starts, m.start()) is None
            and bisect.bisect_left(starts, m.start()) == bisect.bisect_left(starts, m.end())
        ):
            start = m.start(2) + m.group(2).index(target[0])
            spaced.append(Link(lineno, m.start() + 1, m.group(1), target, start, start + len(target), m.end()))
    return spaced


def _span_at(found: Sequence[Link], starts: Sequence[int], offset: int) -> int | None:
    """The end of the link of ``found`` (in order, ``starts`` their offsets) that
    covers ``offset``, if one does: a bisection, not a walk over the line's links."""
    k = bisect.bisect_right(starts, offset) - 1
    return found[k].stop if k >= 0 and offset < found[k].stop else None


def label_key(label: str) -> str:
    """A reference label as CommonMark matches it: case-folded, white space collapsed."""
    return " ".join(label.split()).casefold()


def definition(line: str, lineno: int) -> tuple[str, Link] | None:
    """(label, link) of a link reference definition line, ``[label]: target``, read
    as CommonMark reads one (``mentions.reference_definition``)."""
    found = reference_definition(line)
    if found is None:
        return None
    col = line.index("[") + 1
    return label_key(found.label), Link(lineno, col, found.label, found.target, found.start, found.end, found.stop, DEFINED)


def references(line: str, prose: str, lineno: int, defined: dict[str, Link], taken: Sequence[Link]) -> list[Link]:
    """The reference links of a line (read in ``prose``, the line with its code spans
    blanked), each with its definition's target and offsets: ``[text][label]``,
    ``[text][]`` and ``[label]``. ``taken``: the line's inline links, which no
    reference overlaps."""
    found: list[Link] = []
    starts = [link.col - 1 for link in taken]  # in order, not overlapping
    at = 0
    while (m := _REFERENCE.search(prose, at)) is not None:
        start = m.start()
        inline = _span_at(taken, starts, start)
        if inline is not None:
            at = inline
            continue
        if _escaped(prose, start):
            at = start + 1
            continue
        labels = [(m.group(2) or m.group(1), m.end())] if m.group(2) is not None else []
        labels.append((m.group(1), m.end(1) + 1))  # a full reference to no definition: maybe a shortcut
        for label, stop in labels:
            target = defined.get(label_key(label))
            if target is not None:
                text = line[m.start(1) : m.end(1)]
                found.append(Link(lineno, start + 1, text, target.target, target.start, target.end, stop, REFERENCE, target.line))
                at = stop
                break
        else:
            at = start + 1  # not a link: a bracket inside may still be one
    return found


def is_plain_name(target: str) -> bool:
    """A file name that is its own link target: nothing to escape or unquote."""
    return _PLAIN_NAME.match(target) is not None


def readings(target: str) -> tuple[tuple[str, ...], str]:
    """The paths a link target can name, most literal first, and the one a browser
    would open. First the whole target (backslash escapes and percent-encoding
    decoded: ``c%23sharp.md``), then as written (a file really named ``a%20b.md``),
    then without its ``#fragment`` or ``?query``: ``c#sharp.md`` names that file
    before it names ``c``. A browser reads the last of these."""
    unescaped = _BACKSLASH_ESCAPE.sub(r"\1", target) if "\\" in target else target
    whole = unquote(unescaped, errors="surrogateescape")
    found = [whole, unescaped]
    cut = min((i for i in (unescaped.find("#"), unescaped.find("?")) if i >= 0), default=-1)
    browser = whole
    if cut >= 0:
        browser = unquote(unescaped[:cut], errors="surrogateescape")
        found.append(browser)
    return tuple(dict.fromkeys(found)), browser


def classify(target: str, store_folder: str, exists: Exists | None = None) -> tuple[str, str]:
    """(kind, path) of a link target written in the store's MEMORY.md.

    kind is ``anchor``, ``url``, ``absolute``, ``outside-repo`` (climbs above the
    repository root), ``escapes`` (uses ``..`` to leave the store) or ``local``;
    path is the repository-relative file for the last two and for ``local``.
    ``exists`` (on paths in the same frame as ``store_folder``) picks the reading of
    the target that names something on disk; without one, or when none does, the
    target is read as a browser reads it: decoded, without fragment or query.
    """
    if is_plain_name(target):  # the common `file.md` entry: nothing to unquote or normalise
        return "local", f"{store_folder}/{target}" if store_folder else target
    if not target or target.startswith("#"):
        return "anchor", ""
    if _SCHEME.match(target) or target.startswith("//"):
        return "url", target
    if target.startswith(("/", "~")):
        return "absolute", target
    options, fallback = readings(target)
    if exists is not None and len(options) > 1:
        for reading in options:
            placed = _place(reading, store_folder)
            if placed[0] != "outside-repo" and exists(placed[1]):
                return placed
    if not fallback:
        return "anchor", ""  # `?query` alone: this page
    return _place(fallback, store_folder)


def _place(path: str, store_folder: str) -> tuple[str, str]:
    joined = posixpath.normpath(posixpath.join(store_folder, path) if store_folder else path)
    if joined == ".." or joined.startswith("../"):
        return "outside-repo", joined
    prefix = f"{store_folder}/" if store_folder else ""
    if (joined.startswith(prefix) or joined == store_folder) and ".." not in path.split("/"):
        return "local", joined
    return "escapes", joined


def is_list_item(line: str) -> bool:
    return _LIST_ITEM.match(line) is not None


def is_entry(line: str) -> bool:
    """A list item that starts with its link (``- [name](file.md) ...``), as index
    entries do; a note that mentions a file mid-sentence is not an entry for it."""
    m = _LIST_ITEM.match(line)
    return m is not None and line[m.end() :].lstrip("*_ ").startswith("[")


def is_heading(line: str) -> bool:
    return line.startswith("#") and re.match(r"^#{1,6}(\s|$)", line) is not None
