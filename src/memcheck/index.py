"""The deterministic MEMORY.md index: read it, render it, sync it (SPEC §5).

Everything here is a pure function of text, the store's documents and what exists
on disk, so the same store gives the same bytes on every machine, locale and
listing order.

What "listed" means is defined once, in ``survey``, and both ``memcheck check``
(IDX002, IDX003) and ``memcheck fix`` (``sync``) read an index through it, so the
two never disagree about which memories an index lists or which lines are dead.
"""
from __future__ import annotations

import posixpath
import re
from functools import lru_cache
from typing import Callable, Iterable, NamedTuple, Sequence
from urllib.parse import unquote

from memcheck.document import Document

GROUPED, FLAT, FLAT_EMDASH = "grouped", "flat", "flat-emdash"
STYLES = (GROUPED, FLAT, FLAT_EMDASH)
GENERATE, SYNC = "generate", "sync"
MARK_START, MARK_END = "<!-- memcheck:start -->", "<!-- memcheck:end -->"
OTHER = "other"
SYNC_HEADING = "## Other"

Exists = Callable[[str], bool]  # does a store-relative path name a file or folder on disk?

# [text](target "title") with backslash-escaped brackets in text; target may be <...>.
# Linear on any line (a long line of `[` or `](` took minutes): an escaped `\[`
# opens nothing, the text stops at the next `[` as well as at `]` (the innermost
# brackets are the link, as in CommonMark), `<...>` at the next `<`, and the spaces
# before the target are taken whole (the lookahead), so no run of characters is
# tried again from every start.
_LINK = re.compile(
    r"(?<!\\)\[((?:\\.|[^\[\]\\])*)\]\(\s*(?!\s)(<[^<>\n]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
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
_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$")
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})")
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


def escape_text(text: str) -> str:
    return _one_line(text).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


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
    lines = [_entry(m, _default(m.name, m.stem), _default(m.description, ""), dash) for m in ordered]
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
        sections.setdefault(kind, []).append(_entry(m, _default(m.name, m.stem), _default(m.description, m.stem), "-"))
    lines = ["# Memory\n"]
    for kind in order:
        if kind in sections:
            lines.append(f"## {kind.capitalize()}")
            lines.extend(sections[kind])
            lines.append("")
    return "\n".join(lines).strip() + "\n"


# ---------------------------------------------------------------- reading links


class Link(NamedTuple):
    line: int  # 1-based
    col: int  # 1-based, of the `[`
    text: str
    target: str  # as written, without <> and title
    start: int  # offsets of the destination in the line, <> included
    end: int


# Remembered: checking a store reads each index line more than once (entries, listing,
# link targets), and a line is the same line each time.
@lru_cache(maxsize=4096)
def links(line: str, lineno: int) -> tuple[Link, ...]:
    if "](" not in line:  # most lines of a curated index hold no link: skip the regex
        return ()
    found = []
    for m in _LINK.finditer(line):
        target = m.group(2)
        if target.startswith("<") and target.endswith(">"):
            target = target[1:-1]
        found.append(Link(lineno, m.start() + 1, m.group(1), target, m.start(2), m.end(2)))
    return tuple(found)


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


def fenced(lines: Sequence[str]) -> list[bool]:
    """For each line, whether it belongs to a fenced code block (its fences too).

    A link or a marker in a code block is an example, not an entry: nothing in one
    lists a memory, is removed, or is regenerated. An unclosed fence runs to the end,
    as CommonMark has it. (The same rule as ``mentions.prose``, which also blanks
    code spans and comments, where the index needs only the fences.)
    """
    return _scan_fences(lines)[0]


def _scan_fences(lines: Sequence[str]) -> tuple[list[bool], str | None]:
    """The ``fenced`` mask, and the fence of a code block still open at the end."""
    mask = []
    fence: str | None = None
    for line in lines:
        if fence is not None:
            mask.append(True)
            stripped = line.strip()
            if len(line) - len(line.lstrip(" ")) < 4 and stripped.startswith(fence) and stripped.strip(fence[0]) == "":
                fence = None
            continue
        m = _FENCE_OPEN.match(line) if ("```" in line[:7] or "~~~" in line[:7]) else None
        if m and not (m.group(1)[0] == "`" and "`" in line[m.end() :]):
            fence = m.group(1)
            mask.append(True)
            continue
        mask.append(False)
    return mask, fence


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
_BOUNDARY = re.compile(rf"\s*(?:(?:[^\w\s{_GLUE}]|(?<!\S)[{_GLUE}]+|[{_GLUE}]+(?!\S))\s*)+")
# Words that may be a file name: split at spaces and the punctuation a file name in
# prose sits between; a sentence's trailing punctuation is stripped afterwards.
_WORDS = re.compile(r"[^\s`*|()\[\]{}<>\"\u201c\u201d]+")
_SPACES = re.compile(r"\s+")
# A name of more phrases than this (an absurd title of 17 punctuated parts) is
# matched by link, file name or stem only: it bounds the phrase windows tried per
# line, and so keeps the listing linear in the index's length.
_MAX_PHRASES = 16


