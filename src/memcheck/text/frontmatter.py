"""Judging parsed frontmatter before a rule reads fields from it: whether it is usable
at all; when strict YAML rejects it, which value to quote and how, which line lacks
the space after its key's colon, and which holds a character YAML refuses; how a
message names a value's kind; and which known key an unknown one is a misspelling
of. Every rule family that reads frontmatter (MEM, GDN, SKL) asks the same
questions, so they are answered here once, with the same words.
"""

from __future__ import annotations

import datetime as dt
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Callable

from memcheck import lazy_regex
from memcheck.text.yamltext import closing_quote, value_told

if TYPE_CHECKING:
    from memcheck.text.document import Document
    from memcheck.text.frontmatter_reading import Frontmatter


def frontmatter_problem(doc: Document) -> tuple[int, str] | None:
    """(line, message) when frontmatter is present but unusable: never closed, not
    valid YAML, past memcheck's bounds, or a key given twice."""
    fm = doc.frontmatter
    if doc.unterminated or (doc.has_frontmatter and fm is None):
        return 1, "frontmatter opened on line 1 is never closed by a '---' line"
    if fm is None:
        return None
    if fm.too_complex:
        return fm.yaml_error_line, f"frontmatter cannot be parsed: {fm.yaml_error}"
    if fm.yaml_error is not None:
        key = key_to_quote(fm.raw_values, fm.key_lines, fm.yaml_error_line) if fm.fallback else None
        line = fm.key_lines.get(key, fm.yaml_error_line) if key else fm.yaml_error_line
        hint = quote_hint(key, fm.raw_values.get(key, "")) if key else None
        return line, f"frontmatter is not valid YAML ({fm.yaml_error}){hint or '; fix the YAML'}"
    if fm.duplicates:
        key, line = fm.duplicates[0]
        return line, f"key {key!r} appears more than once; YAML keeps only the last value"
    return None


def key_to_quote(raw_values: dict[str, str], key_lines: dict[str, int], error_line: int | None = None) -> str | None:
    """The first key whose value, alone, is not valid YAML (where YAML noticed the
    problem is often a line later); else, given ``error_line``, the key at or before
    it; else None, and the error is shown where YAML found it (a control character
    in a key, say, is no value's fault)."""
    for key in sorted(key_lines, key=key_lines.__getitem__):
        raw = raw_values.get(key, "")
        if raw and not _valid_value(raw):
            return key
    before = [k for k, ln in key_lines.items() if error_line is not None and ln <= error_line]
    return max(before, key=key_lines.__getitem__) if before else None


# Past this length the message says how to quote the value rather than quoting it.
_SHOWN_VALUE = 120


def quote_hint(key: str, raw: str) -> str | None:
    """What to do about the value of ``key`` (``raw``: its text on the key's line),
    which strict YAML rejects, as the end of a message: quote it; or, when it starts
    with a quoted string and goes on after it (``name: "Deploy" notes``: YAML reads
    the string and then finds text where the line should end), quote the whole of
    it, as the agents' line parsers read it. None when quoting is not the remedy (a
    quoted value with a bad escape or no closing quote)."""
    if not raw.startswith(("'", '"')):
        return f"; quote the value of {key!r}"
    end = closing_quote(raw)
    if end is None or not raw[end + 1 :].strip():
        return None
    whole = "'" + raw.replace("'", "''") + "'"
    said = f"; the value of {key!r} starts with a quoted string and goes on after it; quote the whole value"
    if len(raw) > _SHOWN_VALUE or not _valid_value(whole):
        return f"{said} in single quotes, writing each ' inside it as ''"
    return f"{said}: {key}: {whole}"


def _valid_value(text: str) -> bool:
    """Whether ``text`` is a valid YAML value on its own: told from the line where it
    tells (most values of a rejected frontmatter), else by yamlload's parsers."""
    told = value_told(text)
    return told if told is not None else _yaml_valid_value()(text)


@cache
def _yaml_valid_value() -> Callable[[str], bool]:
    """yamlload's valid_value. Imported here, as everywhere PyYAML is: only a value
    whose line does not tell gets this far; and once, not at each call (an import
    statement costs a microsecond each time)."""
    from memcheck.text import yamlload

    return yamlload.valid_value


def value_kind(value: object) -> str:
    """A frontmatter value's kind in YAML's words, as messages name it ("a list")."""
    return {str: "string", bool: "boolean", int: "number", float: "number", list: "list", dict: "mapping"}.get(
        type(value), type(value).__name__
    )


def normalized_key(key: str) -> str:
    """A key as the misspelling checks compare it: case, '-' and '_' dropped."""
    return key.lower().replace("-", "").replace("_", "")


def _opposite(typed: str, meant: str) -> bool:
    """Whether one key is the other negated (`allowedtools`, `disallowedtools`): a
    few letters apart, yet meaning the opposite, so never a slip for it (on an
    unseen repository, a subagent's `allowed-tools` was told to become
    `disallowedTools`, which would forbid the very tools it lists)."""
    short, long = sorted((typed, meant), key=len)
    return any(long == prefix + short for prefix in _NEGATIONS)


_NEGATIONS = ("dis", "un", "no", "non", "not")


