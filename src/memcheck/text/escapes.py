"""Frontmatter values that YAML decoded from escapes: the text an agent reads there is
not the text of the file.

A double-quoted YAML value may spell any character as an escape (``\\x67`` is ``g``,
``\\U000E0069`` an invisible tag character), and an agent's YAML reader decodes it: a
token or hidden text so written is invisible to a scan of the file's lines, and
``memcheck fix`` would copy the decoded characters into MEMORY.md. The SEC and HID rules
scan these values as decoded too, and report what they find at the key's line.

Only a frontmatter holding a backslash has such a value (YAML's escapes all start
with one), so the usual file costs one ``str.find`` over its frontmatter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.records import NamedTuple

if TYPE_CHECKING:
    from memcheck.text.document import Document


class Escaped(NamedTuple):
    key: str  # the top-level key whose value holds the decoded string
    line: int  # the key's line
    col: int  # where its value starts on that line
    value: str  # one string of the value, as YAML decoded it
    raw: tuple[str, ...]  # the frontmatter lines of the key and its value, as written


def values(doc: Document) -> list[Escaped]:
    """Each string of a frontmatter value that differs from its text as written, where
    the frontmatter holds a backslash; [] for every other file."""
    fm = doc.frontmatter
    if fm is None or fm.fallback or not fm.data or doc.error is not None:
        return []  # the key: value reading takes the text as written: nothing decoded
    if doc.text.find("\\", 0, len(doc.text) - len(doc.body)) < 0:
        return []
    lines = doc.text.split("\n", fm.end_line)[: fm.end_line]  # line n is lines[n - 1]
    starts = sorted(fm.key_lines.items(), key=lambda item: item[1])
    found: list[Escaped] = []
    for i, (key, line) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else fm.end_line
        raw = tuple(lines[line - 1 : end - 1])
        written = "\n".join(raw)
        if "\\" not in written or key not in fm.data:
            continue
        first = raw[0] if raw else ""
        colon = first.find(":")
        after = colon + 1 + len(first[colon + 1 :]) - len(first[colon + 1 :].lstrip()) if colon >= 0 else 0
        for value in _strings(fm.data[key]):
            if value and value not in written:
                found.append(Escaped(key, line, after + 1, value, raw))
    return found


def _strings(value: object) -> Iterator[str]:
    """The strings a value holds, in lists and mappings too (their keys as well)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)
