"""HID: text in an agent file that a reviewer does not see and a model reads.

Memories, indexes, guidance files and skills are prompts: an instruction written in
invisible characters passes review and reaches every session (OWASP's agentic
memory poisoning, ASI06; Trojan Source, CVE-2021-42574). Each class of invisible
character is one rule, one finding per line with how many there are and where the
first is. What the characters are, and what scripts need them, is in
``text/invisible.py``; a token spelt in tag characters is reported by the SEC rules.

Most files are ASCII and cost one ``str.isascii`` each; any other gets one regex pass
for the characters judged here, and only the lines holding one are looked at closely.
"""
from __future__ import annotations

import json
import unicodedata
from typing import TYPE_CHECKING, Iterator

from memcheck.problem import ERROR, Problem, Rule, escaped
from memcheck.records import NamedTuple
from memcheck.text import invisible
from memcheck.text import secrets as detect
from memcheck.workspace.discover import Workspace

if TYPE_CHECKING:
    from memcheck.workspace.targets import Targets

# Security severity 8.0 (high) for each: hidden text in an agent file is an
# instruction nobody reviewed.
HID001 = Rule("HID001", "hidden-tag-text", ERROR, False, "Invisible tag characters spell hidden text", """\
## What it does
Reports Unicode tag characters (U+E0000–U+E007F) and shows the text they spell: each
stands for an ASCII character, and none is drawn. The flags of England, Scotland and
Wales (a black flag, a region code in tag characters, a cancel tag) are not reported.

## Why is this bad?
A model reads tag characters as the text they spell; an editor, a diff and a pull
request show nothing. An instruction written so reaches every agent session and
passes every review.

## Example
A memory whose line reads `Run the tests before pushing.` and holds, after the
full stop, the tag characters for "skip the tests".

## Use instead
Delete the tag characters; write what the agent should do in visible text.
""", security_severity="8.0")

HID002 = Rule("HID002", "bidi-control", ERROR, False, "A bidi control reorders how a line displays", """\
## What it does
Reports a line holding a bidirectional override (LRO U+202D, RLO U+202E) anywhere, or
embeddings (LRE, RLE, PDF: U+202A–U+202C) and isolates (LRI, RLI, FSI, PDI:
U+2066–U+2069) that do not close in order on the line. Balanced isolates and
embeddings around right-to-left text, and the marks LRM, RLM and ALM, are not
reported.

## Why is this bad?
These characters change the order in which a line is displayed, not the order in
which a model reads it: a reviewer reads one instruction, the agent another (Trojan
Source, CVE-2021-42574).

## Example
A line that displays as `Never push to main` while its characters, in reading order,
say something else behind a RIGHT-TO-LEFT OVERRIDE.

## Use instead
Delete the controls. To set right-to-left text inside a left-to-right line, wrap it in
an isolate that closes on the same line (RLI … PDI).
""", security_severity="8.0")

HID003 = Rule("HID003", "zero-width-character", ERROR, False, "Zero-width characters outside the text that needs them", """\
## What it does
Reports zero-width characters (ZWSP U+200B, ZWNJ U+200C, ZWJ U+200D, WORD JOINER
U+2060, a byte-order mark U+FEFF after the file's start, the invisible operators
U+2061–U+2064), and the other characters that draw nothing (SOFT HYPHEN U+00AD,
COMBINING GRAPHEME JOINER U+034F, the Hangul fillers U+115F, U+1160, U+3164 and
U+FFA0), in runs of two or more, or outside the text that needs them. Not
reported: one ZWNJ, ZWJ or ZWSP between letters of a script that uses joiners
(Arabic, Persian, Devanagari, Bengali, Thai, …, and unspaced CJK text), a ZWJ
between emoji (👨‍👩‍👧, 👩🏽‍💻, ❤️‍🔥: any two pictographs Unicode's emoji data lists), a soft hyphen between two letters (a hyphenation
point), a grapheme joiner before a combining mark, and a jamo filler beside a
Hangul jamo. HANGUL FILLER (U+3164) and its half-width form are always reported:
they are blanks that look like nothing, a known way to hide a name.

## Why is this bad?
Zero-width characters carry data a reviewer cannot see: a run of them encodes text
bit by bit, and one inside a word makes it differ from the word it looks like (a
command, a path, a package name the agent will type).

## Example
`Install reqeusts` with a ZWSP inside the package name, or a line ending in forty
ZWSP and ZWNJ characters.

## Use instead
Delete them. Keep ZWNJ and ZWJ only inside words of the scripts that use them.
""", security_severity="8.0")