def _phrases(text: str) -> tuple[list[str], list[str]]:
    """The phrases of a text between boundaries (case-folded, spaces collapsed) and
    the boundary between each two (spaces removed)."""
    parts = _BOUNDARY.split(text)
    between = _BOUNDARY.findall(text)
    phrases: list[str] = []
    seps: list[str] = []
    pending = ""
    for i, part in enumerate(parts):
        phrase = _SPACES.sub(" ", part).strip().casefold() if part else ""
        if phrase:
            if phrases:
                seps.append(pending)
            phrases.append(phrase)
            pending = ""
        if i < len(between):
            pending += _SPACES.sub("", between[i])
    return phrases, seps


def _window(phrases: list[str], seps: list[str], start: int, count: int) -> str:
    parts = [phrases[start]]
    for i in range(start + 1, start + count):
        parts.append(seps[i - 1])
        parts.append(phrases[i])
    return "\x00".join(parts)


def _named(lines: Iterable[str], memories: Sequence[Memory]) -> set[str]:
    """File names of the memories that these link-less lines name (see _BOUNDARY)."""
    wanted: dict[str, set[str]] = {}  # phrase window -> memories it names
    sizes: set[int] = set()
    for m in memories:
        for text in {m.filename, m.stem, m.name or ""}:
            phrases, seps = _phrases(text)
            if phrases and len(phrases) <= _MAX_PHRASES:
                wanted.setdefault(_window(phrases, seps, 0, len(phrases)), set()).add(m.filename)
                sizes.add(len(phrases))
    filenames = {m.filename for m in memories}
    found: set[str] = set()
    for line in lines:
        phrases, seps = _phrases(line)
        for size in sizes:
            for start in range(len(phrases) - size + 1):
                hit = wanted.get(_window(phrases, seps, start, size))
                if hit:
                    found |= hit
        for word in _WORDS.findall(line):
            word = word.rstrip(".,;:!?'\u2019")
            if word.startswith("./"):
                word = word[2:]
            if word in filenames:
                found.add(word)
    return found


class Dead(NamedTuple):
    """A link in the index to a file of the store that is not on disk."""

    line: int
    col: int
    target: str  # as written
    path: str  # store-relative, as read
    action: str  # REPOINT, REMOVE or KEEP: what `fix` does with it
    renamed: tuple[str, ...]  # memories that look like its file renamed (one: re-pointed to it)


REPOINT, REMOVE, KEEP = "re-point", "remove", "keep"


class Survey(NamedTuple):
    """One reading of an index's lines against its store, shared by check and fix."""

    lines: list[str]
    fenced: list[bool]
    # per line: (link, kind, store-relative path) of each link outside code blocks
    resolved: list[tuple[tuple[Link, str, str], ...]]
    listed: frozenset[str]  # memory file names the index lists
    dead: dict[tuple[int, int], Dead]  # (line, col) -> local links to nothing on disk


