"""Which memories a line names without linking to them (link-less indexes, `- api: ...`).

A line names a memory when the memory's file name stands in it as a word, or its
stem or frontmatter name as a whole phrase. The phrases are read in one linear pass
per line, whatever the line holds: these patterns meet every line of every index.
"""

from __future__ import annotations

import posixpath
import re
from functools import cache
from typing import TYPE_CHECKING, Iterable, Sequence

from memcheck import lazy_regex

if TYPE_CHECKING:
    from memcheck.index.memory import Memory

# A memory is named by a link-less line when its file name stands there as a word, or
# its stem or `name` as a whole phrase: the text between two boundaries. A boundary
# is the start or end of the line, or punctuation and symbols (`:`, `|`, `*`, `—`,
# brackets, backticks, `，`...), except the characters that join the parts of a name
# (`-`, `.`, `'`, `+`, `/`, `&`, `@`, `%`, `$`, and `_`, a word character) where
# they stand between two non-spaces: `node.js`, `ci-cd`, `user's`, `c++`. Spaces
# belong to the phrase. So `- api: ...`, `**api**` and `| api |` name `api`, but
# "api tests" does not, nor does "Note 10" name `Note 1`.
_GLUE = r".'\u2019+\-/&@%$"
# A comma between two digits joins them as well (`Note 1,5`, a decimal comma, is not
# `Note 1`).
# A boundary starts at a punctuation character, never at a space: the spaces around it
# are the phrases' (which are read with their spaces collapsed), so the boundaries and
# phrases are those of a pattern that let a boundary take the spaces before it. Since
# the pattern starts with one class of characters, the regex engine skips to the next
# punctuation character in C instead of trying the whole pattern at every character
# (splitting a 70-character index line: 23 -> 2.6 us, a fifth of a check on link-less
# indexes). A glue run is tried whole only from its first character, and nothing
# after a space or glue run can start inside one, so giving back part of a run never
# makes a match: a line with a long run of spaces or glue is read in one pass (check
# on a line of 8,000 spaces: 13.78 -> 0.3 s CPU; of 16,000 dots: 9.06 -> 0.3 s; both
# were 4 times slower per doubling, now flat). That is why no quantifier needs to be
# possessive (`*+`, Python 3.11 and later only).
_PUNCTUATION = (
    r"[^\w\s]"  # then, of that character:
    rf"(?:(?<=[^{_GLUE},])"  # not glue nor a comma: a boundary;
    r"|(?<=,)(?:(?<!\d,)|(?!\d))"  # a comma not between two digits;
    rf"|(?<=[{_GLUE}])(?<!\S[{_GLUE}])[{_GLUE}]*"  # a glue run after a space or the start;
    rf"|(?<=[{_GLUE}])(?<![{_GLUE}][{_GLUE}])[{_GLUE}]*(?!\S))"  # a glue run before one, or the end
    r"\s*"
)
_BOUNDARY = f"{_PUNCTUATION}(?:{_PUNCTUATION})*"
# Words that may be a file name: split at spaces and the punctuation a file name in
# prose sits between; a sentence's trailing punctuation is stripped afterwards.
_WORDS = lazy_regex.compile(r"[^\s`*|()\[\]{}<>\"\u201c\u201d]+")
# A name of more phrases than this (an absurd title of 17 punctuated parts) is
# matched by link, file name or stem only: it bounds the phrase windows tried per
# line, and so keeps the listing linear in the index's length.
_MAX_PHRASES = 16


@cache
def _boundaries() -> re.Pattern[str]:
    """The boundaries, kept by split() between the phrases: one pass over the text
    gives both (split and findall took two, a third of a check on link-less indexes).
    Compiled when first needed: its classes of glue take 4 ms to compile, and a run
    whose index lines all link their memories never needs it."""
    return re.compile(f"({_BOUNDARY})")


# A text of words and spaces (a file name's `.md` aside) holds no boundary: most
# stems, names and file names. It is one phrase, with no need to split it.
_NO_BOUNDARY = lazy_regex.compile(r"[\w\s]*|\s*\w[\w\s]*(?<!\s)\.md\s*")


def _phrases(text: str) -> tuple[list[str], list[str]]:
    """The phrases of a text between boundaries (case-folded, spaces collapsed) and
    the boundary between each two (spaces removed)."""
    if _NO_BOUNDARY.fullmatch(text):
        phrase = " ".join(text.split()).casefold()
        return ([phrase] if phrase else []), []
    parts = _boundaries().split(text)  # phrase, boundary, phrase, ..., phrase
    phrases: list[str] = []
    seps: list[str] = []
    pending = ""
    for i in range(0, len(parts), 2):
        part = parts[i]
        phrase = " ".join(part.split()).casefold()
        if phrase:
            if phrases:
                seps.append(pending)
            phrases.append(phrase)
            pending = ""
        if i + 1 < len(parts):
            pending += "".join(parts[i + 1].split())
    return phrases, seps


def _window(phrases: list[str], seps: list[str], start: int, count: int) -> str:
    if count == 1:  # most names: one phrase, looked up as it is
        return phrases[start]
    parts = [phrases[start]]
    for i in range(start + 1, start + count):
        parts.append(seps[i - 1])
        parts.append(phrases[i])
    return "\x00".join(parts)


def memories_named(lines: Iterable[tuple[int, str]], memories: Sequence[Memory]) -> dict[int, set[str]]:
    """For each of these (line, text) pairs that names memories (see _BOUNDARY), the
    file names of those memories."""
    wanted: dict[str, set[str]] = {}  # phrase window -> memories it names
    sizes: set[int] = set()
    for m in memories:
        for text in {m.filename, m.stem, m.name or ""}:
            phrases, seps = _phrases(text)
            if phrases and len(phrases) <= _MAX_PHRASES:
                wanted.setdefault(_window(phrases, seps, 0, len(phrases)), set()).add(m.filename)
                sizes.add(len(phrases))
    filenames = {m.filename for m in memories}
    # A word that is a file name ends as every memory's file name does (`.md`): a line
    # without that ending anywhere is not split into words.
    tail = posixpath.commonprefix([f[::-1] for f in filenames])[::-1]
    found: dict[int, set[str]] = {}
    for lineno, line in lines:
        here: set[str] = set()
        phrases, seps = _phrases(line)
        for size in sizes:
            for start in range(len(phrases) - size + 1):
                hit = wanted.get(_window(phrases, seps, start, size))
                if hit:
                    here |= hit
        for word in _WORDS.findall(line) if tail in line else ():
            word = word.rstrip(".,;:!?'\u2019")
            if word.startswith("./"):
                word = word[2:]
            if word in filenames:
                here.add(word)
        if here:
            found[lineno] = here
    return found
