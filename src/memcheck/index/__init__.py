"""The deterministic MEMORY.md index: read it, render it, sync it (SPEC §5).

Everything here is a pure function of text, the store's documents and what exists
on disk, so the same store gives the same bytes on every machine, locale and
listing order.

What "listed" means is defined once, in ``survey``, and both ``memcheck check``
(IDX002, IDX003) and ``memcheck fix`` (``sync``) read an index through it, so the
two never disagree about which memories an index lists or which lines are dead.
"""
from __future__ import annotations

import bisect
import heapq
import posixpath
import re
import unicodedata
from functools import cache, lru_cache
from typing import Callable, Iterable, List, NamedTuple, Sequence, Tuple, Union
from urllib.parse import unquote

from memcheck.text import blocks
from memcheck.text.document import Document
from memcheck.text.mentions import mask_line

GROUPED, FLAT, FLAT_EMDASH = "grouped", "flat", "flat-emdash"
STYLES = (GROUPED, FLAT, FLAT_EMDASH)
GENERATE, SYNC = "generate", "sync"
MARK_START, MARK_END = "<!-- memcheck:start -->", "<!-- memcheck:end -->"
OTHER = "other"
SYNC_HEADING = "## Other"

Exists = Callable[[str], bool]  # does a store-relative path name a file or folder on disk?

_LINK_HEAD = r"^- \[(?:\\.|[^\]\\])*\]\([^)]*\)"
_ENTRY = {
    GROUPED: re.compile(_LINK_HEAD + r"(?: - .*| -)?$"),
    FLAT: re.compile(_LINK_HEAD + r"(?: - .*| -)?$"),
    FLAT_EMDASH: re.compile(_LINK_HEAD + r"(?: \u2014 .*| \u2014)?$"),
}
# An entry whose memory has no description: nothing tells the styles apart.
_BARE_ENTRY = re.compile(_LINK_HEAD + r"$")
# What memcheck wrote for an empty description before it stopped ending lines in
# whitespace: the entry is still its own, not a curator's.
_DANGLING_SEPARATOR = re.compile(r"(\))\s+(?:-|\u2014)\s*$")
_PLAIN_NAME = re.compile(r"[\w-][\w.-]*\Z")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
# The title is empty or ends in a non-space, so the closing run of spaces and `#`s is
# tried only after a non-space, and possessively: a heading with a long run of spaces
# is read in one pass, not once from each space (a heading with 8,000 spaces: 1.12 s
# to match, 4 times more per doubling -> 0.0002 s).
_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:\s+(|.*?\S))?(?:\s+#+)?\s*$")
_BACKSLASH_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # CommonMark escapes of ASCII punctuation


class Memory(NamedTuple):
    """What the index needs of one memory file."""

    filename: str  # base name, e.g. user_prefs.md
    name: str | None  # frontmatter name as the agents print it
    description: str | None
    type: str | None

    @property
    def stem(self) -> str:
        return self.filename[:-3] if self.filename.endswith(".md") else self.filename


def memory_of(filename: str, doc: Document) -> Memory:
    fm = doc.frontmatter
    if fm is None:
        return Memory(filename, None, None, None)
    kind = fm.display("type")
    if kind is None and isinstance(fm.data.get("metadata"), dict):
        nested = fm.data["metadata"].get("type")
        kind = nested if isinstance(nested, str) else None
    return Memory(filename, fm.display("name"), fm.display("description"), kind)


# ---------------------------------------------------------------- rendering


def _one_line(text: str) -> str:
    # Every character Python (and most editors) take as a line break, not only "\n":
    # a name holding one would split its entry.
    return " ".join(text.splitlines()) if not text.isprintable() else text


# A `<` that could open an autolink or a tag inside a link's text: an autolink there
# ends the link (links do not nest), a tag renders as HTML instead of the name.
_TAG_OPEN = re.compile(r"<(?=[A-Za-z/!?])")
_BACKTICKS = re.compile(r"`+")


def escape_text(text: str) -> str:
    """A name as a link's text: brackets and backslashes escaped, and every backtick
    that no later run of the same length closes (an unpaired one would pair with a
    backtick after the link and swallow it into a code span), and a `<` that could
    open a tag or an autolink."""
    text = _one_line(text).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    if "`" in text:
        text = _escape_unpaired_backticks(text)
    return _TAG_OPEN.sub(r"\\<", text) if "<" in text else text


def _escape_unpaired_backticks(text: str) -> str:
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(text)]
    # CommonMark: a run opens a code span that the next run of the same length closes;
    # a run nothing closes is literal. The next run of each length, found right to left.
    after: list[int] = [-1] * len(runs)
    latest: dict[int, int] = {}
    for k in range(len(runs) - 1, -1, -1):
        size = runs[k][1] - runs[k][0]
        after[k] = latest.get(size, -1)
        latest[size] = k
    unpaired = []
    k = 0
    while k < len(runs):
        if after[k] < 0:
            unpaired.append(runs[k])
            k += 1
        else:
            k = after[k] + 1
    for start, end in reversed(unpaired):
        text = text[:start] + "\\`" * (end - start) + text[end:]
    return text


