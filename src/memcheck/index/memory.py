"""What the index engine knows of a store: its memories, and what it asks of disk and git.

A ``Memory`` is the little of a memory file that an index shows (file name, name,
description, type, and what its body starts with), and the dates an index may be
ordered by; ``Exists`` and ``Ignored`` are how the engine asks about paths relative
to the store's folder, so that it stays a pure function of what it is given.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Callable, Sequence

from memcheck import lazy_regex
from memcheck.records import NamedTuple

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.text.frontmatter_reading import Frontmatter

Exists = Callable[[str], bool]  # does a store-relative path name a file or folder on disk?
Ignored = Callable[[Sequence[str]], set[str]]  # of these store-relative paths, those git ignores

NO_DATES: tuple[str | None, str | None, str | None] = (None, None, None)


class Memory(NamedTuple):
    """What the index needs of one memory file."""

    filename: str  # base name, e.g. user_prefs.md
    name: str | None  # frontmatter name as the agents print it
    description: str | None
    type: str | None
    body: str = ""  # what follows the frontmatter
    # What an index may be ordered by, each an ISO date (and time) or None: `updated`
    # (or `modified`), `created` (or `date`), a date in the file name.
    dates: tuple[str | None, str | None, str | None] = NO_DATES
    parsed: bool = True  # it has frontmatter memcheck reads (strictly, or as key: value lines)
    superseded_by: str | None = None  # frontmatter `superseded_by`: the memory that carries it forward

    @property
    def stem(self) -> str:
        return self.filename[:-3] if self.filename.endswith(".md") else self.filename

    @property
    def shown_filename(self) -> str:
        """The file name as an index shows it in text: a name that is not UTF-8 (its
        bytes kept as surrogates) with U+FFFD in their place, as an editor shows it;
        the link's target keeps the bytes, percent-encoded (render.escape_target)."""
        name = self.filename
        return name if name.isascii() else name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")

    @property
    def shown_stem(self) -> str:
        """The stem as an index shows it in text (see shown_filename)."""
        name = self.shown_filename
        return name[:-3] if name.endswith(".md") else name

    # Read from the body only when an entry is written (most runs write none).
    @property
    def sentence(self) -> str | None:
        """The body's first sentence, on one line (see first_sentence)."""
        return first_sentence(self.body) if self.body else None

    @property
    def title(self) -> str | None:
        """The body's first heading."""
        return first_heading(self.body) if self.body else None


def memory_of(filename: str, doc: Document) -> Memory:
    fm = doc.frontmatter
    body = doc.body if doc.error is None else ""
    named = _file_date(filename)
    if fm is None:
        return Memory(filename, None, None, None, body, (None, None, named), parsed=False)
    # Claude Code may nest its keys under `metadata` (`metadata.type`, and the
    # `modified` it adds): read there where the top level gives none.
    nested = fm.data.get("metadata")
    meta: dict[object, object] = nested if isinstance(nested, dict) else {}
    kind = fm.display("type")
    if kind is None and isinstance(meta.get("type"), str):
        kind = str(meta["type"])
    dates = (_first_date(fm, meta, "updated", "modified"), _first_date(fm, meta, "created", "date"), named)
    return Memory(filename, fm.display("name"), fm.display("description"), kind, body, dates, superseded_by=fm.display("superseded_by"))


def _first_date(fm: Frontmatter, meta: dict[object, object], *keys: str) -> str | None:
    """The first of ``keys`` that gives a date, at the frontmatter's top level, then
    under its ``metadata``."""
    data = fm.data
    for key in keys:
        if key in data:  # (most memories carry none of these: display asks the same first)
            found = _date(fm.display(key))
            if found is not None:
                return found
    for key in keys if meta else ():
        inner = meta.get(key)
        # (a date YAML read as one: its str() is ISO, as written)
        if isinstance(inner, str) or hasattr(inner, "isoformat"):
            found = _date(str(inner))
            if found is not None:
                return found
    return None


_ISO = lazy_regex.compile(r"(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?))?")
# A date in a file name: `session_2026-04-30_x.md`, `2026_04_29`, `20260429`.
FILE_DATE = lazy_regex.compile(r"(?<!\d)((?:19|20)\d\d)([-_.]?)(0[1-9]|1[0-2])\2(0[1-9]|[12]\d|3[01])(?!\d)")


def _date(value: str | None) -> str | None:
    m = _ISO.match(value.strip()) if value else None
    if m is None:
        return None
    return m.group(1) + (f"T{m.group(2)}" if m.group(2) else "")


