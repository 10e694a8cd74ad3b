"""Characters a reviewer does not see and a model reads: tag characters, bidi controls,
zero-width characters and variation selectors, and what the text around them is.

The HID rules report them (``checks/hidden.py``); the SEC rules read the text that tag
characters spell (``tag_texts``), so a token hidden that way is found too.

What a script needs is decided from Unicode's own data (``unicodedata``), as UTS #39
(security mechanisms: mixed scripts, invisible characters) and UTR #36 (security
considerations: joiners, bidi) advise, not from a list of languages: a character's
script is the first word of its Unicode name (``ARABIC LETTER FARSI YEH`` is Arabic;
unicodedata has no Script property), and the scripts that need joiners are derived
when first asked for (see ``joining_scripts``). Emoji come from Unicode's emoji data
files, which unicodedata does not carry: ``resources/emoji.json``, written by
``tools/emoji_data.py`` (see ``emoji_data``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from bisect import bisect_right
from functools import cache
from typing import Iterator, Sequence

from memcheck import lazy_regex
from memcheck.records import NamedTuple

# Every character a HID rule judges: all above ASCII. ``str.isascii`` answers
# for most files at memory speed; the rest get one pass of this regex, which passes
# over the common non-ASCII punctuation (the em dash, curly quotes) that a check for
# any character above U+2000 would stop at.
# Every code point Unicode lists as Default_Ignorable_Code_Point
# (DerivedCoreProperties.txt, https://www.unicode.org/Public/UCD/latest/ucd/DerivedCoreProperties.txt)
# or as a format character (general category Cf, UnicodeData.txt), unassigned ones
# included: any of them draws nothing or next to nothing, and a run of them carries
# bits. The Mongolian free variation selectors and the Khmer inherent vowels are
# among the first. A test holds this class to both lists.
SUSPECT = lazy_regex.compile(
    "[\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
_TAG = lazy_regex.compile("[\U000e0000-\U000e007f]")

# Characters that draw as a blank: the ones Unicode lists as White_Space (PropList.txt)
# beyond ASCII's, the space separators among them (NO-BREAK SPACE, the EN to HAIR
# spaces, FIGURE SPACE U+2007, IDEOGRAPHIC SPACE U+3000), and BRAILLE PATTERN BLANK
# U+2800, a symbol that draws nothing. Inside a line each is a space; at its end nobody
# sees them, and a run of them there carries bits, as trailing spaces and tabs do for
# SNOW-style whitespace steganography. Lines that end in one are judged by HID003.
BLANKS = "\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\u2800"
_BLANK_END = lazy_regex.compile(f"[{BLANKS}][ \\t\\r{BLANKS}]*$", re.MULTILINE)

TAG_FIRST = 0xE0000
# An emoji tag sequence (UTS #51): the black flag, a subdivision code in tag letters
# and digits, a cancel tag. The flags of England, Scotland and Wales are written so;
# they hide at most a few letters and are not reported.
_TAGS_OR_FLAG = lazy_regex.compile("\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]{1,6}\U000e007f|[\U000e0000-\U000e007f]+")


def may_hide(text: str) -> bool:
    """Whether ``text`` holds an invisible character a HID rule judges."""
    return not text.isascii() and SUSPECT.search(text) is not None


def ends_blank(text: str) -> bool:
    """Whether a line of ``text`` ends in a blank character above ASCII (``BLANKS``)."""
    return not text.isascii() and _BLANK_END.search(text) is not None


_BLANK = lazy_regex.compile(f"[{BLANKS}]")


def is_blank(ch: str) -> bool:
    """Whether ``ch`` is one of ``BLANKS``."""
    return _BLANK.match(ch) is not None


def blank_end(line: str) -> int:
    """Where the run of blank characters that ends ``line`` starts, if it holds one
    above ASCII (``BLANKS``), else -1."""
    m = _BLANK_END.search(line)
    if m is None:
        return -1
    start = m.start()
    while start > 0 and line[start - 1] in " \t":
        start -= 1
    return start


def has_tags(text: str) -> bool:
    """Whether ``text`` holds a tag character."""
    return not text.isascii() and _TAG.search(text) is not None


class TagText(NamedTuple):
    """The tag characters of one line, decoded: what an agent reads there."""

    line: int  # 1-based
    cols: tuple[int, ...]  # the 1-based column of each tag character
    text: str  # each tag character as the ASCII character it stands for

    @property
    def plain(self) -> str:
        """``text`` with control characters (the language tag, the cancel tag) as spaces,
        one character for one: for searching, where offsets must still match ``cols``."""
        return "".join(c if " " <= c <= "~" else " " for c in self.text)


def tag_texts(lines: Sequence[str]) -> Iterator[TagText]:
    """Per line holding tag characters (U+E0000–U+E007F) outside an emoji flag, the
    text they spell."""
    for number, line in enumerate(lines, 1):
        if not SUSPECT.search(line):
            continue
        cols: list[int] = []
        chars: list[str] = []
        for m in _TAGS_OR_FLAG.finditer(line):
            if m.group().startswith("\U0001f3f4"):
                continue
            cols.extend(range(m.start() + 1, m.end() + 1))
            chars.extend(chr(ord(c) - TAG_FIRST) for c in m.group())
        if cols:
            yield TagText(number, tuple(cols), "".join(chars))


def label(ch: str) -> str:
    """How a message names an invisible character: ``U+202E RIGHT-TO-LEFT OVERRIDE``."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X} {name}" if name else f"U+{ord(ch):04X}"