def survey(text: str, memories: Sequence[Memory], exists: Exists | None = None) -> Survey:
    """What the index lists, and what its dead links are.

    A line lists a memory when it links to the memory's file (see ``classify``:
    decoded, as written, then without fragment); a line without links to files
    lists a memory when it names it (see ``_named``): a name inside a link's text, a
    dead link's included, lists nothing. Lines in code blocks list nothing.

    A dead link is one to a file of the store that is not on disk (a folder, a file
    git ignores, a non-memory file all exist). ``fix`` re-points it when exactly one
    unlisted memory looks like its file renamed (same `name` as the link's text or
    the dead file's stem, or the same stem but for case, `-`, `_` and spaces) and no
    other dead link claims that memory; otherwise it removes the line if it is a
    list item whose only link this is, and the link names a Markdown file directly in
    the store (what a memory is): a dead link to anything else is a curator's
    pointer, maybe to a file this clone lacks (generated, or not committed), and stays.
    """
    names = {m.filename for m in memories}
    if exists is None:
        exists = names.__contains__
    lines = text.split("\n")
    mask = fenced(lines)
    resolved: list[tuple[tuple[Link, str, str], ...]] = []
    listed: set[str] = set()
    linkless: list[str] = []
    dead_links: list[tuple[Link, str, bool]] = []  # (link, path, the line's only link in a list item)
    for lineno, (line, in_code) in enumerate(zip(lines, mask), 1):
        found = () if in_code else links(line, lineno)
        here = tuple((link, *classify(link.target, "", exists)) for link in found)
        resolved.append(here)
        to_files = [(link, kind, path) for link, kind, path in here if kind not in ("anchor", "url")]
        if not to_files:
            if not in_code and line.strip():
                linkless.append(line)
            continue
        only = len([x for x in here if x[1] != "anchor"]) == 1 and is_list_item(line)
        for link, kind, path in to_files:
            if kind != "local":
                continue
            if path in names:
                listed.add(path)
            elif not exists(path):
                dead_links.append((link, path, only))
    unlisted = [m for m in memories if m.filename not in listed]
    if unlisted and linkless:
        listed |= _named(linkless, unlisted)
    dead = _judge_dead(dead_links, [m for m in memories if m.filename not in listed])
    return Survey(lines, mask, resolved, frozenset(listed), dead)


def _rename_keys(*texts: str) -> set[str]:
    keys = set()
    for text in texts:
        key = re.sub(r"[\s_\-*`]+", " ", text.replace("\\", "")).strip().casefold()
        if key:
            keys.add(key)
    return keys


def _judge_dead(dead_links: list[tuple[Link, str, bool]], unlisted: Sequence[Memory]) -> dict[tuple[int, int], Dead]:
    by_key: dict[str, set[str]] = {}
    for m in unlisted:
        for key in _rename_keys(m.stem, m.name or ""):
            by_key.setdefault(key, set()).add(m.filename)
    candidates = []
    claims: dict[str, int] = {}
    for link, path, _only in dead_links:
        is_memory = "/" not in path and path.endswith(".md")
        stem = path[:-3] if path.endswith(".md") else path
        found: set[str] = set()
        if is_memory:
            for key in _rename_keys(link.text, stem):
                found |= by_key.get(key, set())
        candidates.append(tuple(sorted(found)))
        for name in found:
            claims[name] = claims.get(name, 0) + 1
    dead = {}
    for (link, path, only), renamed in zip(dead_links, candidates):
        is_memory = "/" not in path and path.endswith(".md")
        if len(renamed) == 1 and claims[renamed[0]] == 1:
            action = REPOINT
        elif is_memory and only:
            action = REMOVE
        else:
            action = KEEP
        dead[(link.line, link.col)] = Dead(link.line, link.col, link.target, path, action, renamed)
    return dead


def listed_files(text: str, memories: Sequence[Memory], exists: Exists | None = None) -> set[str]:
    """File names of the memories the index lists (see ``survey``)."""
    return set(survey(text, memories, exists).listed)


# ---------------------------------------------------------------- planning


class Changes(NamedTuple):
    """What ``fix`` does to one index, for its report."""

    added: tuple[tuple[str, int], ...] = ()  # (memory file, line of its new entry)
    repointed: tuple[tuple[str, str], ...] = ()  # (target as written, memory file)
    removed: tuple[str, ...] = ()  # targets of the dead entries removed


class Plan(NamedTuple):
    mode: str
    style: str
    reason: str
    text: str  # the index as it should be
    marked: bool = False  # only the text between the markers is memcheck's
    region: tuple[int, int] = (0, 0)  # lines (0-based, end exclusive) of the text fix rewrites
    survey: Survey | None = None  # of that region, in sync mode
    changes: Changes | None = None  # in sync mode; see changes_of for generate mode