def _file_date(filename: str) -> str | None:
    if "19" not in filename and "20" not in filename:
        return None  # (no year the pattern could start at: most names, told without it)
    m = FILE_DATE.search(filename)
    return f"{m.group(1)}-{m.group(3)}-{m.group(4)}" if m else None


# ---------------------------------------------------------------- what a body starts with

SENTENCE_MAX = 140  # characters: an index line is a hook, not the memory
DESCRIPTION_MAX = 300  # characters of a memory's own description a new entry shows (MEM015's limit)
# What of a body is read for its first sentence or heading: a memory's opening says
# what it is, and a bound keeps every pattern below linear-time on a hostile body
# (200,000 `[`, a line of spaces).
_READ_CHARS = 4_000
_LINE_CHARS = 500
_FENCE = lazy_regex.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = lazy_regex.compile(r"^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SKIPPED = lazy_regex.compile(r"^ {0,3}(?:\||[-*_](?:[ \t]*[-*_]){2,}[ \t]*$|\[[^\]]*\]:|!\[[^\]]*\]\([^)]*\)[ \t]*$|=+[ \t]*$)")
_LEAD = lazy_regex.compile(r"^(?:>\s*)*(?:(?:[-*+]|\d{1,9}[.)])\s+)?(?:\[[ xX]\]\s+)?")
# Each run stops at the next opening bracket too: linear on a line of 200,000 `[`.
_IMAGE = lazy_regex.compile(r"!\[([^\[\]]*)\]\([^()]*\)")
_LINK = lazy_regex.compile(r"\[([^\[\]]*)\]\([^()]*\)")
_WIKI = lazy_regex.compile(r"\[\[([^\[\]|]*)(?:\|([^\[\]]*))?\]\]")
_AUTOLINK = lazy_regex.compile(r"<((?:https?|mailto):[^>\s]*)>")
_TAG = lazy_regex.compile(r"</?[A-Za-z][^<>]*>")
# A sentence ends at `.`, `!` or `?` before a space, or at a full-width stop; not
# after a one-letter word (an initial) or a usual abbreviation.
# (One character class, the space after `.` told in Python: sre scans for a class at
# several times the speed of an alternation, 2.4 against 7.4 us on a 230-character
# paragraph, and every memory's opening is read on a whole tree's first run.)
_END = lazy_regex.compile(r"[.!?\u3002\uff01\uff1f]")
_WORD_BEFORE = lazy_regex.compile(r"\S+$")
_ABBREVIATIONS = frozenset({"e.g", "i.e", "etc", "vs", "cf", "mr", "mrs", "dr", "no", "approx", "incl"})


@functools.lru_cache(maxsize=1024)
def first_heading(body: str) -> str | None:
    """The text of the body's first ATX heading (outside code), if any."""
    read = body[:_READ_CHARS]
    if "#" not in read:
        return None  # most memories have no heading: told without reading a line
    fence = ""
    for line in read.split("\n"):
        line = line[:_LINE_CHARS]
        if line.lstrip(" ")[:1] not in _MARKS:
            continue  # neither a heading nor a fence: code or not, nothing to see
        fence, skip = _fenced(line, fence)
        if skip:
            continue
        m = _ATX.match(line)
        if m is not None:
            text = _plain(m.group(1) or "")
            return text or None
    return None


# The first character (after the indent) of a line that can open or close a fence or
# be a heading: any other line is told apart without a pattern (a hook's commit reads
# the opening of every memory of a store it re-plans; a whole tree, 10,000).
_MARKS = frozenset("#`~")
_FENCE_MARKS = frozenset("`~")
_BLOCK_MARKS = frozenset("#|-*_[!=")  # what _ATX's or _SKIPPED's line can start with


def _fenced(line: str, fence: str) -> tuple[str, bool]:
    """(the fence still open after ``line``, whether ``line`` is code or a fence)."""
    if line.lstrip(" ")[:1] not in _FENCE_MARKS:
        return fence, bool(fence)
    m = _FENCE.match(line)
    if fence:
        closing = (
            m is not None and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip()[len(m.group(1)) :].strip()
        )
        return ("" if closing else fence), True
    if m is not None:
        return m.group(1), True
    return "", False