# Characters that would end, split or change a link destination (a space ends it, `#`
# and `?` start a fragment or query, a backtick can open a code span across it, `%`
# starts an escape, `:` can make it a URL and a leading `~` a home folder), and every
# control or space character: percent-encoded, so the link reads back, whole, as
# the file's name.
_TARGET_SAFE = frozenset("!$&'*+,-.;=@_")


def escape_target(filename: str) -> str:
    if is_plain_name(filename):
        return filename  # the usual slug: nothing to encode
    out = []
    for ch in filename:
        if ch.isalnum() and ch.isprintable() or ch in _TARGET_SAFE:
            out.append(ch)
        else:
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogateescape")))
    return "".join(out)


def _default(value: str | None, fallback: str) -> str:
    # The agents' renderers use meta.get(key, default): a key that is present but
    # empty stays empty; only a missing key falls back.
    return fallback if value is None else value


def _name(m: Memory) -> str:
    # An empty name would make an invisible link, `[](m.md)`: the stem, as for a missing one.
    return m.stem if m.name is None or not m.name.strip() else m.name


def _entry(m: Memory, name: str, desc: str, dash: str) -> str:
    head = f"- [{escape_text(name)}]({escape_target(m.filename)})"
    desc = _one_line(desc).rstrip()
    # No line ends in whitespace: an empty description drops its separator, or the
    # common trailing-whitespace hook and `fix` would undo each other on every run.
    return f"{head} {dash} {desc}" if desc else head


def render(style: str, memories: Sequence[Memory], types: Sequence[str]) -> str:
    ordered = sorted(memories, key=lambda m: m.filename)
    if style == GROUPED:
        return _render_grouped(ordered, types)
    dash = "-" if style == FLAT else "\u2014"
    lines = [_entry(m, _name(m), _default(m.description, ""), dash) for m in ordered]
    return "\n".join(lines) + ("\n" if lines else "")


def _render_grouped(ordered: Sequence[Memory], types: Sequence[str]) -> str:
    # A transcription of seed 003's MemoryManager._rebuild_index, including its
    # defaults (name and description fall back to the stem, type to "other") and
    # its final strip(). Types outside the taxonomy go under "Other" rather than
    # vanishing, which is what the seed does with them. One difference: where the
    # seed ends an entry with an empty description in "- ", the separator goes.
    order = [*types, OTHER]
    sections: dict[str, list[str]] = {}
    for m in ordered:
        kind = m.type if m.type is not None and m.type in types else OTHER
        sections.setdefault(kind, []).append(_entry(m, _name(m), _default(m.description, m.stem), "-"))
    lines = ["# Memory\n"]
    for kind in order:
        if kind in sections:
            lines.append(f"## {kind.capitalize()}")
            lines.extend(sections[kind])
            lines.append("")
    return "\n".join(lines).strip() + "\n"


