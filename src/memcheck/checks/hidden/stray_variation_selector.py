"""HID004: variation selectors chained, or after a character that takes none.

The family's per-line pass (``checks.hidden``) calls ``judge`` on each line that holds
a suspect character, and reports the line with ``message`` when it finds any.
"""

from __future__ import annotations

from memcheck.checks.hidden.hits import Hit, count
from memcheck.problem import ERROR, Rule
from memcheck.text import invisible

# Security severity 8.0 (high): hidden text in an agent file is an instruction
# nobody reviewed.
HID004 = Rule(
    "HID004",
    "stray-variation-selector",
    ERROR,
    False,
    "Variation selectors are chained or follow no character that takes them",
    """\
## What it does
Reports variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF, and the Mongolian
free variation selectors U+180B–U+180D, U+180F) two or more in a row, or after a
character no registered sequence pairs them with. Not reported: VS15/VS16 after a
character Unicode lists as taking them (❤️, ©️, the keycaps 1️⃣), VS16 after any
other emoji, and the sequences Unicode registers: its standardized variants (a CJK
compatibility form such as 塚 with VS1, a mathematical or Mongolian variant) and the
ideographic variation sequences of the Ideographic Variation Database (葛 with
VS17, as Japanese names are written). A selector after every ideograph of a
sentence is reported where the database registers none of those pairs.

## Why is this bad?
Variation selectors are drawn as nothing. A chain of them after one emoji, or one
after each ideograph, can carry any bytes (each selector stands for one), which a
model can be asked to decode.

## Example
A memory whose 🙂 is followed by two hundred variation selectors.

## Use instead
Delete them; keep one VS16 after an emoji that needs it.
""",
    security_severity="8.0",
)


def _is_selector(ch: str) -> bool:
    return "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef" or ch in "\u180b\u180c\u180d\u180f"


def judge(line: str) -> list[Hit]:
    """The line's variation selectors that are chained or follow a character that
    takes none."""
    return [Hit(i + 1, ch) for i, ch in enumerate(line) if _is_selector(ch) and (i == 0 or not _takes(line[i - 1], ch))]


def _takes(base: str, selector: str) -> bool:
    if _is_selector(base):
        return False  # chained
    if selector in "\ufe0e\ufe0f" and invisible.takes_presentation_selector(base, selector):
        return True
    # Only a sequence Unicode registers: VS17 after every ideograph of a sentence (what
    # an ideograph took before) carries a bit each, VS17–VS256 a byte.
    return invisible.registered_sequence(base, selector)


def message(hits: list[Hit]) -> str:
    return (
        f"{count(len(hits), 'variation selector')} (first {invisible.label(hits[0].ch)}) chained or after a character "
        "that takes none: they draw nothing and can carry hidden bytes; delete them"
    )
