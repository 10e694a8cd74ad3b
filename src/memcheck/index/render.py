"""The index styles: how each writes an index of memories, and how to tell which one a text uses.

``grouped`` is what agents that keep an index write (a ``# Memory`` title, then a
section per memory type); ``flat`` and ``flat-emdash`` are a bare list of entries.
Names and file names are escaped so that each entry reads back, whole, as its
memory's link.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from memcheck import lazy_regex
from memcheck.index.links import is_plain_name
from memcheck.text.home_paths import from_home
from memcheck.text.secrets import holds_secret, redact

if TYPE_CHECKING:
    from memcheck.index.memory import Memory

GROUPED, FLAT, FLAT_EMDASH = "grouped", "flat", "flat-emdash"
STYLES = (GROUPED, FLAT, FLAT_EMDASH)
OTHER = "other"

_LINK_HEAD = r"^- \[(?:\\.|[^\]\\])*\]\([^)]*\)"
_ENTRY = {
    GROUPED: re.compile(_LINK_HEAD + r"(?: - .*| -)?$"),
    FLAT: re.compile(_LINK_HEAD + r"(?: - .*| -)?$"),
    FLAT_EMDASH: re.compile(_LINK_HEAD + r"(?: \u2014 .*| \u2014)?$"),
}
# An entry whose memory has no description: nothing tells the styles apart.
_BARE_ENTRY = lazy_regex.compile(_LINK_HEAD + r"$")


# Control characters but tab, once line breaks are spaces: as their escape (\u001b).
# An ESC would reach the terminal of whoever prints the index, a NUL makes it a
# binary file (IDX011).
_CONTROL = lazy_regex.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def one_line(text: str) -> str:
    """A name or description from a memory's frontmatter as its entry shows it: on
    one line, with no control character but tab, and no secret (``ghp_…[redacted]``):
    the index is loaded into every session and printed, the memory itself is where
    the SEC rules report the secret. Usual text comes back as it is."""
    if not text.isprintable():
        # Every character Python (and most editors) take as a line break, not only
        # "\n": a name holding one would split its entry.
        text = " ".join(text.splitlines())
        if _CONTROL.search(text):
            text = _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return redact(text)


# A `<` that could open an autolink or a tag inside a link's text: an autolink there
# ends the link (links do not nest), a tag renders as HTML instead of the name.
_TAG_OPEN = lazy_regex.compile(r"<(?=[A-Za-z/!?])")
_BACKTICKS = lazy_regex.compile(r"`+")


def escape_text(text: str) -> str:
    """A name as a link's text: brackets and backslashes escaped, and every backtick
    that no later run of the same length closes (an unpaired one would pair with a
    backtick after the link and swallow it into a code span), and a `<` that could
    open a tag or an autolink."""
    text = one_line(text).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
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


def missing_as(value: str | None, fallback: str) -> str:
    # The agents' renderers use meta.get(key, default): a key that is present but
    # empty stays empty; only a missing key falls back.
    return fallback if value is None else value


def shown_name(m: Memory) -> str:
    # An empty name would make an invisible link, `[](m.md)`: the stem, as for a missing one.
    return m.shown_stem if m.name is None or not m.name.strip() else m.name


# What an entry says instead of a description holding a secret, when the memory's
# body says nothing safe either. The index is loaded into every session of every
# agent and printed wherever it is shown: a redacted token (`ghp_…[redacted]`) would
# still tell each of them which credential the memory holds and what it is for, so
# nothing of that description is copied. The memory file is where the SEC rules
# report the secret; the note tells the agent why the entry says so little.
SECRET_NOTE = "(description not copied: it holds a secret)"
NO_DESCRIPTION = "(no description)"


def shown_description(m: Memory, fallback: str) -> str:
    """A memory's description as a rendered index shows it (``fallback`` when it has
    none, as the agents' renderers do), but never one holding a secret: then the
    body's first sentence, or the note that says why there is none."""
    desc = missing_as(m.description, fallback)
    if desc and holds_secret(desc):
        return from_home(m.sentence) if m.sentence and not holds_secret(m.sentence) else SECRET_NOTE
    return from_home(desc)