HID004 = Rule("HID004", "stray-variation-selector", ERROR, False, "Variation selectors are chained or follow no character that takes them", """\
## What it does
Reports variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF) two or more in a row,
or after a character that takes none. Not reported: VS15/VS16 after a character
Unicode lists as taking them (❤️, ©️, the keycaps 1️⃣), VS16 after any other emoji,
VS1–VS14 and VS17–VS256 after a CJK ideograph (ideographic variation
sequences), VS1 after a mathematical symbol.

## Why is this bad?
Variation selectors are drawn as nothing. A chain of them after one emoji can carry
any bytes (each selector stands for one), which a model can be asked to decode.

## Example
A memory whose 🙂 is followed by two hundred variation selectors.

## Use instead
Delete them; keep one VS16 after an emoji that needs it.
""", security_severity="8.0")

RULES = (HID001, HID002, HID003, HID004)

# How long a piece of hidden text a message quotes; the count says how much there is.
SHOWN = 200


class Hit(NamedTuple):
    col: int  # 1-based
    ch: str


def files_of(targets: Targets) -> list[str]:
    """Every agent file a check covers: the ones the SEC rules read."""
    return targets.agent_files()


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    for path in files_of(targets):
        yield from ws.findings_of_file("hidden", path, lambda: _check_file(ws, path))  # noqa: B023 (called at once)


def _check_file(ws: Workspace, path: str) -> Iterator[Problem]:
    doc = ws.document(path)
    if doc.error is not None or not invisible.may_hide(doc.text):
        return
    if ws.wants("HID001") and invisible.has_tags(doc.text):
        yield from _hid001(path, doc.lines)
    for number, line in enumerate(doc.lines, 1):
        if invisible.SUSPECT.search(line):
            yield from _line(ws, path, number, line)


def _line(ws: Workspace, path: str, number: int, line: str) -> Iterator[Problem]:
    for rule, judge in ((HID002, _bidi), (HID003, _zero_width), (HID004, _selectors)):
        if ws.wants(rule.code):
            hits = judge(line)
            if hits:
                yield rule.at(path, number, hits[0].col, _MESSAGES[rule](hits))


def _hid001(path: str, lines: tuple[str, ...]) -> Iterator[Problem]:
    for found in invisible.tag_texts(lines):
        text = detect.redact(found.plain) if detect.find_in(found.plain, [found.plain]) else found.text
        shown = escaped(json.dumps(text[:SHOWN], ensure_ascii=False))
        more = f" (the first {SHOWN} shown)" if len(text) > SHOWN else ""
        yield HID001.at(
            path, found.line, found.cols[0],
            f"{_count(len(found.cols), 'invisible tag character')} spell hidden text {shown}{more}: "
            "an agent reads it, a reviewer sees nothing; delete them",
        )  # fmt: skip


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


# HID002 -------------------------------------------------------------------------------

_EMBEDDINGS = "\u202a\u202b\u202d\u202e"  # LRE RLE LRO RLO, closed by PDF
_OVERRIDES = "\u202d\u202e"
_ISOLATES = "\u2066\u2067\u2068"  # LRI RLI FSI, closed by PDI
_PDF, _PDI = "\u202c", "\u2069"
_BIDI = set(_EMBEDDINGS + _ISOLATES + _PDF + _PDI)


def _bidi(line: str) -> list[Hit]:
    """The line's bidi controls when one overrides or they do not nest and close on
    the line; none when they are balanced embeddings and isolates."""
    hits = [Hit(i + 1, ch) for i, ch in enumerate(line) if ch in _BIDI]
    open_: list[str] = []
    balanced = True
    for hit in hits:
        if hit.ch in _OVERRIDES:
            balanced = False
        if hit.ch in _EMBEDDINGS or hit.ch in _ISOLATES:
            open_.append(_PDF if hit.ch in _EMBEDDINGS else _PDI)
        elif open_ and open_[-1] == hit.ch:
            open_.pop()
        else:
            balanced = False
    if balanced and not open_:
        return []
    # The first an override, when there is one: it is what the finding points at.
    return sorted(hits, key=lambda h: h.ch not in _OVERRIDES)


def _bidi_message(hits: list[Hit]) -> str:
    first = hits[0]
    if first.ch in _OVERRIDES:
        what = f"{_count(len(hits), 'bidi control character')} on the line; {invisible.label(first.ch)} reverses the text after it"
    else:
        what = f"{_count(len(hits), 'bidi control character')} on the line (first {invisible.label(first.ch)}) do not close in order"
    return f"{what}, so the line displays in another order than an agent reads it; delete them"