def split_markers(text: str) -> tuple[str, str, str] | None:
    """(before-and-start-line, inside, end-line-and-after) when both markers are
    present, each alone on its line and outside code blocks."""
    if MARK_START not in text:
        return None
    lines = text.split("\n")
    mask = fenced(lines)
    start = end = -1
    for i, (line, in_code) in enumerate(zip(lines, mask)):
        if in_code:
            continue
        if len(line) - len(line.lstrip()) >= 4:
            continue  # indented four columns: code, not a marker
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
) -> Plan:
    """Decide mode and style for one index and work out what it should hold.

    ``exists`` answers for paths relative to the store's folder."""
    memories = sorted(memories, key=lambda m: m.filename)
    if existing is None:
        chosen = style or GROUPED
        origin = "from index.style in the config" if style else "the default for a new index"
        reason = f"mode generate (automatic): there is no MEMORY.md yet; style {chosen} ({origin})"
        text = render(chosen, memories, types)
        return Plan(GENERATE, chosen, reason, text, region=(0, len(text.split("\n"))))
    marked = split_markers(existing)
    region = marked[1] if marked else existing
    region_lines = region.split("\n")
    pure = pure_style(region_lines, types, style) if region.strip() else None
    if mode is None:
        if marked:
            mode, why = GENERATE, "the marker block is memcheck's to regenerate"
        elif not region.strip() or (pure is not None and (style is None or pure == style)):
            kept = _line_to_keep(region_lines, memories, pure, types, exists) if pure else None
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
    found: Survey | None = None
    changes: Changes | None = None
    if mode == GENERATE:
        new_region = render(style, memories, types)
    else:
        found = survey(region, memories, exists)
        new_region, changes = sync(region, memories, exists, style, types, found)
        if changes.added and first:
            changes = changes._replace(added=tuple((name, line + first) for name, line in changes.added))
    text = normalise((marked[0] + new_region + marked[2]) if marked else new_region)
    end = first + len(region_lines) - (1 if marked else 0)
    return Plan(mode, style, f"{why_mode}; {why_style}", text, bool(marked), (first, end), found, changes)


def _line_to_keep(lines: Sequence[str], memories: Sequence[Memory], style: str, types: Sequence[str], exists: Exists) -> str | None:
    """Why regenerating an index of nothing but ``style`` entries would lose a line,
    if it would: an entry links to something that exists but is not a memory (a
    folder, a file of another kind), or carries a hand-written name or description.

    ``grouped`` is the seed 003 renderer's own format, so its entries are taken as
    machine-written (a stale one is drift to report, not text to keep). The flat
    forms are also what people and Claude Code write by hand; there an entry that
    is not the render is a curated hook, and regenerating would lose it.
    """
    names = {m.filename for m in memories}
    rendered = {} if style == GROUPED else {m.filename: line for m, line in zip(memories, render(style, memories, types).split("\n"))}
    for lineno, line in enumerate(lines, 1):
        for link in links(line, lineno)[:1]:
            kind, path = classify(link.target, "", exists)
            if kind == "local" and path not in names and exists(path):
                return f"line {lineno} links to {path}, which is not a memory file: regenerating would drop the line"
            if kind == "local" and path in rendered and rendered[path] != _DANGLING_SEPARATOR.sub(r"\1", line):
                return f"line {lineno} carries a hand-written name or description that regenerating would replace"
    return None


