"""HID002: bidi controls that override, or do not close in order on their line.

The family's per-line pass (``checks.hidden``) calls ``judge`` on each line that holds
a suspect character, and reports the line with ``message`` when it finds any.
"""

from __future__ import annotations

from memcheck.checks.hidden.hits import Hit, count
from memcheck.problem import ERROR, Rule
from memcheck.text import invisible

# Security severity 8.0 (high): hidden text in an agent file is an instruction
# nobody reviewed.
HID002 = Rule(
    "HID002",
    "bidi-control",
    ERROR,
    False,
    "A bidi control reorders how a line displays",
    """\
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
""",
    security_severity="8.0",
)


_EMBEDDINGS = "\u202a\u202b\u202d\u202e"  # LRE RLE LRO RLO, closed by PDF
_OVERRIDES = "\u202d\u202e"
_ISOLATES = "\u2066\u2067\u2068"  # LRI RLI FSI, closed by PDI
_PDF, _PDI = "\u202c", "\u2069"
_BIDI = set(_EMBEDDINGS + _ISOLATES + _PDF + _PDI)


def judge(line: str) -> list[Hit]:
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


def message(hits: list[Hit]) -> str:
    first = hits[0]
    if first.ch in _OVERRIDES:
        what = f"{count(len(hits), 'bidi control character')} on the line; {invisible.label(first.ch)} reverses the text after it"
    else:
        what = f"{count(len(hits), 'bidi control character')} on the line (first {invisible.label(first.ch)}) do not close in order"
    return f"{what}, so the line displays in another order than an agent reads it; delete them"
