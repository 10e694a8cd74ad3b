"""HID004: variation selectors chained, or after a character that takes none.

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



def _is_selector(ch: str) -> bool:
    return "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef"


def judge(line: str) -> list[Hit]:
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


def message(hits: list[Hit]) -> str:
    return (
        f"{count(len(hits), 'variation selector')} (first {invisible.label(hits[0].ch)}) chained or after a character "
        "that takes none: they draw nothing and can carry hidden bytes; delete them"
    )