def normalise(text: str) -> str:
    """UTF-8 without BOM, LF line endings, exactly one final newline (empty stays empty)."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    if not text.strip():
        return ""
    return text.rstrip("\n") + "\n"


def changes_of(plan: Plan, existing: str | None, memories: Sequence[Memory], exists: Exists) -> Changes:
    """What ``fix`` adds, re-points and removes when it writes ``plan``."""
    if plan.changes is not None:
        return plan.changes
    old = ""
    if existing is not None:
        marked = split_markers(existing)
        old = marked[1] if marked else existing
    before = survey(old, memories, exists)
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
    # Regenerating drops every dead entry of the region, whatever sync would do with it.
    return Changes(tuple(where), (), tuple(d.target for d in before.dead.values()))


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
) -> tuple[str, Changes]:
    """Keep the curator's index and make it agree with the store.

    Every line and its order is kept, except that a dead entry is re-pointed in
    place or removed (see ``survey``). Memories still unlisted get entries in the
    index's style, sorted: into the section for their type when the index has type
    sections (a section it lacks is added at the end), else into an `Other` section,
    or under a final `## Other` heading when the index has sections (a lone title is
    not one), else at its end. Returns the text
    and what changed (each new entry's line counted in this text).
    """
    if found is None:
        found = survey(text, memories, exists)
    lines: list[str] = []
    in_code: list[bool] = []
    repointed: list[tuple[str, str]] = []
    removed: list[str] = []
    for resolved, line, code in zip(found.resolved, found.lines, found.fenced):
        dead = [found.dead[(link.line, link.col)] for link, _kind, _path in resolved if (link.line, link.col) in found.dead]
        if any(d.action == REMOVE for d in dead):
            removed.append(dead[0].target)
            continue
        by_col = {link.col: link for link, _kind, _path in resolved}
        for d in sorted((d for d in dead if d.action == REPOINT), key=lambda d: -d.col):
            link = by_col[d.col]  # right to left: earlier offsets stay true
            line = line[: link.start] + escape_target(d.renamed[0]) + line[link.end :]
            repointed.append((d.target, d.renamed[0]))
        lines.append(line)
        in_code.append(code)
    listed = found.listed | {name for _target, name in repointed}
    missing = [m for m in sorted(memories, key=lambda m: m.filename) if m.filename not in listed]
    if not missing:
        return "\n".join(lines), Changes((), tuple(repointed), tuple(removed))
    # New entries at the end go after the last line with text; the blank lines and
    # the final newline after it are the end of the text, not part of a section.
    while lines and not lines[-1].strip() and not in_code[-1]:
        lines.pop()
        in_code.pop()
    dash = "\u2014" if style == FLAT_EMDASH else "-"
    placed = _place_entries(lines, in_code, missing, types, _scan_fences(found.lines)[1])
    out: list[str] = []
    added: list[tuple[str, int]] = []
    for i in range(len(lines) + 1):
        for item in placed.get(i, ()):
            if isinstance(item, str):
                out.append(item)
            else:
                out.append(_entry(item, _default(item.name, item.stem), _default(item.description, ""), dash))
                added.append((item.filename, len(out)))
        if i < len(lines):
            out.append(lines[i])
    return "\n".join(out) + "\n", Changes(tuple(sorted(added)), tuple(repointed), tuple(removed))


def _place_entries(
    lines: list[str], in_code: list[bool], missing: Sequence[Memory], types: Sequence[str], open_fence: str | None
) -> dict[int, list[Memory | str]]:
    """Where new entries go: for a line number, what to insert before that line
    (``len(lines)``: at the end), entries with any heading or blank line they need."""
    headings: list[tuple[int, int]] = []  # (line, level) of every heading outside code
    sections: dict[str, tuple[int, int]] = {}  # memory type or Other -> its first heading
    for i, (line, code) in enumerate(zip(lines, in_code)):
        m = None if code or "#" not in line[:4] else _HEADING.match(line)
        if m is None:
            continue
        headings.append((i, len(m.group(1))))
        named = _heading_type(m.group(2) or "", types)
        if named is not None:
            sections.setdefault(named, (i, len(m.group(1))))
    typed = any(kind in sections for kind in types)
    # A lone `# Title` is the index's name, not a section: entries then simply follow.
    sectioned = len(headings) > 1 or any(level > 1 for _i, level in headings)
    groups: dict[str, list[Memory]] = {}
    for memory in missing:
        groups.setdefault(memory.type if typed and memory.type in types and memory.type else OTHER, []).append(memory)
    at: dict[int, list[Memory | str]] = {}
    tail: list[Memory | str] = []
    level = min((lv for kind, (_i, lv) in sections.items() if kind in types), default=2)
    for kind in [*types, OTHER]:
        group = groups.get(kind)
        if not group:
            continue
        if kind in sections:
            at.setdefault(_section_end(lines, in_code, sections[kind], headings), []).extend(group)
            continue
        if not tail and open_fence is not None:
            # The text ends inside a code block nobody closed: close it first, or the
            # new entries would be code, and the next run would add them again.
            tail.append(open_fence)
        if sectioned:
            if lines:
                tail.append("")
            tail.append(f"{'#' * level} {kind.capitalize()}")
        elif lines and not tail and not is_list_item(lines[-1]) and not lines[-1].startswith((" ", "\t")):
            tail.append("")  # a list straight after a paragraph would run into it
        tail.extend(group)
    if tail:
        at.setdefault(len(lines), []).extend(tail)
    return at


def _section_end(lines: list[str], in_code: list[bool], section: tuple[int, int], headings: list[tuple[int, int]]) -> int:
    """Where a section's new entries go: after its last list item (and that item's
    indented lines), before any subsection; right after the heading when the section
    has no list of its own."""
    start, _level = section
    stop = next((i for i, _lv in headings if i > start), len(lines))  # its own part ends at any heading
    insert = start + 1
    in_item = False
    for i in range(start + 1, stop):
        line = lines[i]
        if in_code[i]:
            in_item = False
        elif is_list_item(line) and not line.startswith((" ", "\t")):
            insert, in_item = i + 1, True
        elif in_item and line.strip() and line.startswith((" ", "\t")):
            insert = i + 1
        elif line.strip():
            in_item = False
    return insert
