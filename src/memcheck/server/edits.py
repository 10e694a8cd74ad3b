"""The edits the language server offers for a finding, as plain data (no LSP types):
a suppression comment, quoting a frontmatter value, re-pointing a dead index entry.

Each edit is tried on the text before it is offered: a comment is offered only if
the suppression machinery then drops the finding, a quoted value only if YAML then
reads the whole value. An edit that would not do what its title says is never shown.
"""

from __future__ import annotations

import json

from memcheck import lazy_regex, suppression
from memcheck.problem import Problem
from memcheck.records import NamedTuple
from memcheck.text import document
from memcheck.text.document import Document


class TextEdit(NamedTuple):
    """Replace the text between two positions (0-based lines, 0-based columns counted
    in code points, as memcheck counts them) with ``text``."""

    line: int
    col: int
    end_line: int
    end_col: int
    text: str


class Action(NamedTuple):
    title: str
    edit: TextEdit
    preferred: bool = False


def apply(text: str, edit: TextEdit) -> str:
    """``text`` with ``edit`` made: what the editor does with it."""
    lines = text.split("\n")

    def offset(line: int, col: int) -> int:
        if line >= len(lines):
            return len(text)
        return sum(len(x) + 1 for x in lines[:line]) + min(col, len(lines[line]))

    return text[: offset(edit.line, edit.col)] + edit.text + text[offset(edit.end_line, edit.end_col) :]


def suppression_action(doc: Document, problem: Problem) -> Action | None:
    """A comment that suppresses this finding: on the line above it (in YAML
    frontmatter, a YAML comment; in Markdown, an HTML comment), else one for the whole
    file where the line above cannot hold one (the frontmatter's opening fence, a
    fenced code block). None for a secret, which is never suppressed."""
    if doc.error is not None or problem.code.startswith(suppression.UNSUPPRESSIBLE):
        return None
    fm = doc.frontmatter if doc.has_frontmatter and not doc.unterminated else None
    line = problem.line - 1
    in_frontmatter = fm is not None and 0 < line < fm.end_line
    candidates: list[tuple[str, TextEdit]] = []
    if in_frontmatter:
        candidates.append(
            (f"Suppress {problem.code} on this line", TextEdit(line, 0, line, 0, f"# memcheck-disable-next-line {problem.code}\n"))
        )
    elif fm is None or line >= fm.end_line:
        candidates.append(
            (f"Suppress {problem.code} on this line", TextEdit(line, 0, line, 0, f"<!-- memcheck-disable-next-line {problem.code} -->\n"))
        )
    after_frontmatter = fm.end_line if fm is not None else 0
    whole_file = f"<!-- memcheck-disable-file {problem.code} -->\n"
    candidates.append((f"Suppress {problem.code} in this file", TextEdit(after_frontmatter, 0, after_frontmatter, 0, whole_file)))
    for title, edit in candidates:
        if _suppresses(doc, problem, edit):
            return Action(title, edit)
    return None


def _suppresses(doc: Document, problem: Problem, edit: TextEdit) -> bool:
    after = document.parse(doc.path, apply(doc.text, edit).encode("utf-8", "surrogateescape"))
    moved = problem._replace(line=problem.line + (edit.line <= problem.line - 1))
    left = suppression.apply([moved], {doc.path: after}, {problem.code})
    return not any(p.code == problem.code for p in left)


# `key: value` on a frontmatter line of its own.
_KEY_LINE = lazy_regex.compile(r"(?P<key>[^\s:#][^:#]*?)[ \t]*:[ \t]+(?P<value>.*?)[ \t]*$")


def quote_value(doc: Document, problem: Problem) -> Action | None:
    """The value of the frontmatter key on the finding's line, quoted, so YAML reads
    all of it (``key: a # b`` -> ``key: "a # b"``)."""
    fm = doc.frontmatter
    if doc.error is not None or fm is None or not 0 < problem.line - 1 < fm.end_line:
        return None
    line = problem.line - 1
    m = _KEY_LINE.fullmatch(doc.lines[line])
    if m is None or fm.raw_values.get(m.group("key")) != m.group("value"):
        return None
    key, raw = m.group("key"), m.group("value")
    edit = TextEdit(line, m.start("value"), line, m.end("value"), json.dumps(raw, ensure_ascii=False))
    after = document.parse(doc.path, apply(doc.text, edit).encode("utf-8", "surrogateescape")).frontmatter
    if after is None or after.data.get(key) != raw:
        return None  # YAML would not read the quoted text as the whole value
    return Action(f"Quote the value of {key}", edit, preferred=True)


def repoint_action(line: int, span: tuple[int, int], target: str, old: str) -> Action:
    """An index entry's dead link target replaced by the memory it was renamed to."""
    return Action(f"Point the entry at {target} (was {old})", TextEdit(line - 1, span[0], line - 1, span[1], target), preferred=True)
