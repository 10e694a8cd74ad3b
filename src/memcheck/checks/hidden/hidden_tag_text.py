"""HID001: invisible tag characters that spell hidden text; the message quotes the
text (redacted, where it holds a secret: the SEC rules report the secret itself).

The family's pass (``checks.hidden``) calls ``check`` once per file that holds a tag
character, before its per-line pass.
"""

from __future__ import annotations

import json
from typing import Iterator

from memcheck.checks.hidden.hits import count
from memcheck.problem import ERROR, Problem, Rule, escaped
from memcheck.text import invisible
from memcheck.text import secrets as detect

# Security severity 8.0 (high): hidden text in an agent file is an instruction
# nobody reviewed.
HID001 = Rule(
    "HID001",
    "hidden-tag-text",
    ERROR,
    False,
    "Invisible tag characters spell hidden text",
    """\
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
""",
    security_severity="8.0",
)

# How long a piece of hidden text a message quotes; the count says how much there is.
SHOWN = 200


def check(path: str, lines: tuple[str, ...]) -> Iterator[Problem]:
    for found in invisible.tag_texts(lines):
        text = detect.redact(found.plain) if detect.find_in(found.plain, [found.plain]) else found.text
        shown = escaped(json.dumps(text[:SHOWN], ensure_ascii=False))
        more = f" (the first {SHOWN} shown)" if len(text) > SHOWN else ""
        yield HID001.at(
            path, found.line, found.cols[0],
            f"{count(len(found.cols), 'invisible tag character')} spell hidden text {shown}{more}: "
            "an agent reads it, a reviewer sees nothing; delete them",
        )  # fmt: skip