# ---------------------------------------------------------------- reading links


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
_LINK = re.compile(
    rf"\[({_TEXT})\]\(\s*(?!\s)(<[^<>\n]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
# `[x](Gone Notes.md)`: not a link to CommonMark (a raw space ends a destination),
# but a link to the agent that reads it, and to the curator who wrote it. Read only
# where no real link is, and only to a Markdown file, so that prose in brackets
# followed by a parenthesis (`[sic] (see above)`) stays prose.
_SPACED_LINK = re.compile(rf"\[({_TEXT})\]\(([^()<>\"'\n]*)\)")  # linear: one class, then `)`
# `[text][label]`, `[text][]` and the shortcut `[label]`: links when a definition
# has that label.
_REFERENCE = re.compile(rf"\[({_TEXT})\](?:\[((?:\\.|[^\[\]\\])*)\])?")


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
        if spaced_md and not _escaped(line, m.start()) and _span_at(found, starts, m.start()) is None and bisect.bisect_left(starts, m.start()) == bisect.bisect_left(starts, m.end()):
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
    """(label, link) of a link reference definition line, ``[label]: target``."""
    m = blocks.DEFINITION_LINE.match(line)
    if m is None or not m.group(1).strip():
        return None
    target = m.group(2)
    start, end = m.start(2), m.end(2)
    if target.startswith("<") and target.endswith(">"):
        target = target[1:-1]
    col = line.index("[") + 1
    return label_key(m.group(1)), Link(lineno, col, m.group(1), target, start, end, m.end(), DEFINED)


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


def detect_style(lines: Iterable[str]) -> str | None:
    """The entry style most of the index's entry lines use."""
    votes = {FLAT: 0, FLAT_EMDASH: 0}
    grouped_heads = 0
    for line in lines:
        if _BARE_ENTRY.match(line):
            continue  # a memory without a description: both styles write it so
        if _ENTRY[FLAT_EMDASH].match(line):
            votes[FLAT_EMDASH] += 1
        elif _ENTRY[FLAT].match(line):
            votes[FLAT] += 1
        elif line == "# Memory":
            grouped_heads += 1
    if not any(votes.values()):
        return None
    best = max(sorted(votes), key=lambda k: votes[k])
    if best == FLAT and grouped_heads:
        return GROUPED
    return best


def pure_style(lines: Sequence[str], types: Sequence[str], prefer: str | None = None) -> str | None:
    """The style when the text holds nothing but that style's headings and entries
    (``prefer`` first: entries without a description fit either flat style)."""
    body = [ln for ln in lines if ln.strip()]
    if not body:
        return None
    heads = {"# Memory"} | {f"## {t.capitalize()}" for t in (*types, OTHER)}
    tests = {
        FLAT_EMDASH: lambda ln: _ENTRY[FLAT_EMDASH].match(ln) is not None,
        FLAT: lambda ln: _ENTRY[FLAT].match(ln) is not None,
        GROUPED: lambda ln: ln in heads or _ENTRY[GROUPED].match(ln) is not None,
    }
    for style in dict.fromkeys([prefer, FLAT_EMDASH, FLAT, GROUPED]):
        if style is None or (style == GROUPED and body[0] != "# Memory"):
            continue
        if all(map(tests[style], body)):
            return style
    return None


# ---------------------------------------------------------------- what an index lists


# A memory is named by a link-less line when its file name stands there as a word, or
# its stem or `name` as a whole phrase: the text between two boundaries. A boundary
# is the start or end of the line, or punctuation and symbols (`:`, `|`, `*`, `—`,
# brackets, backticks, `，`...), except the characters that join the parts of a name
# (`-`, `.`, `'`, `+`, `/`, `&`, `@`, `%`, `$`, and `_`, a word character) where
# they stand between two non-spaces: `node.js`, `ci-cd`, `user's`, `c++`. Spaces
# belong to the phrase. So `- api: ...`, `**api**` and `| api |` name `api`, but
# "api tests" does not, nor does "Note 10" name `Note 1`.
_GLUE = r".'\u2019+\-/&@%$"
# A comma between two digits joins them as well (`Note 1,5`, a decimal comma, is not
# `Note 1`).
# A boundary starts at a punctuation character, never at a space: the spaces around it
# are the phrases' (which are read with their spaces collapsed), so the boundaries and
# phrases are those of a pattern that let a boundary take the spaces before it. Since
# the pattern starts with one class of characters, the regex engine skips to the next
# punctuation character in C instead of trying the whole pattern at every character
# (splitting a 70-character index line: 23 -> 2.6 us, a fifth of a check on link-less
# indexes). A glue run is tried whole only from its first character, and nothing
# after a space or glue run can start inside one, so giving back part of a run never
# makes a match: a line with a long run of spaces or glue is read in one pass (check
# on a line of 8,000 spaces: 13.78 -> 0.3 s CPU; of 16,000 dots: 9.06 -> 0.3 s; both
# were 4 times slower per doubling, now flat). That is why no quantifier needs to be
# possessive (`*+`, Python 3.11 and later only).
_PUNCTUATION = (
    r"[^\w\s]"  # then, of that character:
    rf"(?:(?<=[^{_GLUE},])"  # not glue nor a comma: a boundary;
    r"|(?<=,)(?:(?<!\d,)|(?!\d))"  # a comma not between two digits;
    rf"|(?<=[{_GLUE}])(?<!\S[{_GLUE}])[{_GLUE}]*"  # a glue run after a space or the start;
    rf"|(?<=[{_GLUE}])(?<![{_GLUE}][{_GLUE}])[{_GLUE}]*(?!\S))"  # a glue run before one, or the end
    r"\s*"
)
_BOUNDARY = f"{_PUNCTUATION}(?:{_PUNCTUATION})*"
# Words that may be a file name: split at spaces and the punctuation a file name in
# prose sits between; a sentence's trailing punctuation is stripped afterwards.
_WORDS = re.compile(r"[^\s`*|()\[\]{}<>\"\u201c\u201d]+")
# A name of more phrases than this (an absurd title of 17 punctuated parts) is
# matched by link, file name or stem only: it bounds the phrase windows tried per
# line, and so keeps the listing linear in the index's length.
_MAX_PHRASES = 16


@cache
def _boundaries() -> re.Pattern[str]:
    """The boundaries, kept by split() between the phrases: one pass over the text
    gives both (split and findall took two, a third of a check on link-less indexes).
    Compiled when first needed: its classes of glue take 4 ms to compile, and a run
    whose index lines all link their memories never needs it."""
    return re.compile(f"({_BOUNDARY})")


# A text of words and spaces (a file name's `.md` aside) holds no boundary: most
# stems, names and file names. It is one phrase, with no need to split it.
_NO_BOUNDARY = re.compile(r"[\w\s]*|\s*\w[\w\s]*(?<!\s)\.md\s*")


def _phrases(text: str) -> tuple[list[str], list[str]]:
    """The phrases of a text between boundaries (case-folded, spaces collapsed) and
    the boundary between each two (spaces removed)."""
    if _NO_BOUNDARY.fullmatch(text):
        phrase = " ".join(text.split()).casefold()
        return ([phrase] if phrase else []), []
    parts = _boundaries().split(text)  # phrase, boundary, phrase, ..., phrase
    phrases: list[str] = []
    seps: list[str] = []
    pending = ""
    for i in range(0, len(parts), 2):
        part = parts[i]
        phrase = " ".join(part.split()).casefold()
        if phrase:
            if phrases:
                seps.append(pending)
            phrases.append(phrase)
            pending = ""
        if i + 1 < len(parts):
            pending += "".join(parts[i + 1].split())
    return phrases, seps


def _window(phrases: list[str], seps: list[str], start: int, count: int) -> str:
    if count == 1:  # most names: one phrase, looked up as it is
        return phrases[start]
    parts = [phrases[start]]
    for i in range(start + 1, start + count):
        parts.append(seps[i - 1])
        parts.append(phrases[i])
    return "\x00".join(parts)


def _named(lines: Iterable[tuple[int, str]], memories: Sequence[Memory]) -> dict[int, set[str]]:
    """For each of these (line, text) pairs that names memories (see _BOUNDARY), the
    file names of those memories."""
    wanted: dict[str, set[str]] = {}  # phrase window -> memories it names
    sizes: set[int] = set()
    for m in memories:
        for text in {m.filename, m.stem, m.name or ""}:
            phrases, seps = _phrases(text)
            if phrases and len(phrases) <= _MAX_PHRASES:
                wanted.setdefault(_window(phrases, seps, 0, len(phrases)), set()).add(m.filename)
                sizes.add(len(phrases))
    filenames = {m.filename for m in memories}
    # A word that is a file name ends as every memory's file name does (`.md`): a line
    # without that ending anywhere is not split into words.
    tail = posixpath.commonprefix([f[::-1] for f in filenames])[::-1]
    found: dict[int, set[str]] = {}
    for lineno, line in lines:
        here: set[str] = set()
        phrases, seps = _phrases(line)
        for size in sizes:
            for start in range(len(phrases) - size + 1):
                hit = wanted.get(_window(phrases, seps, start, size))
                if hit:
                    here |= hit
        for word in _WORDS.findall(line) if tail in line else ():
            word = word.rstrip(".,;:!?'\u2019")
            if word.startswith("./"):
                word = word[2:]
            if word in filenames:
                here.add(word)
        if here:
            found[lineno] = here
    return found


REPOINT, REMOVE, KEEP = "re-point", "remove", "keep"
# Why `fix` keeps a dead link (Dead.why):
IGNORED = "ignored"  # git ignores its file, which another clone may have
IN_DESCRIPTION = "description"  # it is in an entry's description, after the entry's own link
AMBIGUOUS = "ambiguous"  # more than one memory looks like its file renamed
LAZY = "lazy"  # its list item goes on, on a line without indentation (Dead.at)
HOLDS = "holds"  # its list item holds another link, or names a memory (on line Dead.at)
NOT_ALONE = "not-alone"  # not the only link of a list item's line
NOT_MEMORY = "not-memory"  # not a Markdown file directly in the store: a curator's pointer
UNUSED = "unused"  # a definition no list item uses
SHARED = "shared"  # a definition several lines use
UNICODE_FORM = "unicode-form"  # (re-pointed) it names a memory file in another Unicode normalisation form


class Dead(NamedTuple):
    """A link in the index to a file of the store that is not on disk (for a reference
    link: its definition, where its target is written)."""

    line: int
    col: int
    target: str  # as written
    path: str  # store-relative, as read
    action: str  # REPOINT, REMOVE or KEEP: what `fix` does with it
    renamed: tuple[str, ...]  # the first few memories that look like its file renamed (one: re-pointed to it)
    candidates: int = 0  # how many memories look like its file renamed, all told
    why: str = ""  # for KEEP: why fix leaves it
    at: int = 0  # the line that reason is about (LAZY, HOLDS)
    span: tuple[int, int] = (0, 0)  # offsets of its target in its line
    drop: tuple[int, ...] = ()  # the lines (1-based) fix removes with it: its list item, all of it
    form: str = INLINE


class Survey(NamedTuple):
    """One reading of an index's lines against its store, shared by check and fix."""

    lines: list[str]
    layout: blocks.Layout
    # per line: (link, kind, store-relative path) of each link outside code and comments,
    # a reference definition's included
    resolved: list[tuple[tuple[Link, str, str], ...]]
    listed: frozenset[str]  # memory file names the index lists
    dead: dict[tuple[int, int], Dead]  # (line, col) -> local links to nothing on disk


Ignored = Callable[[Sequence[str]], set[str]]  # of these store-relative paths, those git ignores


def survey(
    text: str,
    memories: Sequence[Memory],
    exists: Exists | None = None,
    *,
    store_folder: str = "",
    ignored: Ignored | None = None,
    also_listed: frozenset[str] = frozenset(),
) -> Survey:
    """What the index lists, and what its dead links are.

    A line lists a memory when it links to the memory's file (see ``classify``:
    decoded, as written, then without fragment), inline or by reference
    (``[text][1]`` and a ``[1]: file.md`` definition anywhere in the index); an
    entry-like line (a list item, a table row, a paragraph line) without links to
    files lists a memory when it names it (see ``_named``) outside code spans. Code
    blocks, HTML comments, headings and definitions list nothing. ``also_listed``:
    memories listed around the text (outside its markers).

    A dead link is one to a file of the store that is not on disk (a folder, a file
    git ignores, a non-memory file all exist). ``fix`` re-points it when one unlisted
    memory looks like its file renamed (see ``_renames``); removes the list item it
    is the only link of, with the item's indented lines and nested items, when it
    names a Markdown file directly in the store (what a memory is) that git does not
    ignore; and otherwise leaves it (``Dead.why`` says why): a dead link to anything
    else is a curator's pointer, maybe to a file this clone lacks.
    """
    names = {m.filename for m in memories}
    if exists is None:
        exists = names.__contains__
    lines = text.split("\n")
    lay = blocks.layout(lines)
    defined: dict[str, Link] = {}
    for i, kind in enumerate(lay.kinds):
        if kind == blocks.DEFINITION:
            found_def = definition(lines[i], i + 1)
            if found_def is not None:
                defined.setdefault(*found_def)  # the first definition of a label counts
    resolved: list[tuple[tuple[Link, str, str], ...]] = []
    listed = set(also_listed)
    naming: list[tuple[int, str]] = []  # (line index, prose) of entry-like lines without links to files
    linking: set[int] = set()  # lines with a link to a file
    dead_links: list[tuple[Link, str]] = []
    equivalent: list[tuple[Link, str, str]] = []  # (link, path, the memory file it names in another Unicode form)
    by_form = {unicodedata.normalize("NFC", name): name for name in names if not name.isascii()}
    uses: dict[int, list[Link]] = {}  # definition line -> the reference links using it
    for i, (line, kind, prose) in enumerate(zip(lines, lay.kinds, lay.prose)):
        here = tuple((link, *_resolve(link.target, exists, store_folder)) for link in _line_links(line, kind, prose, i + 1, defined))
        resolved.append(here)
        for link, where, path in here:
            if where in ("anchor", "url"):
                continue
            if link.form == REFERENCE:
                uses.setdefault(link.ref, []).append(link)
            if link.form != DEFINED:
                linking.add(i)
                if where == "local" and path in names:
                    listed.add(path)
            if where != "local" or path in names or link.form == REFERENCE:
                continue
            same = by_form.get(unicodedata.normalize("NFC", path)) if by_form else None
            if same is not None:
                # The memory's own name in another Unicode form (`café` composed, the file
                # decomposed): macOS opens it, Linux does not. Listed, and re-pointed to
                # the exact name, on every system alike.
                listed.add(same)
                equivalent.append((link, path, same))
            elif not exists(path):
                dead_links.append((link, path))
        if i not in linking and kind in blocks.ENTRY_LIKE and prose.strip():
            naming.append((i, prose))
    unlisted = [m for m in memories if m.filename not in listed]
    named: dict[int, set[str]] = {}
    if unlisted and naming:
        named = _named(naming, unlisted)
        for hit in named.values():
            listed |= hit
    dead, claimed = _judge_dead(lines, lay, resolved, dead_links, uses, named, [m for m in memories if m.filename not in listed], ignored)
    # The memories that a dead entry may have been renamed to, when the curator has
    # to say which: listed by that entry, for now. Adding them would leave the entry
    # with nothing to be renamed to, and the next fix would remove its curated text.
    listed |= claimed
    for link, path, same in equivalent:
        dead[(link.line, link.col)] = Dead(link.line, link.col, link.target, path, REPOINT, (same,), 1, UNICODE_FORM, span=(link.start, link.end), form=link.form)
    return Survey(lines, lay, resolved, frozenset(listed), dict(sorted(dead.items())) if equivalent else dead)


def _line_links(line: str, kind: str, prose: str, lineno: int, defined: dict[str, Link]) -> list[Link]:
    """The links of one line: its definition, or its inline and reference links read
    in its prose (code spans and comments blanked), text and target as written."""
    if kind in blocks.NO_LINKS or "[" not in prose:
        return []
    if kind == blocks.DEFINITION:
        found = definition(line, lineno)
        return [found[1]] if found is not None else []
    inline = list(links(prose, lineno))
    if prose != line:
        inline = [link._replace(text=line[link.col : link.col + len(link.text)], target=_target_at(line, link)) for link in inline]
    if defined:
        inline.extend(references(line, prose, lineno, defined, inline))
        inline.sort(key=lambda link: link.col)
    return inline


def _target_at(line: str, link: Link) -> str:
    target = line[link.start : link.end]
    return target[1:-1] if target.startswith("<") and target.endswith(">") else target


def _resolve(target: str, exists: Exists, store_folder: str) -> tuple[str, str]:
    """(kind, store-relative path) of a link target, as ``classify`` reads it; a path
    that climbs out of the store and back in (``../memory/b.md`` in ``.claude/memory``)
    is the store's file."""
    kind, path = classify(target, "", exists)
    if kind in ("outside-repo", "escapes") and store_folder:
        inside = _into_store(target, store_folder, exists)
        if inside is not None:
            return "local", inside
    return kind, path


def _into_store(target: str, store_folder: str, exists: Exists) -> str | None:
    """The store-relative path of a target that leaves the store and comes back:
    the first reading that lands in the store and exists, else the browser's reading
    if it lands there."""
    options, browser = readings(target)
    prefix = f"{store_folder}/"
    landed = {}
    for reading in dict.fromkeys((*options, browser)):
        joined = posixpath.normpath(posixpath.join(store_folder, reading))
        if joined.startswith(prefix):
            landed[reading] = joined[len(prefix) :]
    found = next((path for path in landed.values() if exists(path)), None)
    return found if found is not None else landed.get(browser)


def _is_memory_path(path: str) -> bool:
    return "/" not in path and path.endswith(".md")


def _judge_dead(
    lines: list[str],
    lay: blocks.Layout,
    resolved: list[tuple[tuple[Link, str, str], ...]],
    dead_links: list[tuple[Link, str]],
    uses: dict[int, list[Link]],
    named: dict[int, set[str]],
    unlisted: Sequence[Memory],
    ignored: Ignored | None,
) -> tuple[dict[tuple[int, int], Dead], set[str]]:
    """Each dead link's Dead, and the memories claimed by the ones whose renamed
    file the curator has to choose (see _renames)."""
    if not dead_links:
        return {}, set()
    git_ignores = ignored(sorted({path for _link, path in dead_links})) if ignored is not None else set()
    why: dict[int, str] = {}  # index in dead_links -> why it is kept, decided before renames
    renaming: list[tuple[int, tuple[str, ...], str]] = []  # (index, link texts, dead path) of rename candidates
    for k, (link, path) in enumerate(dead_links):
        line = lines[link.line - 1]
        if link.form == INLINE and lay.kinds[link.line - 1] == blocks.ITEM and is_entry(line) and resolved[link.line - 1][0][0] is not link:
            why[k] = IN_DESCRIPTION
        elif path in git_ignores:
            why[k] = IGNORED
        elif not _is_memory_path(path):
            why[k] = NOT_MEMORY
        else:
            texts = tuple(use.text for use in uses.get(link.line, ())) if link.form == DEFINED else (link.text,)
            renaming.append((k, texts, path))
    renames, claimed = _renames(renaming, unlisted)
    dead: dict[tuple[int, int], Dead] = {}
    dropped: set[int] = set()  # 0-based lines of the items removed so far
    # Last first: an item nested in a dead item is judged, and maybe removed, before the item it is in.
    for k in range(len(dead_links) - 1, -1, -1):
        link, path = dead_links[k]
        shown, count, chosen = renames.get(k, ((), 0, None))
        found = Dead(link.line, link.col, link.target, path, KEEP, shown, count, why.get(k, ""), span=(link.start, link.end), form=link.form)
        if chosen is not None:
            found = found._replace(action=REPOINT, renamed=(chosen,), candidates=1)
        elif k in why:
            pass
        elif count:
            found = found._replace(why=AMBIGUOUS)  # several memories, or a memory other dead links want too
        else:
            reason, at, drop = _removal(lay, resolved, link, uses, named, dropped)
            if reason:
                found = found._replace(why=reason, at=at)
            else:
                found = found._replace(action=REMOVE, drop=drop)
                dropped.update(line - 1 for line in drop)
        dead[(link.line, link.col)] = found
    return dict(sorted(dead.items())), claimed


def _removal(
    lay: blocks.Layout,
    resolved: list[tuple[tuple[Link, str, str], ...]],
    link: Link,
    uses: dict[int, list[Link]],
    named: dict[int, set[str]],
    dropped: set[int],
) -> tuple[str, int, tuple[int, ...]]:
    """Whether fix may remove the list item a dead link is the only link of: ("", 0,
    its lines), or (why not, the line that is about, ())."""
    item = link.line - 1
    also: tuple[int, ...] = ()
    if link.form == DEFINED:
        users = uses.get(link.line, [])
        if not users:
            return UNUSED, 0, ()
        if len(users) > 1:
            return SHARED, 0, ()
        item, also = users[0].line - 1, (link.line,)
        link = users[0]
    if lay.kinds[item] != blocks.ITEM or any(x[1] != "anchor" and x[0] is not link for x in resolved[item]):
        return NOT_ALONE, 0, ()
    end, lazy = blocks.item_extent(lay, item)
    if lazy >= 0:
        return LAZY, lazy + 1, ()
    for j in range(item + 1, end):
        if j in dropped:
            continue
        if named.get(j) or any(x[1] != "anchor" for x in resolved[j]):
            return HOLDS, j + 1, ()
    return "", 0, tuple(sorted({*range(item + 1, end + 1), *also}))


# The evidence that a memory is a dead link's file renamed, strongest first: the
# link's text or the dead file's stem is the memory's `name` or stem, but for case,
# spacing and Unicode normalisation; the same but also for `-`, `_`, `*` and
# backticks. The strongest evidence that names any memory decides.
_LOOSE = re.compile(r"[\s_\-*`]+")


def _exact(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text.replace("\\", "")).split()).casefold()


