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


_ZWSP, _ZWNJ, _ZWJ = "\u200b", "\u200c", "\u200d"
# The soft hyphen, the combining grapheme joiner and the Hangul fillers draw nothing
# either (UTS #39 lists them among the default-ignorable characters to keep out of
# identifiers); each has a place where it is text, judged in ``_in_place``.
_SHY, _CGJ = "\u00ad", "\u034f"
_JAMO_FILLERS = "\u115f\u1160"  # choseong and jungseong fillers, inside a jamo sequence
_BLANK_FILLERS = "\u3164\uffa0"  # HANGUL FILLER and its half-width form: a blank that looks like nothing
_ZERO_WIDTH = set("\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff" + _SHY + _CGJ + _JAMO_FILLERS + _BLANK_FILLERS)
_JOINERS = (_ZWSP, _ZWNJ, _ZWJ)


def judge(line: str) -> list[Hit]:
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


def message(hits: list[Hit]) -> str:
    what = "invisible character" if hits[0].ch in _BLANK_FILLERS + _JAMO_FILLERS + _SHY else "zero-width character"
    return (
        f"{count(len(hits), what)} (first {invisible.label(hits[0].ch)}) "
        "outside the words of a script that needs them: they can hide text or disguise a word; delete them"
    )
