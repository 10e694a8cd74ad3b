"""Link reference definitions read as CommonMark 0.31 reads them ("Link reference
definitions"): the one-line parser against a character-by-character port of
commonmark.js's ``parseReference``, and where a definition may stand in a text (never
inside a paragraph) against the block rule written out for a small alphabet of lines.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest
from conftest import cpu_limit
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memcheck.text import blocks, mentions

_ESCAPABLE = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


class _Reference(NamedTuple):
    label: str
    target: str
    start: int
    end: int


def _closing(line: str, at: int, close: str, forbidden: str) -> int:
    """Where ``close`` ends a run that starts at ``at`` (a backslash takes the next
    character with it), or -1 when ``forbidden`` or the end of the line comes first."""
    while at < len(line) and line[at] != close:
        if line[at] == forbidden:
            return -1
        at += 2 if line[at] == "\\" and at + 1 < len(line) else 1
    return at if at < len(line) else -1


def _port(line: str) -> _Reference | None:
    """commonmark.js's parseReference on one line (no line ending inside the
    definition), written as it is there: a cursor moved one character at a time."""
    n = len(line)
    pos = len(line) - len(line.lstrip(" \t"))
    # parseLinkLabel: `[`, characters or backslash pairs, no unescaped bracket, `]`
    if pos >= n or line[pos] != "[":
        return None
    j = _closing(line, pos + 1, "]", "[")
    if j < 0:
        return None
    label = line[pos + 1 : j]
    if len(label) > 999 or not " ".join(label.split()) or not line.startswith(":", j + 1):
        return None
    pos = start = j + 2 + len(line[j + 2 :]) - len(line[j + 2 :].lstrip(" \t"))
    # parseLinkDestination
    if line.startswith("<", pos):
        k = _closing(line, pos + 1, ">", "<")
        if k < 0:
            return None
        end = k + 1
        target = line[start + 1 : k]
    else:
        depth = 0
        while pos < n:
            c = line[pos]
            if c == "\\" and pos + 1 < n and line[pos + 1] in _ESCAPABLE:
                pos += 2
            elif c == "(":
                depth += 1
                pos += 1
            elif c == ")":
                if depth < 1:
                    break
                depth -= 1
                pos += 1
            elif c in " \t\n\r\x0b\x0c" or ord(c) < 0x20 or c == "\x7f":
                break
            else:
                pos += 1
        if pos == start or depth:
            return None
        end = pos
        target = line[start:end]
    # an optional title after spaces or tabs, then nothing but spaces or tabs
    rest = n - len(line[end:].lstrip(" \t"))
    if rest == n:
        return _Reference(label, target, start, end)
    if rest == end or line[rest] not in "\"'(":
        return None
    k = _closing(line, rest + 1, ")" if line[rest] == "(" else line[rest], "(" if line[rest] == "(" else "")
    if k < 0 or line[k + 1 :].strip(" \t"):
        return None
    return _Reference(label, target, start, end)


def _parsed(line: str) -> _Reference | None:
    found = mentions.reference_definition(line)
    return None if found is None else _Reference(found.label, found.target, found.start, found.end)


_LINE_CHARS = st.sampled_from(list("[]():<>\"'\\ \ta.b/#!x-") + ["\x01", "\u00a0", "]:", "[a]: ", "\\]", "\\(", '\\"'])


@pytest.mark.slow  # a property test: seconds of examples
@settings(max_examples=3000, deadline=None)
@given(st.lists(_LINE_CHARS, max_size=24).map("".join))
@example("[retry \u2192 backoff]: when the queue is full it waits.")
@example('[a]: b.md "t" x')
@example("[a[b]]: c.md")
@example("[a\\[b\\]]: c.md")
@example("[a]: <b.md")
@example("[a]: b(.md")
@example("[a]: b(c).md")
@example("[ ]: b.md")
@example("[a]: <>")
@example("[a]: b.md\t(t)")
@example('[a]: b.md"t"')
@example("[a]:")
def test_the_parser_reads_a_line_as_commonmark_js_does(line: str) -> None:
    assert _parsed(line) == _port(line)


@settings(max_examples=500, deadline=None)
@given(st.lists(_LINE_CHARS, max_size=24).map("".join))
def test_a_definition_points_at_its_destination(line: str) -> None:
    found = mentions.reference_definition(line)
    if found is not None:
        written = line[found.start : found.end]
        assert written in (found.target, f"<{found.target}>")
        assert found.end <= found.stop <= len(line) and not line[found.stop :].strip(" \t")


@pytest.mark.parametrize(
    "line",
    [
        "[" + "\\]" * 200_000,
        "[a]: " + "(" * 400_000,
        "[a]: <" + "\\>" * 200_000,
        '[a]: b "' + '\\"' * 200_000,
        "[" + "a" * 400_000 + "]: b",
    ],
)
def test_the_parser_takes_linear_time(line: str) -> None:
    with cpu_limit(3.0, "the definition parser"):
        mentions.reference_definition(line)
        blocks.definitions([line, line])


# ---------------------------------------------------------------- where a definition may stand

# Lines of a small alphabet, and what each leaves open for the next: paragraph text
# (which a definition-like line continues, as text), or nothing.
_OPENS_TEXT = {"text": True, "- item": True, "> quote": True, "": False, "# heading": False, "[a]: x.md": False, "---": False}


def _by_the_rule(lines: list[str]) -> set[int]:
    """The definition lines, by CommonMark's rule: a definition cannot interrupt a
    paragraph (nor continue a list item's or a quote's lazily)."""
    found = set()
    open_text = False
    for i, line in enumerate(lines):
        if line == "[a]: x.md" and not open_text:
            found.add(i + 1)
            continue
        # `---` under text underlines a heading, and a definition-like line in a
        # paragraph is text that keeps it open.
        open_text = _OPENS_TEXT[line] if line != "[a]: x.md" else True
    return found


@pytest.mark.slow  # a property test: seconds of examples
@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(sorted(_OPENS_TEXT)), max_size=12))
def test_a_definition_never_interrupts_a_paragraph(lines: list[str]) -> None:
    assert set(blocks.definitions(lines)) == _by_the_rule(lines)


def test_the_comment_idiom_defines_nothing() -> None:
    assert blocks.definitions(["[//]: # (a note)", "", "[comment]: <> (another)"]) == {}


def test_definitions_are_numbered_from_the_first_line_given() -> None:
    (token,) = blocks.definitions(["# Notes", "", "  [a]: <x y.md>"], first=7).values()
    assert token == mentions.Token(9, 8, "x y.md")