def _loose(text: str) -> str:
    return _LOOSE.sub(" ", unicodedata.normalize("NFC", text.replace("\\", ""))).strip().casefold()


def _memory_keys(m: Memory, tier: int) -> set[str]:
    key = _exact if tier == 1 else _loose
    return {k for k in (key(m.stem), key(m.name or "")) if k}


def _dead_keys(texts: Sequence[str], path: str, tier: int) -> set[str]:
    key = _exact if tier == 1 else _loose
    stem = path[:-3] if path.endswith(".md") else path
    return {k for k in (*map(key, texts), key(stem)) if k}


def _renames(dead: list[tuple[int, tuple[str, ...], str]], unlisted: Sequence[Memory]) -> tuple[dict[int, tuple[tuple[str, ...], int, str | None]], set[str]]:
    """For dead links (index, link texts, dead path): (up to 3 memories that look like
    its file renamed, how many do, the one fix re-points it to or None); and the
    memories the links fix cannot re-point claim (the curator chooses among them).

    A dead link with one candidate that no other dead link has as its only candidate
    is re-pointed; with several, or one other links want too, the user chooses.
    Memories are looked up by key, not tried against every dead link: linear in
    links and memories however many share a name (only the smaller of a link's
    candidate lists is walked, a list is walked once per set of keys, and the claimed
    memories are gathered once per key)."""
    result: dict[int, tuple[tuple[str, ...], int, str | None]] = {}
    claimed: set[str] = set()
    if not dead or not unlisted:
        return result, claimed
    ordered = sorted(unlisted, key=lambda m: m.filename)
    taken: set[str] = set()
    pending = list(dead)
    for tier in (1, 2):
        index: dict[str, list[str]] = {}
        for m in ordered:
            if m.filename not in taken:
                for key in _memory_keys(m, tier):
                    index.setdefault(key, []).append(m.filename)
        as_sets: dict[str, set[str]] = {}
        known: dict[frozenset[str], tuple[tuple[str, ...], int]] = {}
        sole: dict[str, list[int]] = {}
        waiting = []
        open_keys: set[str] = set()  # keys of the links the curator has to settle
        for k, texts, path in pending:
            keys = frozenset(_dead_keys(texts, path, tier))
            got = known.get(keys)
            if got is None:
                got = known[keys] = _union(keys, index, as_sets)
            first, count = got
            if not count:
                waiting.append((k, texts, path))
                continue
            result[k] = (first, count, None)
            if count == 1:
                sole.setdefault(first[0], []).append(k)
            else:
                open_keys |= keys
        for name, claims in sole.items():
            if len(claims) == 1:
                result[claims[0]] = ((name,), 1, name)
                taken.add(name)
            else:
                claimed.add(name)
        for key in open_keys:
            claimed.update(name for name in index.get(key, ()) if name not in taken)
        pending = waiting
    return result, claimed


