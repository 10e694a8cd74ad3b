"""HID003: zero-width (and other undrawn) characters in a run or outside the text that
needs them.

The family's per-line pass (``checks.hidden``) calls ``judge`` on each line that holds
a suspect character, and reports the line with ``message`` when it finds any.
"""

from __future__ import annotations

import unicodedata

from memcheck.checks.hidden.hits import Hit, count
from memcheck.problem import ERROR, Rule
from memcheck.text import invisible

# Security severity 8.0 (high): hidden text in an agent file is an instruction
# nobody reviewed.
HID003 = Rule(
    "HID003",
    "zero-width-character",
    ERROR,
    False,
    "Zero-width characters outside the text that needs them",
    """\
## What it does
Reports zero-width characters (ZWSP U+200B, ZWNJ U+200C, ZWJ U+200D, WORD JOINER
U+2060, a byte-order mark U+FEFF after the file's start, the invisible operators
U+2061–U+2064), and every other character Unicode lists as default-ignorable or
as a format character that no other HID rule judges (SOFT HYPHEN U+00AD,
COMBINING GRAPHEME JOINER U+034F, the Hangul fillers U+115F, U+1160, U+3164 and
U+FFA0, the directional marks LRM, RLM and ALM, the Khmer inherent vowels, the
Mongolian vowel separator, the deprecated format characters U+206A–U+206F, the
interlinear annotation characters, the Arabic number signs, the Egyptian,
shorthand and musical format controls, and the unassigned code points Unicode
keeps for more of them), in runs of two or more, or outside the text that needs
them. Not reported: one ZWNJ, ZWJ or ZWSP between letters of a script that uses
joiners (Arabic, Persian, Devanagari, Bengali, Thai, …, and unspaced CJK text), a
ZWJ between emoji (👨‍👩‍👧, 👩🏽‍💻, ❤️‍🔥: any two pictographs Unicode's emoji data lists), a soft hyphen between two letters (a hyphenation
point), a grapheme joiner before a combining mark, a jamo filler beside a
Hangul jamo, one directional mark on a line that holds right-to-left letters, an
Arabic number sign before a digit, and the format controls of Khmer, Mongolian,
Syriac, Egyptian hieroglyphs, Duployan shorthand and musical notation beside
their own script's characters. HANGUL FILLER (U+3164) and its half-width form
are always reported: they are blanks that look like nothing, a known way to hide
a name.

Also reported: the blank characters above ASCII that end a line (Unicode's
White_Space characters, such as NO-BREAK SPACE, FIGURE SPACE U+2007 and
IDEOGRAPHIC SPACE U+3000, and BRAILLE PATTERN BLANK U+2800), unless the line
ends in one no-break or ideographic space alone. Inside a line they are spaces
(CJK text writes U+3000 between words); at its end nobody sees them. Not reported
either: a line that ends in no-break spaces alone, or in no-break spaces and spaces
taking turns (`&nbsp; &nbsp;`, as a web page writes a run of spaces and copying it
leaves, blank lines of such blanks too): once the first character and the count are
known, every character is, so they carry no more than spaces at a line's end do. Other blanks
there, or the two mixed in any other order, are reported.

## Why is this bad?
Zero-width characters carry data a reviewer cannot see: a run of them (or of blanks
at a line's end) encodes text bit by bit, and one inside a word makes it differ from
the word it looks like (a command, a path, a package name the agent will type).

## Example
`Install reqeusts` with a ZWSP inside the package name, or a line ending in forty
ZWSP and ZWNJ characters.

## Use instead
Delete them. Keep ZWNJ and ZWJ only inside words of the scripts that use them.
""",
    security_severity="8.0",
)


_ZWSP, _ZWNJ, _ZWJ = "\u200b", "\u200c", "\u200d"
# The soft hyphen, the combining grapheme joiner and the Hangul fillers draw nothing
# either (UTS #39 lists them among the default-ignorable characters to keep out of
# identifiers); each has a place where it is text, judged in ``_in_place``.
_SHY, _CGJ = "\u00ad", "\u034f"
_JAMO_FILLERS = "\u115f\u1160"  # choseong and jungseong fillers, inside a jamo sequence
_BLANK_FILLERS = "\u3164\uffa0"  # HANGUL FILLER and its half-width form: a blank that looks like nothing
_ZERO_WIDTH = set("\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff" + _SHY + _CGJ + _JAMO_FILLERS + _BLANK_FILLERS)
_JOINERS = (_ZWSP, _ZWNJ, _ZWJ)
# The rest of Unicode's default-ignorable and format (Cf) characters that the other
# HID rules leave (tags are HID001's, bidi embeddings and isolates HID002's,
# variation selectors HID004's): each with the script whose text it belongs in.
_MARKS = "\u200e\u200f\u061c"  # LRM, RLM, ALM: mark the direction of right-to-left text
# Prepended concatenation marks (Arabic number signs, Kaithi and Kaithi-like ones):
# visible signs spanning the digits after them.
_NUMBER_SIGNS = "\u0600\u0601\u0602\u0603\u0604\u0605\u06dd\u0890\u0891\u08e2\U000110bd\U000110cd"
_IN_SCRIPT = {
    "\u070f": "SYRIAC",  # SYRIAC ABBREVIATION MARK
    "\u17b4": "KHMER",
    "\u17b5": "KHMER",  # inherent vowels
    "\u180e": "MONGOLIAN",  # vowel separator
    **{chr(cp): "EGYPTIAN" for cp in range(0x13430, 0x13440)},  # hieroglyph format controls
    **{chr(cp): "SHORTHAND" for cp in range(0x1BCA0, 0x1BCA4)},  # Duployan shorthand format controls
    **{chr(cp): "MUSICAL" for cp in range(0x1D173, 0x1D17B)},  # beams, ties, slurs, phrases
}
_SCRIPT_OF = {"SHORTHAND": "DUPLOYAN"}  # the name of the letters a control joins, where it differs