@functools.lru_cache(maxsize=1024)
def first_sentence(body: str) -> str | None:
    """The first sentence of the body's first paragraph, as plain one-line text an
    index entry can hold: headings, code, comments, tables, rules and link
    definitions skipped; a list item's or quote's marker dropped; links as their
    text; at most SENTENCE_MAX characters, cut at a word with an ellipsis."""
    fence = ""
    comment = False
    para: list[str] = []
    for line in body[:_READ_CHARS].split("\n"):
        line = line[:_READ_CHARS]
        if comment:
            comment = "-->" not in line
            continue
        fence, skip = _fenced(line, fence)
        stripped = line.strip()
        head = line[:_LINE_CHARS]
        marked = head.lstrip(" ")[:1] in _BLOCK_MARKS  # else neither pattern can match
        if skip or not stripped or (marked and (_ATX.match(head) or _SKIPPED.match(head))) or stripped.startswith("<!--"):
            if stripped.startswith("<!--") and "-->" not in stripped:
                comment = True
            if para:
                break
            continue
        lead = _LEAD.match(stripped)
        if para and lead is not None and lead.end():
            break  # the next list item or quote: another paragraph
        para.append(stripped)
    if not para:
        return None
    text = _plain(" ".join(para)[:_READ_CHARS])
    for m in _END.finditer(text):
        end = m.end()
        if text[m.start()] in ".!?" and not text[end : end + 1].isspace():
            continue  # `.`, `!` or `?` ends a sentence only before a space
        before = _WORD_BEFORE.search(text, max(0, m.start() - 12), m.start())
        word = before.group() if before else ""
        if text[m.start()] == "." and (len(word.lstrip("(\"'")) == 1 or word.lower().strip("(\"'") in _ABBREVIATIONS):
            continue
        text = text[:end]
        break
    return _closed(_bounded(text)) or None


def reads_sentence(m: Memory) -> bool:
    """Whether an entry of ``m`` can show its body's first sentence (render.py's
    shown_description and described): only where its description is missing, empty
    as an entry, or holds a secret. Elsewhere the sentence is never shown, so what
    keeps a judgment of the index need not work it out (store.py's facts of a
    memory). Here, not in render.py: a commit's check works out the facts of the
    memories it changed, and need not import the renderer for it."""
    from memcheck.text.secrets import holds_secret

    description = m.description
    if not description:
        return True
    text = entry_text(description)
    return not text.strip() or holds_secret(description) or holds_secret(text)


def entry_text(text: str) -> str:
    """A memory's own description as a new entry of a curated index shows it: links
    as their text (a link copied into the index is judged there as the index's own,
    dead or leaving the store), at most DESCRIPTION_MAX characters, cut at a word (a
    description of 30,000 characters is no hook, and could never fit the caps)."""
    plain = _closed(_plain(text[: 4 * DESCRIPTION_MAX]))
    if len(plain) <= DESCRIPTION_MAX:
        return plain
    cut = plain[: DESCRIPTION_MAX - 1]
    if " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "\u2026"


def _closed(text: str) -> str:
    """The text without the code span or emphasis the cut left open: agents would
    read the rest of the index line as code or bold."""
    if text.count("`") % 2:
        text = text.replace("`", "")
    for run in ("**", "__"):
        if text.count(run) % 2:
            at = text.rfind(run)
            text = text[:at] + text[at + 2 :]
    for run in ("*", "_"):  # `_a sentence cut before its closing underscore`
        if text.startswith(run) and not text.startswith(run * 2) and run not in text[1:]:
            text = text[1:]
    return text.strip()


def _plain(text: str) -> str:
    """Markdown made plain enough to stand in an index line: no links (their text
    stays), images, tags or marker at the start, one line, unpaired backticks gone."""
    text = _LEAD.sub("", text.strip(), count=1)
    # Each pattern only where its opening is in the text (most sentences have none).
    if "](" in text:
        text = _IMAGE.sub(r"\1", text)
    if "[[" in text:
        text = _WIKI.sub(lambda m: m.group(2) or m.group(1), text)
    if "](" in text:
        text = _LINK.sub(r"\1", text)
    if "<" in text:
        text = _AUTOLINK.sub(r"\1", text)
        text = _TAG.sub("", text)
    if text.count("`") % 2:
        text = text.replace("`", "")
    text = text.replace("](", "] (")  # no link made of what is left
    return " ".join(text.split())


def _bounded(text: str) -> str:
    if len(text) <= SENTENCE_MAX:
        return text
    cut = text[: SENTENCE_MAX - 1]
    if not text[SENTENCE_MAX - 1].isspace() and " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "\u2026"