def _union(keys: frozenset[str], index: dict[str, list[str]], as_sets: dict[str, set[str]]) -> tuple[tuple[str, ...], int]:
    """(the first 3 in name order, how many) of the memories the keys' lists hold."""
    lists = sorted(((key, index[key]) for key in keys if key in index), key=lambda kv: (len(kv[1]), kv[0]))
    if not lists:
        return (), 0
    big_key, big = lists[-1]
    if len(lists) == 1:
        return tuple(big[:3]), len(big)
    big_set = as_sets.get(big_key)
    if big_set is None:
        big_set = as_sets[big_key] = set(big)
    extra = sorted({name for _key, names in lists[:-1] for name in names if name not in big_set})
    return tuple(heapq.nsmallest(3, [*big[:3], *extra])), len(big) + len(extra)


def listed_files(text: str, memories: Sequence[Memory], exists: Exists | None = None) -> set[str]:
    """File names of the memories the index lists (see ``survey``)."""
    return set(survey(text, memories, exists).listed)


# ---------------------------------------------------------------- planning


class Changes(NamedTuple):
    """What ``fix`` does to one index, for its report."""

    added: tuple[tuple[str, int], ...] = ()  # (memory file, line of its new entry)
    repointed: tuple[tuple[str, str], ...] = ()  # (target as written, memory file)
    removed: tuple[str, ...] = ()  # targets of the dead entries removed
    rewrote: tuple[str, ...] = ()  # memory files whose entry text a regenerated index replaced


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
    caps: tuple[int, int] | None = None,
) -> Plan:
    """Decide mode and style for one index and work out what it should hold.

    ``exists`` and ``ignored`` answer for paths relative to the store's folder,
    ``store_folder``; ``caps`` (lines, bytes) is how much of the index agents load,
    which sync mode places new entries inside when it can."""
    memories = sorted(memories, key=lambda m: m.filename)
    if existing is None:
        chosen = style or GROUPED
        origin = "from index.style in the config" if style else "the default for a new index"
        reason = f"mode generate (automatic): there is no MEMORY.md yet; style {chosen} ({origin})"
        text = render(chosen, memories, types)
        return Plan(GENERATE, chosen, reason, text, region=(0, len(text.split("\n"))))
    existing = line_breaks(existing)
    marked = split_markers(existing)
    region = marked[1] if marked else existing
    region_lines = region.split("\n")
    # A memory the text around the markers lists is listed: the block neither repeats
    # it nor counts it as added.
    around = survey(marked[0] + marked[2], memories, exists, store_folder=store_folder).listed if marked else frozenset()
    pure = pure_style(region_lines, types, style) if region.strip() else None
    pure_render: str | None = None  # the render of every memory in style ``pure``, once made
    if mode is None:
        if marked:
            mode, why = GENERATE, "the marker block is memcheck's to regenerate"
        elif not region.strip() or (pure is not None and (style is None or pure == style)):
            if pure is not None:
                pure_render = render(pure, memories, types)
            # An index that is exactly the render (as agents and `fix` write it) holds no
            # line of its own: no need to look for one (a hypothesis test checks it).
            kept = None if pure is None or pure_render == region else _line_to_keep(region_lines, memories, pure, types, exists)
            if kept is None:
                what = f"nothing but {pure}-style headings and entries" if pure else "nothing"
                mode, why = GENERATE, f"MEMORY.md holds {what}, so regenerating loses nothing"
            else:
                mode, why = SYNC, kept
        else:
            mode, why = SYNC, "MEMORY.md holds curated text (headings, notes or other entry forms) that regenerating would lose"
        why_mode = f"mode {mode} (automatic): {why}"
    else:
        why_mode = f"mode {mode} (from index.mode in the config)"
    if style is not None:
        why_style = f"style {style} (from index.style in the config)"
    else:
        detected = detect_style(region_lines) or pure
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
    if mode == GENERATE:
        new_region = pure_render if pure_render is not None and style == pure and not around else render(style, [m for m in memories if m.filename not in around], types)
    else:
        found = survey(region, memories, exists, store_folder=store_folder, ignored=ignored, also_listed=around)
        if caps is not None and marked:
            caps = (caps[0] - first, caps[1] - len(marked[0].encode("utf-8")))  # the region starts that far in
        new_region, changes = sync(region, memories, exists, style, types, found, caps)
        if changes.added and first:
            changes = changes._replace(added=tuple((name, line + first) for name, line in changes.added))
    text = normalise((marked[0] + new_region + marked[2]) if marked else new_region)
    return Plan(mode, style, f"{why_mode}; {why_style}", text, bool(marked), (first, end), found, changes, around)


