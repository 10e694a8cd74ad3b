"""What each line of a MEMORY.md index is, as far as the index needs to know.

What a line is decides what it can do. Only entry-like lines (list items and the
lines that continue them, table rows, plain paragraph lines) name a memory by its
name; nothing in code (fenced or indented), an HTML comment, a heading or a link
reference definition does. Links are read from each line's prose: code spans and
HTML comments blanked, columns kept; the code spans themselves are kept too (a memory's
file name in one lists it). A list item's extent (its indented lines and nested
items) is what `fix` removes with a dead entry; its lazy lines (continuing it without
indentation) make it a curator's to remove.

CommonMark's block rules, cut down to what indexes hold. markdown-it-py would give
the block tree, but it costs 180 ms to import and 750 ms to parse a 5,000-line index
(this scan: a few ms), and is a dependency the project does not carry. Link
reference definitions are read as CommonMark reads them (``mentions.reference_definition``),
and only where a paragraph could start: a `[label]: target` line inside a paragraph,
a list item's lazy line or a quote's is text (`[1]: a.md` right under `- [a][1]`
defines nothing), in indexes, memories, guidance files and skills alike
(``definitions``).
"""

from __future__ import annotations

from typing import Sequence

from memcheck import lazy_regex
from memcheck.records import NamedTuple
from memcheck.text.mentions import FENCE_OPEN, Token, mask_line, reference_definition

BLANK = "blank"
CODE = "code"  # a fenced code block (its fences too) or an indented one
COMMENT = "comment"  # wholly inside an HTML comment, or a `[//]: # (...)` line
HEADING = "heading"  # an ATX heading, or the text line of a setext one
UNDERLINE = "underline"  # a setext heading's `===` / `---` line
BREAK = "break"  # a thematic break
DEFINITION = "definition"  # a link reference definition, `[label]: target`
ITEM = "item"  # a list item's first line
CONTINUATION = "continuation"  # a list item's later line: indented into it, or lazy
TABLE_HEAD = "table-head"
TABLE_RULE = "table-rule"  # the delimiter row, `| --- | --- |`
TABLE_ROW = "table-row"
QUOTE = "quote"
PARA = "para"  # a plain paragraph line

# Lines that can name a memory without linking to it (see index._named).
ENTRY_LIKE = frozenset({ITEM, CONTINUATION, TABLE_ROW, PARA})
# Lines whose links are read (a definition's target is read as a definition).
NO_LINKS = frozenset({CODE, COMMENT, BLANK})
TABLE = frozenset({TABLE_HEAD, TABLE_RULE, TABLE_ROW})