def script(ch: str) -> str:
    """The first word of the character's Unicode name (its script, for letters and
    marks: ``DEVANAGARI``, ``ARABIC``, ``CJK``), or "" for an unnamed one."""
    return _script(ch)


@cache
def _script(ch: str) -> str:
    return unicodedata.name(ch, "").partition(" ")[0]


@cache
def joining_scripts() -> frozenset[str]:
    """The scripts whose text uses ZWNJ and ZWJ (and, where words are not spaced, ZWSP)
    between its letters, derived from the Unicode data: a script with a virama
    (canonical combining class 9: Devanagari, Bengali, Tamil, Thai, Khmer, Myanmar, …,
    where ZWJ and ZWNJ choose conjunct forms) and a right-to-left script (letters of
    bidi class R or AL: Arabic, Syriac, NKo, Hebrew, …, where ZWNJ breaks a cursive
    join). Mongolian and Phags-pa join left to right and have no virama, which the
    data does not show: they are named. Built when a file first holds a joiner: about
    30 ms."""
    found = {"MONGOLIAN", "PHAGS-PA"}
    for cp in range(0x0590, 0x1F000):
        ch = chr(cp)
        if unicodedata.combining(ch) == 9 or (unicodedata.bidirectional(ch) in ("R", "AL") and unicodedata.category(ch)[0] == "L"):
            found.add(_script(ch))
    found.discard("")
    return frozenset(found)


def needs_joiners(ch: str) -> bool:
    """Whether ``ch`` is a letter or mark of a script that uses joiners between its
    letters: a joining script, or wide East Asian letters (CJK, kana), whose words are
    not spaced and may be split by ZWSP."""
    category = unicodedata.category(ch)
    if category[0] not in "LM":
        return False
    return _script(ch) in joining_scripts() or unicodedata.east_asian_width(ch) == "W"


class CodePoints:
    """A set of code points held as sorted ranges, as the Unicode data files write
    them (``1F600..1F64F``): a lookup is one bisection."""

    def __init__(self, fields: Sequence[str]) -> None:
        self._firsts: list[int] = []
        self._lasts: list[int] = []
        for field in fields:
            first, _, last = field.partition("..")
            self._firsts.append(int(first, 16))
            self._lasts.append(int(last or first, 16))

    def __contains__(self, ch: str) -> bool:
        cp = ord(ch)
        at = bisect_right(self._firsts, cp) - 1
        return at >= 0 and cp <= self._lasts[at]


class EmojiData(NamedTuple):
    """Unicode's emoji data (UTS #51), as ``tools/emoji_data.py`` wrote it from the
    data files: the properties of emoji-data.txt and the bases of
    emoji-variation-sequences.txt."""

    unicode: str
    properties: dict[str, CodePoints]
    variation_bases: CodePoints


@cache
def emoji_data() -> EmojiData:
    """The shipped emoji data, read once, when a file first holds a joiner or a
    selector next to a character that might be an emoji (about 1 ms)."""
    # Imported here, not at the top: ``memcheck --version`` and files without such
    # characters never pay for importlib.resources and the JSON.
    from importlib import resources

    data = json.loads(resources.files("memcheck.resources").joinpath("emoji.json").read_text(encoding="utf-8"))
    return EmojiData(
        unicode=data["unicode"],
        properties={name: CodePoints(fields) for name, fields in data["properties"].items()},
        variation_bases=CodePoints(data["variation_bases"]),
    )