def _undrawn(ch: str) -> bool:
    """Whether ``ch`` is judged here: a zero-width or filler character, or any other
    default-ignorable or format character no other HID rule takes."""
    if ch in _ZERO_WIDTH:
        return True
    cp = ord(ch)
    return (
        ch in _MARKS
        or ch in _NUMBER_SIGNS
        or ch in _IN_SCRIPT
        or cp == 0x2065
        or 0x206A <= cp <= 0x206F  # deprecated: symmetric swapping, shaping, digit shapes
        or 0xFFF0 <= cp <= 0xFFFB  # unassigned ignorables, interlinear annotation
        or 0xE0080 <= cp <= 0xE00FF
        or 0xE01F0 <= cp <= 0xE0FFF  # unassigned, kept for more tags and selectors
    )


def judge(line: str) -> list[Hit]:
    """The line's zero-width characters that are in a run or out of place: not a
    joiner inside a word of a script that uses them, nor a ZWJ inside an emoji
    sequence; and the blank characters that end it (``trailing_blanks``)."""
    hits = [Hit(i + 1, ch) for i, ch in enumerate(line) if _undrawn(ch) and not _in_place(line, i)]
    return hits + trailing_blanks(line) if not line.isascii() else hits


# What a line may end in and still be text: one no-break space (what a web page or a
# word processor leaves when copied) or one ideographic space (what a CJK input method
# types for a space). A run of no-break spaces alone, or of no-break spaces and spaces
# taking turns, is what a copied web page leaves (see _pasted_spaces): its only freedom
# is its length and which of the two comes first, no more than trailing spaces carry.
# Anything else, or any other blank, is a channel.
_LONE_BLANKS = "\u00a0\u3000"


def trailing_blanks(line: str) -> list[Hit]:
    """The blank characters above ASCII (``invisible.BLANKS``) in the run of blanks
    that ends ``line``, unless the run is one no-break or ideographic space alone, or
    what a copied web page leaves (``_pasted_spaces``)."""
    start = invisible.blank_end(line)
    if start < 0:
        return []
    run = line[start:].rstrip("\r")
    if (len(run) == 1 and run in _LONE_BLANKS) or _pasted_spaces(run):
        return []
    return [Hit(start + i + 1, ch) for i, ch in enumerate(run) if ch not in " \t"]


_NBSP = "\u00a0"


def _pasted_spaces(run: str) -> bool:
    """Whether a line's closing blanks are no-break spaces alone, or no-break spaces
    and spaces taking turns (what a web page makes of a run of spaces, `&nbsp; `, and
    copying it leaves): the run's length and its first character fix every other one,
    so the run carries no more than the spaces at a line's end, which nobody reports."""
    if _NBSP not in run or any(ch not in " " + _NBSP for ch in run):
        return False
    return " " not in run or all(a != b for a, b in zip(run, run[1:]))


def _in_place(line: str, i: int) -> bool:
    ch = line[i]
    before = line[i - 1] if i > 0 else ""
    after = line[i + 1] if i + 1 < len(line) else ""
    if (before and _undrawn(before)) or (after and _undrawn(after)):
        return False  # a run
    if ch not in _ZERO_WIDTH:
        return _other_in_place(line, ch, before, after)
    if not before or not after:
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


def _other_in_place(line: str, ch: str, before: str, after: str) -> bool:
    if ch in _MARKS:  # one mark, where right-to-left text is
        # (RLM and ALM are of right-to-left bidi class themselves: letters only.)
        return any(unicodedata.bidirectional(c) in ("R", "AL") and unicodedata.category(c)[0] == "L" for c in line)
    if ch in _NUMBER_SIGNS:
        return after.isdigit()
    script = _IN_SCRIPT.get(ch)
    if script is None:
        return False
    letters = _SCRIPT_OF.get(script, script)
    return any(c and invisible.script(c) == letters for c in (before, after))


def _is_jamo(ch: str) -> bool:
    return "\u1100" <= ch <= "\u11ff"


def message(hits: list[Hit]) -> str:
    if all(invisible.is_blank(hit.ch) for hit in hits):
        return (
            f"{count(len(hits), 'blank character')} (first {invisible.label(hits[0].ch)}) at the line's end: "
            "they draw nothing there and can carry hidden text; delete them"
        )
    what = (
        "invisible character"
        if hits[0].ch in _BLANK_FILLERS + _JAMO_FILLERS + _SHY or hits[0].ch not in _ZERO_WIDTH
        else "zero-width character"
    )
    return (
        f"{count(len(hits), what)} (first {invisible.label(hits[0].ch)}) "
        "outside the words of a script that needs them: they can hide text or disguise a word; delete them"
    )