# As index._HEADING: the title is empty or ends in a non-space, so the closing run is
# tried only where a title may end, never from each space of a long run: a heading
# with a long run of spaces is read in one pass (8,000 spaces: 1.26 s to match, 4
# times more per doubling -> 0.0003 s). No quantifier is possessive (`*+` needs
# Python 3.11): none is needed for that bound, which tests/unit/test_python_floor.py
# keeps.
_ATX = lazy_regex.compile(r"^(#{1,6})(?:[ \t]+(|.*?[^ \t\n]))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = lazy_regex.compile(r"^(=+|-+)[ \t]*$")
_BREAK = lazy_regex.compile(r"^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_MARKER = lazy_regex.compile(r"^([-*+]|\d{1,9}[.)])(?=[ \t]|$)")
# Markdown's comment idiom: a definition nothing links to, written to switch text off.
_COMMENT_IDIOM = lazy_regex.compile(r"^ {0,3}\[[^\]]*\]:\s*(?:#|<>)(?:\s|$)")
_TABLE_RULE = lazy_regex.compile(r"^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_PIPE = lazy_regex.compile(r"(?<!\\)\|")


class Layout(NamedTuple):
    kinds: list[str]  # per line
    prose: list[str]  # per line: code spans and comments blanked, "" where no links are read
    levels: list[int]  # per line: the heading level of a HEADING line, else 0
    within: list[int]  # per line: the list item (its first line) the line belongs to, or -1
    lazy: list[bool]  # per line: continues a list item's paragraph without indentation
    parent: dict[int, int]  # list item -> the item it is nested in, or -1
    open_fence: str | None  # the fence of a code block the text leaves open
    unclosed: int  # the line where that block, or an HTML comment left open, starts; -1 if none
    # per line that has code spans (outside comments): the (start, end) offsets of
    # each one's content, backticks left out
    spans: dict[int, list[tuple[int, int]]]


def indent_of(line: str) -> int:
    """Columns of leading white space, tabs to the next multiple of 4."""
    width = 0
    for ch in line:
        if ch == " ":
            width += 1
        elif ch == "\t":
            width += 4 - width % 4
        else:
            break
    return width


def _starts_block(text: str) -> bool:
    """Whether a line (without its indentation) starts a block, and so cannot
    continue a paragraph lazily. A link reference definition does not: it cannot
    interrupt a paragraph. (Markdown's comment idiom, `[//]: # (...)`, is written to
    switch text off, and is read so wherever it stands.)"""
    return bool(
        _MARKER.match(text)
        or _ATX.match(text)
        or text.startswith((">", "```", "~~~", "<!--"))
        or _BREAK.match(text)
        or _COMMENT_IDIOM.match(text)
    )


def cells(row: str) -> list[str]:
    """A table row's cells, without the outer pipes."""
    text = row.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    return _PIPE.split(text)


def layout(lines: Sequence[str]) -> Layout:
    n = len(lines)
    kinds = [BLANK] * n
    prose = [""] * n
    levels = [0] * n
    within = [-1] * n
    lazy = [False] * n
    parent: dict[int, int] = {}
    spans: dict[int, list[tuple[int, int]]] = {}
    fence: str | None = None
    fence_base = 0  # the content column of the list item the open code block is in
    fence_line = comment_line = -1
    in_comment = False
    items: list[tuple[int, int]] = []  # open list items, innermost last: (first line, content column)
    para = False  # the previous line is paragraph text, which a line may continue lazily
    table = False  # inside a table's body
    for i, line in enumerate(lines):
        if fence is not None:
            kinds[i], within[i] = CODE, within[i - 1]
            stripped = line.strip()
            if indent_of(line) - fence_base < 4 and stripped.startswith(fence) and stripped.strip(fence[0]) == "":
                fence = None
            continue
        was_comment = in_comment
        indent = indent_of(line)
        # The structure is read from the line as written (a code span at its start is
        # not indentation), unless it starts inside a comment.
        text = line.lstrip(" \t")
        if not in_comment and text.startswith(("```", "~~~")):
            base = _base(items, indent)
            m = FENCE_OPEN.match(text)
            if m and indent - base < 4 and not (m.group(1)[0] == "`" and "`" in text[m.end() :]):
                _close_items(items, indent)
                fence, fence_base, fence_line = m.group(1), base, i
                kinds[i], within[i] = CODE, items[-1][0] if items else -1
                para = table = False
                continue
        found: list[tuple[int, int]] | None = [] if "`" in line else None
        masked, in_comment = mask_line(line, in_comment, found)
        if found:
            spans[i] = found
        if in_comment and not was_comment:
            comment_line = i
        if was_comment or not text:
            text = masked.lstrip(" \t")
            indent = indent_of(masked)
        if not masked.strip() and (not line.strip() or was_comment or text.startswith("<!--")):
            if line.strip():
                kinds[i] = COMMENT
                if not was_comment:
                    _close_items(items, indent)
                within[i] = items[-1][0] if items else -1
            para = table = False  # a blank line, or a comment (an HTML block): the paragraph ends
            continue
        if items and indent < items[-1][1]:
            if para and not _starts_block(text):
                kinds[i], within[i], lazy[i], prose[i] = CONTINUATION, items[-1][0], True, masked
                continue
            _close_items(items, indent)
        base = items[-1][1] if items else 0
        within[i] = items[-1][0] if items else -1
        prose[i] = masked
        if indent - base >= 4 and not para:
            kinds[i], prose[i] = CODE, ""
            continue
        if table and not _starts_block(text):
            kinds[i] = TABLE_ROW
            continue
        table = False
        heading = _ATX.match(text)
        if heading:
            kinds[i], levels[i], para = HEADING, len(heading.group(1)), False
            continue
        if para and kinds[i - 1] == PARA and _SETEXT.match(text):
            kinds[i - 1], levels[i - 1] = HEADING, 1 if text[0] == "=" else 2
            kinds[i], prose[i], para = UNDERLINE, "", False
            continue
        if _BREAK.match(text):
            kinds[i], prose[i], para = BREAK, "", False
            continue
        marker = _MARKER.match(text)
        if marker:
            after = text[marker.end() :]
            spaces = indent_of(after)
            width = len(marker.group(1))
            content = indent + width + (1 if not after.strip() or spaces > 4 else spaces)
            parent[i] = items[-1][0] if items else -1
            items.append((i, content))
            within[i] = i
            kinds[i], para = ITEM, bool(after.strip())
            continue
        if para and "|" in text and kinds[i - 1] in (PARA, CONTINUATION) and _TABLE_RULE.match(text.rstrip()):
            if "|" in lines[i - 1] and len(cells(text)) == len(cells(lines[i - 1])):
                kinds[i - 1], kinds[i], prose[i] = TABLE_HEAD, TABLE_RULE, ""
                para, table = False, True
                continue
        if _COMMENT_IDIOM.match(text):
            kinds[i], prose[i], para = COMMENT, "", False
            continue
        # A definition cannot interrupt a paragraph, nor a quote's that this line continues.
        if not para and reference_definition(text) is not None and not (i and kinds[i - 1] == QUOTE and _quote_paragraph(lines[i - 1])):
            kinds[i], para = DEFINITION, False
            continue
        if text.startswith(">"):
            kinds[i], para = QUOTE, False
            continue
        kinds[i] = CONTINUATION if items else PARA
        para = True
    unclosed = fence_line if fence is not None else comment_line if in_comment else -1
    return Layout(kinds, prose, levels, within, lazy, parent, fence, unclosed, spans)


def _quote_paragraph(line: str) -> bool:
    """Whether a quote line ends in paragraph text, which the next line may continue lazily."""
    content = line.lstrip(" \t")
    while content.startswith(">"):
        content = content[1:].lstrip(" \t")
    return bool(content) and not _starts_block(content) and reference_definition(content) is None


def definitions(lines: Sequence[str], first: int = 1) -> dict[int, Token]:
    """The link reference definitions of a Markdown text (``lines``, the first
    numbered ``first``), as CommonMark reads them: line number -> a token of its
    target (column of the destination, ``<`` included). Markdown's comment idiom
    (`[//]: # (...)`) defines nothing."""
    if not any("]:" in line for line in lines):
        return {}  # most texts: no line could be one, and no layout is needed
    found = {}
    for i, kind in enumerate(layout(lines).kinds):
        if kind == DEFINITION:
            defined = reference_definition(lines[i])
            if defined is not None:
                found[first + i] = Token(first + i, defined.start + 1, defined.target)
    return found


def _base(items: list[tuple[int, int]], indent: int) -> int:
    """The content column of the innermost open list item a line so indented is in."""
    for _first, content in reversed(items):
        if indent >= content:
            return content
    return 0


def _close_items(items: list[tuple[int, int]], indent: int) -> None:
    while items and indent < items[-1][1]:
        items.pop()


def item_extent(lay: Layout, first: int) -> tuple[int, int]:
    """The list item starting on line ``first`` (0-based): (end, lazy), where ``end``
    is just after its last line (continuation lines and nested items, trailing blank
    lines left out) and ``lazy`` is its first lazy line, or -1."""
    end, lazy = first + 1, -1
    kinds = lay.kinds
    for j in range(first + 1, len(kinds)):
        if kinds[j] == BLANK:
            continue
        if not inside(lay, j, first):
            break
        end = j + 1
        if lazy < 0 and lay.lazy[j]:
            lazy = j
    return end, lazy


def inside(lay: Layout, line: int, item: int) -> bool:
    """Whether ``line`` belongs to the list item starting on line ``item``."""
    k = lay.within[line]
    while k > item:
        k = lay.parent[k]
    return k == item