@cache  # a file's emoji are few and repeat: one bisection each
def is_emoji(ch: str) -> bool:
    """Whether ``ch`` is Extended_Pictographic (UTS #51): a pictograph, assigned or
    set aside for future emoji, which unicodedata does not carry."""
    # Below U+00A9 (©) no character is one: ASCII and Latin-1 letters answer without
    # the data.
    return ch >= "\u00a9" and ch in emoji_data().properties["Extended_Pictographic"]


# What may stand between a pictograph and the ZWJ that joins it to the next: a
# skin-tone modifier (🏽) or a presentation selector (VS16), as in 👩🏽‍💻 and ❤️‍🔥.
# UAX #29's GB11 allows any run of Extend characters there; a run of selectors is
# reported on its own (HID004), so one or two are looked through here.
_EMOJI_EXTENDERS_LOOKED_THROUGH = 2


def ends_emoji(line: str, end: int) -> bool:
    """Whether ``line[:end]`` ends with an emoji a ZWJ may follow: a pictograph,
    then at most a skin-tone modifier and a presentation selector."""
    at = end - 1
    for _ in range(_EMOJI_EXTENDERS_LOOKED_THROUGH):
        if at >= 0 and _extends_emoji(line[at]):
            at -= 1
    return at >= 0 and is_emoji(line[at])


@cache
def _extends_emoji(ch: str) -> bool:
    return ch in "\ufe0e\ufe0f" or ch in emoji_data().properties["Emoji_Modifier"]


def is_ideograph(ch: str) -> bool:
    """A CJK ideograph, which takes the ideographic variation selectors (VS1–VS14,
    VS17–VS256)."""
    return unicodedata.name(ch, "").startswith(("CJK UNIFIED IDEOGRAPH", "CJK COMPATIBILITY IDEOGRAPH"))


@cache
def takes_presentation_selector(ch: str, selector: str) -> bool:
    """Whether VS15 (text) or VS16 (emoji presentation) after ``ch`` belongs there: an
    emoji variation sequence (a base of emoji-variation-sequences.txt: ❤, ©, the
    digits of the keycaps), or VS16 after an emoji drawn as one anyway (🙂️), which
    keyboards and converters add and which carries nothing on its own."""
    data = emoji_data()
    return ch in data.variation_bases or (selector == "\ufe0f" and ch in data.properties["Emoji_Presentation"])


class VariationData(NamedTuple):
    """Which characters each variation selector follows in a registered sequence, as
    ``tools/variation_data.py`` wrote it: StandardizedVariants.txt by selector, and
    for the Ideographic Variation Database how many selectors (VS17 on) each base
    takes."""

    standardized: dict[str, CodePoints]
    ideographic_firsts: list[int]
    ideographic_lasts: list[int]
    ideographic_counts: list[int]


@cache
def variation_data() -> VariationData:
    """The shipped variation-sequence data, read once, when a file first holds a
    selector after a character that takes no emoji presentation selector (about 10 ms)."""
    from importlib import resources

    data = json.loads(resources.files("memcheck.resources").joinpath("variation.json").read_text(encoding="utf-8"))
    spans: list[tuple[int, int, int]] = []
    for count, fields in data["ideographic"].items():
        for field in fields:
            first, _, last = field.partition("..")
            spans.append((int(first, 16), int(last or first, 16), int(count)))
    spans.sort()
    return VariationData(
        standardized={chr(int(selector, 16)): CodePoints(fields) for selector, fields in data["standardized"].items()},
        ideographic_firsts=[s[0] for s in spans],
        ideographic_lasts=[s[1] for s in spans],
        ideographic_counts=[s[2] for s in spans],
    )


_VS17 = 0xE0100


@cache
def registered_sequence(base: str, selector: str) -> bool:
    """Whether ``base`` then ``selector`` is a sequence Unicode registers: a
    standardized variant (a CJK compatibility form, a mathematical or Mongolian
    variant), or an ideographic variation sequence of the IVD."""
    data = variation_data()
    if ord(selector) < _VS17:
        listed = data.standardized.get(selector)
        return listed is not None and base in listed
    cp = ord(base)
    at = bisect_right(data.ideographic_firsts, cp) - 1
    return at >= 0 and cp <= data.ideographic_lasts[at] and ord(selector) - _VS17 < data.ideographic_counts[at]