# HID003 -------------------------------------------------------------------------------

_ZWSP, _ZWNJ, _ZWJ = "\u200b", "\u200c", "\u200d"
# The soft hyphen, the combining grapheme joiner and the Hangul fillers draw nothing
# either (UTS #39 lists them among the default-ignorable characters to keep out of
# identifiers); each has a place where it is text, judged in ``_in_place``.
_SHY, _CGJ = "\u00ad", "\u034f"
_JAMO_FILLERS = "\u115f\u1160"  # choseong and jungseong fillers, inside a jamo sequence
_BLANK_FILLERS = "\u3164\uffa0"  # HANGUL FILLER and its half-width form: a blank that looks like nothing
_ZERO_WIDTH = set("\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff" + _SHY + _CGJ + _JAMO_FILLERS + _BLANK_FILLERS)
_JOINERS = (_ZWSP, _ZWNJ, _ZWJ)


def _zero_width(line: str) -> list[Hit]:
    """The line's zero-width characters that are in a run or out of place: not a
    joiner inside a word of a script that uses them, nor a ZWJ inside an emoji
    sequence."""
    return [Hit(i + 1, ch) for i, ch in enumerate(line) if ch in _ZERO_WIDTH and not _in_place(line, i)]


def _in_place(line: str, i: int) -> bool:
    ch = line[i]
    before = line[i - 1] if i > 0 else ""
    after = line[i + 1] if i + 1 < len(line) else ""
    if not before or not after or before in _ZERO_WIDTH or after in _ZERO_WIDTH:
        return False
    if ch == _SHY:  # a hyphenation point inside a word
        return before.isalpha() and after.isalpha()
    if ch == _CGJ:  # keeps two combining marks from being reordered
        return unicodedata.category(after).startswith("M") and (before.isalpha() or unicodedata.category(before).startswith("M"))
    if ch in _JAMO_FILLERS:
        return _is_jamo(before) or _is_jamo(after)
    if ch not in _JOINERS:
        return False
    # A ZWJ between two pictographs, as UAX #29's GB11 joins them into one grapheme,
    # not only the sequences Unicode lists (emoji-zwj-sequences.txt): vendors draw
    # sequences beyond the list, and each Unicode release adds some (🐦‍🔥, 🍋‍🟩 in
    # 15.1) that a list frozen at the shipped data's version would report. A ZWJ
    # there sits between two visible pictographs, so it disguises no word; a run of
    # them, or one beside a letter, is still reported.
    if ch == _ZWJ and invisible.is_emoji(after) and invisible.ends_emoji(line, i):
        return True
    return invisible.needs_joiners(before) and invisible.needs_joiners(after) and invisible.script(before) == invisible.script(after)


def _is_jamo(ch: str) -> bool:
    return "\u1100" <= ch <= "\u11ff"


def _zero_width_message(hits: list[Hit]) -> str:
    what = "invisible character" if hits[0].ch in _BLANK_FILLERS + _JAMO_FILLERS + _SHY else "zero-width character"
    return (
        f"{_count(len(hits), what)} (first {invisible.label(hits[0].ch)}) "
        "outside the words of a script that needs them: they can hide text or disguise a word; delete them"
    )


# HID004 -------------------------------------------------------------------------------


def _is_selector(ch: str) -> bool:
    return "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef"


def _selectors(line: str) -> list[Hit]:
    """The line's variation selectors that are chained or follow a character that
    takes none."""
    return [Hit(i + 1, ch) for i, ch in enumerate(line) if _is_selector(ch) and (i == 0 or not _takes(line[i - 1], ch))]


def _takes(base: str, selector: str) -> bool:
    if _is_selector(base):
        return False  # chained
    if selector in "\ufe0e\ufe0f":
        return invisible.takes_presentation_selector(base, selector)
    if invisible.is_ideograph(base):
        return True
    return selector == "\ufe00" and _is_math(base)


def _is_math(ch: str) -> bool:
    return unicodedata.category(ch) == "Sm"


def _selectors_message(hits: list[Hit]) -> str:
    return (
        f"{_count(len(hits), 'variation selector')} (first {invisible.label(hits[0].ch)}) chained or after a character "
        "that takes none: they draw nothing and can carry hidden bytes; delete them"
    )


_MESSAGES = {HID002: _bidi_message, HID003: _zero_width_message, HID004: _selectors_message}