def described(m: Memory, label: str) -> str:
    """What a new entry (or one whose description was a placeholder) says about its
    memory, never empty and never a secret: its description, else its body's first
    sentence, else its first heading, its name or its file name in words, whichever
    comes first that is not the entry's own link text."""
    from memcheck.index.memory import entry_text

    own = _words(label)
    secret = False
    for i, text in enumerate(
        (
            m.description and entry_text(m.description),
            m.sentence,
            m.title,
            m.name,
            " ".join(m.shown_stem.replace("_", " ").replace("-", " ").split()),
        )
    ):
        if not text or not text.strip() or (i > 1 and _words(text) == own):
            continue
        if holds_secret(text):
            secret = True
            continue
        # A path into someone's home folder (`/Users/jsmith/...`), copied into the
        # index every session loads, would tell each reader the user name and be
        # REF002's on the next check: written from the home folder instead.
        return from_home(one_line(text).strip())
    return SECRET_NOTE if secret else NO_DESCRIPTION


def _words(text: str) -> str:
    return " ".join(text.replace("_", " ").replace("-", " ").split()).casefold()


def entry_line(m: Memory, name: str, desc: str, dash: str) -> str:
    head = f"- [{escape_text(name)}]({escape_target(m.filename)})"
    desc = one_line(desc).rstrip()
    # No line ends in whitespace: an empty description drops its separator, or the
    # common trailing-whitespace hook and `fix` would undo each other on every run.
    return f"{head} {dash} {desc}" if desc else head


def render(style: str, memories: Sequence[Memory], types: Sequence[str]) -> str:
    ordered = sorted(memories, key=lambda m: m.filename)
    if style == GROUPED:
        return _render_grouped(ordered, types)
    dash = "-" if style == FLAT else "\u2014"
    lines = [entry_line(m, shown_name(m), shown_description(m, ""), dash) for m in ordered]
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
        sections.setdefault(kind, []).append(entry_line(m, shown_name(m), shown_description(m, m.shown_stem), "-"))
    lines = ["# Memory\n"]
    for kind in order:
        if kind in sections:
            lines.append(f"## {kind.capitalize()}")
            lines.extend(sections[kind])
            lines.append("")
    return "\n".join(lines).strip() + "\n"


def entries_as_rendered(style: str, memories: Sequence[Memory]) -> dict[str, str]:
    """Each memory's entry line as ``render`` writes it in this style."""
    dash = "\u2014" if style == FLAT_EMDASH else "-"
    return {
        m.filename: entry_line(m, shown_name(m), shown_description(m, m.shown_stem if style == GROUPED else ""), dash) for m in memories
    }


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


def writes(style: str, line: str, types: Sequence[str], first: bool = False) -> bool:
    """Whether ``style`` writes this (non-blank) line: one of its entries, or for
    ``grouped`` one of its headings (the ``# Memory`` title alone ``first``, as the
    first line that is not blank)."""
    if style != GROUPED:
        return _ENTRY[style].match(line) is not None
    if first or line == "# Memory":
        return line == "# Memory"
    return line in headings(tuple(types)) or _ENTRY[GROUPED].match(line) is not None


@functools.lru_cache(maxsize=8)
def headings(types: tuple[str, ...]) -> Mapping[str, int]:
    """The section headings ``grouped`` writes, each with its place in the index
    (one mapping per set of types, shared: read it, never change it)."""
    return {f"## {t.capitalize()}": i for i, t in enumerate((*types, OTHER))}


def pure_style(lines: Sequence[str], types: Sequence[str], prefer: str | None = None) -> str | None:
    """The style when the text holds nothing but that style's headings and entries
    (``prefer`` first: entries without a description fit either flat style)."""
    body = [ln for ln in lines if ln.strip()]
    if not body:
        return None
    for style in dict.fromkeys([prefer, FLAT_EMDASH, FLAT, GROUPED]):
        if style is not None and all(writes(style, ln, types, first=i == 0) for i, ln in enumerate(body)):
            return style
    return None