def _entries_as_rendered(style: str, memories: Sequence[Memory]) -> dict[str, str]:
    """Each memory's entry line as ``render`` writes it in this style."""
    dash = "\u2014" if style == FLAT_EMDASH else "-"
    return {m.filename: _entry(m, _name(m), _default(m.description, m.stem if style == GROUPED else ""), dash) for m in memories}


def _line_to_keep(lines: Sequence[str], memories: Sequence[Memory], style: str, types: Sequence[str], exists: Exists) -> str | None:
    """Why regenerating an index of nothing but ``style`` entries would lose a line,
    if it would: an entry links to something that exists but is not a memory (a
    folder, a file of another kind), or carries a name or description other than
    its memory's: a hand-written one (people write all three styles by hand, and
    edit what an agent wrote), which regenerating would replace."""
    names = {m.filename for m in memories}
    rendered = _entries_as_rendered(style, memories)
    for lineno, line in enumerate(lines, 1):
        for link in links(line, lineno)[:1]:
            kind, path = classify(link.target, "", exists)
            if kind == "local" and path not in names and exists(path):
                return f"line {lineno} links to {path}, which is not a memory file: regenerating would drop the line"
            if kind == "local" and path in rendered and rendered[path] != _DANGLING_SEPARATOR.sub(r"\1", line):
                return f"line {lineno} ({path}) carries a name or description other than its memory's, which regenerating would replace"
    return None


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
    where = []
    for lineno in range(start + 1, end + 1):
        for link in links(lines[lineno - 1], lineno)[:1]:
            kind, path = classify(link.target, "", exists)
            if kind == "local" and path in added:
                where.append((path, lineno))
    # Regenerating drops every dead entry of the region, whatever sync would do with
    # it, and replaces every entry whose text is not its memory's render.
    rendered = _entries_as_rendered(plan.style, [m for m in memories if m.filename not in plan.around])
    rewrote = []
    for line, resolved in zip(before.lines, before.resolved):
        if resolved and is_entry(line):
            link, kind, path = resolved[0]
            if kind == "local" and path in rendered and path not in added and rendered[path] != _DANGLING_SEPARATOR.sub(r"\1", line):
                rewrote.append(path)
    return Changes(tuple(where), (), tuple(d.target for d in before.dead.values()), tuple(sorted(set(rewrote))))


# ---------------------------------------------------------------- sync mode


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
    return [(m.filename, _entry(m, _name(m), _default(m.description, ""), dash)) for m in group]


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
        cells[linked] = f"[{_cell(escape_text(_name(m)))}]({escape_target(m.filename)})"
        if described is not None:
            cells[described] = _cell(_one_line(_default(m.description, "")).strip())
        row = " | ".join(cells)
        rows.append((m.filename, f"| {row} |" if outer else row.rstrip()))
    return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