def _typo_apart(typed: str, meant: str, limit: int = 0) -> bool:
    """Whether ``typed`` is ``meant`` with a typo or two: at most one edit (a letter
    added, dropped, changed, or two swapped) per five letters of ``meant``, and at
    least one allowed. difflib's ratio alone calls a team's own key a misspelling
    (``lastReadAt`` of ``last_used_at``: 0.8, three letters apart; ``created_at`` of
    ``created``). ``limit``: how many edits at most, instead."""
    limit = limit or max(1, len(meant) // 5)
    if abs(len(typed) - len(meant)) > limit:
        return False
    # Optimal string alignment distance, rows of two: the keys that reach here are short.
    before: list[int] = []
    row = list(range(len(meant) + 1))
    for i, a in enumerate(typed, 1):
        here = [i] + [0] * len(meant)
        for j, b in enumerate(meant, 1):
            here[j] = min(row[j] + 1, here[j - 1] + 1, row[j - 1] + (a != b))
            if i > 1 and j > 1 and a == meant[j - 2] and typed[i - 2] == b:
                here[j] = min(here[j], before[j - 2] + 1)
        before, row = row, here
    return row[-1] <= limit


@lru_cache(maxsize=64)
def near_key(known: tuple[str, ...]) -> Callable[[str], str | None]:
    """A function giving the schema key that a key looks like a misspelling of: equal
    once case, '-' and '_' are ignored, or difflib ratio 0.8 or more after that
    normalisation and a typo's few edits apart (see ``_typo_apart``)."""
    # One matcher per known key for all the keys of a file: difflib keeps what it
    # learns of the second sequence (a frontmatter of 60,000 unknown keys took
    # seconds building a matcher for each pair). Imported here: most runs judge no
    # unknown key, and difflib (with heapq) is a millisecond of every hook's start-up.
    import difflib

    matchers = [(k, normalized_key(k), difflib.SequenceMatcher(None, "", normalized_key(k))) for k in known]

    def near(key: str) -> str | None:
        wanted = normalized_key(key)
        best, best_ratio = None, 0.8
        for k, normed, matcher in matchers:
            if normed == wanted:
                return k
            if _opposite(wanted, normed):
                continue
            matcher.set_seq1(wanted)
            # The two upper bounds first, as difflib.get_close_matches does: ratio()
            # alone costs time in the key's length (seconds for a key of 900,000
            # characters), and a key that long is near nothing.
            if matcher.real_quick_ratio() >= best_ratio and matcher.quick_ratio() >= best_ratio:
                ratio = matcher.ratio()
                if ratio >= best_ratio and (best is None or ratio > best_ratio) and _typo_apart(wanted, normed):
                    best, best_ratio = k, ratio
        return best

    return near


@lru_cache(maxsize=64)
def misspelt_key(known: tuple[str, ...]) -> Callable[[str], str | None]:
    """A function giving the known key that a key is a slip of the keyboard for: equal
    once case, '-' and '_' are ignored (`Updated`), or one character wrong, added,
    dropped or swapped with its neighbour after that (`descripton`, `tpye`). Stricter
    than ``near_key``: a key a tool names after a known one (`created_at`,
    `lastReadAt` beside `last_used_at`) is a key of its own, not a slip."""
    normed = [(k, normalized_key(k)) for k in known]

    def meant(key: str) -> str | None:
        wanted = normalized_key(key)
        exact = next((k for k, n in normed if n == wanted), None)
        return exact if exact is not None else next((k for k, n in normed if len(n) > 2 and _typo_apart(wanted, n, 1)), None)

    return meant


# `name:bob` at the margin: a key, its colon, and a value with no space between them.
# (`http://...` at the margin is a URL, not a key.)
_SQUEEZED = lazy_regex.compile(r"([A-Za-z_][\w-]*):(?![/:\s])\S")


def squeezed_key(lines: tuple[str, ...]) -> tuple[str, int] | None:
    """(key, index of its line) of the first ``key:value`` line missing its space."""
    for i, line in enumerate(lines):
        m = _SQUEEZED.match(line)
        if m is not None:
            return m.group(1), i
    return None


# What YAML's reader refuses anywhere in a document (it reports no line for it).
_UNPRINTABLE = lazy_regex.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ufffe\uffff]")


def unprintable_line(doc: Document, fallback: int) -> int:
    """The frontmatter line holding a character YAML refuses, if any (a control
    character in a key); else ``fallback``."""
    assert doc.frontmatter is not None
    for i in range(1, doc.frontmatter.end_line - 1):
        if _UNPRINTABLE.search(doc.lines[i]):
            return i + 1
    return fallback


def parse_date(value: object) -> dt.date | None:
    """A date as the memory rules read one: a date, a datetime, or an ISO-8601 string."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        if len(text) == 10:
            return dt.date.fromisoformat(text)
        return dt.datetime.fromisoformat(text.replace("Z", "+00:00").replace(" ", "T", 1)).date()
    except ValueError:
        return None


def short_repr(value: object) -> str:
    """A value as a message quotes it: its repr, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def usual_memory_fields(fm: Frontmatter, required: tuple[str, ...], types: tuple[str, ...], allowed: frozenset[str]) -> bool:
    """Whether a memory's frontmatter holds its fields as it should, so that the MEM
    rules on fields have nothing to say of it: every key ``allowed``, each
    ``required`` field a string with text, the type one of ``types``, the name,
    description and agent_name on one line, no metadata."""
    data = fm.data
    kind = data.get("type")
    if "metadata" in data or type(kind) is not str or kind not in types or not allowed.issuperset(fm.key_lines):
        return False
    for key in required:
        value = data.get(key)
        if type(value) is not str or not value.strip():
            return False
    for key in ("name", "description", "agent_name"):
        value = data.get(key)
        if value is not None and (type(value) is not str or "\n" in value):
            return False
    return True
