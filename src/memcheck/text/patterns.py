"""Globs in guidance frontmatter (`globs`, `paths`, `applyTo`) and in @-mentions.

Each distinct pattern is parsed once. "Does this glob match any file of the tree?"
(GDN008, and glob @-mentions) is answered by one ``FileIndex`` per run, built only
when the first such question is asked: it narrows the candidates by the pattern's
literal folder prefix, file name or extension before trying the pattern, and
remembers every answer, so a tree with thousands of guidance files sharing a few
patterns costs one look-up per distinct pattern, not one pass over the files each.

Matching works on path segments: ``**`` alone in a segment spans any number of
folders, ``*`` and ``?`` stay within one, ``[...]`` (``[!...]`` negates) is a
character class, ``{a,b}`` alternatives. A segment is compiled with
``fnmatch.translate``, which guards against the catastrophic backtracking that a
hand-made regex of several ``*`` invites; the segments are matched against the path
by a small dynamic programme (at most pattern segments x path segments steps).
"""
from __future__ import annotations

import bisect
import re
from fnmatch import translate
from functools import lru_cache
from typing import Iterable, NamedTuple, Sequence

# fnmatch has no braces, and a pattern like {a,b}{a,b}... doubles with every group:
# alternatives are spelled out up to this many (Claude Code's own brace budget is
# 1,000 patterns), and a pattern needing more is reported instead of expanded.
MAX_ALTERNATIVES = 1000
# Spelling out alternatives copies the pattern once each, and nesting recurses: a
# pattern longer than this is reported rather than expanded (real ones are tens of
# characters; 1,000 alternatives of it stay under a megabyte).
MAX_PATTERN = 1000
# Spelling out nested braces recurses once per level. Real patterns nest one or two
# deep; past this, a pattern is reported rather than expanded. The bound is memcheck's
# own, so the finding does not depend on the Python running it (3.12 and later let
# recursion go deeper than 3.11 did, and 400 levels stopped raising RecursionError).
MAX_BRACE_DEPTH = 32
_MAGIC = re.compile(r"[*?\[]")
_GLOBSTAR = "**"


class Pattern(NamedTuple):
    """One brace-free alternative, as segments (``**`` kept as its own segment)."""

    segments: tuple[str, ...]
    anywhere: bool  # no slash: may match a file name at any depth


def _top_level_parts(value: str) -> list[str]:
    """``value`` split on the commas that are not inside ``{...}``."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(value):
        if c == "{":
            depth += 1
        elif c == "}" and depth:
            depth -= 1
        elif c == "," and not depth:
            parts.append(value[start:i])
            start = i + 1
    parts.append(value[start:])
    return parts


def _brace_depth(pattern: str) -> int:
    """How deep ``pattern``'s braces nest (an unmatched '}' closes nothing)."""
    depth = deepest = 0
    for c in pattern:
        if c == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif c == "}" and depth:
            depth -= 1
    return deepest


def split_list(value: str) -> list[str]:
    """A comma-separated glob list (``applyTo``, Cursor's ``globs``), split on the
    commas that are not inside ``{...}``; blanks dropped."""
    return [p.strip() for p in _top_level_parts(value) if p.strip()]


def brace_count(pattern: str) -> int:
    """How many patterns ``pattern`` stands for once its braces are spelled out,
    counted without spelling them out (capped just past ``MAX_ALTERNATIVES``)."""
    # stack of (alternatives so far in this group, product of the current alternative)
    stack: list[tuple[int, int]] = []
    total_alt, current = 0, 1
    for c in pattern:
        if c == "{":
            stack.append((total_alt, current))
            total_alt, current = 0, 1
        elif c == "," and stack:
            total_alt += current
            current = 1
        elif c == "}" and stack:
            group = total_alt + current
            total_alt, current = stack.pop()
            current = min(current * group, MAX_ALTERNATIVES + 1)
    while stack:  # an unclosed '{' is literal text
        total_alt, current = stack.pop()
    return min(current, MAX_ALTERNATIVES + 1)


def _alternatives(pattern: str) -> list[str]:
    """``pattern`` with its (balanced) braces spelled out; callers first check
    ``brace_count`` so this stays within ``MAX_ALTERNATIVES``."""
    depth, start = 0, -1
    for i, c in enumerate(pattern):
        if c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif c == "}" and depth:
            depth -= 1
            if depth == 0:
                head, body, tail = pattern[:start], pattern[start + 1 : i], pattern[i + 1 :]
                return [head + alt + rest for alt in _group_alternatives(body) for rest in _alternatives(tail)]
    return [pattern]


def _group_alternatives(body: str) -> list[str]:
    """The alternatives of a brace group's body (empty ones kept: ``{,x}``)."""
    return [alt for part in _top_level_parts(body) for alt in _alternatives(part)]


def _normalize(pattern: str) -> str:
    pattern = pattern.strip()
    while pattern.startswith("./"):
        pattern = pattern[2:]
    pattern = pattern.lstrip("/")
    if pattern.endswith("/"):  # a folder: the files below it
        pattern += _GLOBSTAR
    return pattern


@lru_cache(maxsize=4096)
def compile_glob(pattern: str) -> tuple[Pattern, ...]:
    """The brace-free alternatives of ``pattern`` (without its ``!``), or () when it
    has more than ``MAX_ALTERNATIVES`` of them or is over ``MAX_PATTERN`` characters."""
    if len(pattern) > MAX_PATTERN or _brace_depth(pattern) > MAX_BRACE_DEPTH or brace_count(pattern) > MAX_ALTERNATIVES:
        return ()
    spelled = _alternatives(_normalize(pattern))
    found = []
    for alt in spelled:
        segments = tuple(s for s in alt.split("/") if s)
        # consecutive ** are one **; keeps the matcher's work per segment bounded
        collapsed: list[str] = []
        for s in segments:
            if not (s == _GLOBSTAR and collapsed and collapsed[-1] == _GLOBSTAR):
                collapsed.append(s)
        if collapsed:
            found.append(Pattern(tuple(collapsed), "/" not in alt.strip("/")))
    return tuple(found)


@lru_cache(maxsize=8192)
def _segment(segment: str) -> re.Pattern[str] | None:
    """A compiled segment, or None for a literal one (compared as text)."""
    if not _MAGIC.search(segment):
        return None
    # An unclosed '[' is a literal bracket, as in fnmatch; '**' inside a segment is '*'.
    try:
        return re.compile(translate(segment.replace(_GLOBSTAR, "*")))
    except (re.error, RecursionError, OverflowError):
        return re.compile(re.escape(segment) + r"\Z")


def _segment_matches(pattern: str, name: str) -> bool:
    compiled = _segment(pattern)
    return name == pattern if compiled is None else compiled.match(name) is not None


def _matches(segments: tuple[str, ...], path: Sequence[str]) -> bool:
    """Do the pattern segments match the path segments?"""
    # reach[j]: the pattern segments matched so far can end right before path[j]
    reach = [True] + [False] * len(path)
    for seg in segments:
        nxt = [False] * (len(path) + 1)
        if seg == _GLOBSTAR:
            seen = False
            for j in range(len(path) + 1):
                seen = seen or reach[j]
                nxt[j] = seen
        else:
            for j in range(len(path)):
                if reach[j] and _segment_matches(seg, path[j]):
                    nxt[j + 1] = True
        reach = nxt
        if not any(reach):
            return False
    return reach[-1]


@lru_cache(maxsize=8192)  # the same globs recur from file to file
def problem(pattern: str) -> str | None:
    """Why ``pattern`` is not a usable glob, or None."""
    body = pattern[1:] if pattern.startswith("!") else pattern
    if not body.strip():
        return "is empty"
    if len(body) > MAX_PATTERN:
        return f"is {len(body):,} characters long; memcheck does not expand patterns over {MAX_PATTERN:,}"
    if "***" in body:
        return "has '***'; use '**' for any depth"
    depth = 0
    for c in body:
        depth += {"{": 1, "}": -1}.get(c, 0)
        if depth < 0:
            return "has a '}' without a '{'"
    if depth:
        return "has a '{' without a '}'"
    if body.count("[") != body.count("]"):
        return "has unbalanced '[' and ']'"
    for alt in body.split("/"):
        if re.search(r"\[([^\]]*)\]", alt):
            for m in re.finditer(r"\[!?([^\]]+)\]", alt):
                for a, b in re.findall(r"(.)-(.)", m.group(1)):
                    if a > b:
                        return f"has the range {a}-{b}, which is empty"
    count = brace_count(body)
    if count > MAX_ALTERNATIVES:
        return f"stands for more than {MAX_ALTERNATIVES:,} patterns once its {{...}} are spelled out; split it"
    if not _normalize(body).strip("/"):
        return "names no path (only '/' or './'); write '**' for every file"
    if _brace_depth(body) > MAX_BRACE_DEPTH:
        return f"nests {{...}} more than {MAX_BRACE_DEPTH} levels deep; memcheck does not spell it out"
    if not compile_glob(body):  # every alternative empty: `{,}`, `{/,/}`
        return "names no path once its {...} are spelled out"
    return None


def _readings(path: str, folder: str, anywhere: bool) -> list[list[str]]:
    """The path as each reader may take it: from the repository root, from the
    guidance file's folder, and (for a slash-less pattern) by its file name alone."""
    out = [path.split("/")]
    if folder and path.startswith(folder + "/"):
        out.append(path[len(folder) + 1 :].split("/"))
    if anywhere:
        out.append([path.rpartition("/")[2]])
    return out


def match(pattern: str, path: str, folder: str = "") -> bool:
    """Does ``pattern`` (without its ``!``) name ``path``?

    Readers disagree on the base (repository root or the guidance file's folder) and
    on whether a slash-less pattern matches at any depth, so any of those readings
    counts.
    """
    for alt in compile_glob(pattern):
        for reading in _readings(path, folder, alt.anywhere):
            if _matches(alt.segments, reading):
                return True
    return False


def applies(globs: Sequence[str], path: str, folder: str) -> tuple[bool, str | None]:
    """Seed 000's should_apply_guidance for a list of globs: the first exclusion that
    matches wins, then any inclusion; (applies, the deciding pattern)."""
    for pattern in globs:
        if pattern.startswith("!") and match(pattern[1:], path, folder):
            return False, pattern
    for pattern in globs:
        if not pattern.startswith("!") and match(pattern, path, folder):
            return True, pattern
    return False, None


class FileIndex:
    """The tree's files and folders, indexed to answer "does this glob name any of
    them?". A pattern naming a folder (``src/api``) counts: some readers take it
    as everything below that folder, and a check must not call it a dead pattern."""

    def __init__(self, files: Iterable[str]):
        entries: set[str] = set()
        for path in files:
            entries.add(path)
            folder = path.rpartition("/")[0]
            while folder and folder not in entries:
                entries.add(folder)
                folder = folder.rpartition("/")[0]
        self.entries = sorted(entries)
        self.by_name: dict[str, list[str]] = {}
        self.by_ext: dict[str, list[str]] = {}
        for entry in self.entries:
            name = entry.rpartition("/")[2]
            self.by_name.setdefault(name, []).append(entry)
            if "." in name:
                self.by_ext.setdefault(name.rpartition(".")[2], []).append(entry)
        # Distinct names, sorted, for names a pattern fixes the start of (``test_*``).
        self.names = sorted(self.by_name)
        # Answers per pattern and base: the root's reading is shared by every folder
        # whose guidance file has the pattern (keyed by folder, it was worked out again
        # for each: 1,200 folders with "**/zz*" took 9.8 s, four times 600's).
        self._answers: dict[tuple[Pattern, str], bool] = {}
        self._by_names: dict[Pattern, bool] = {}

    def any_match(self, pattern: str, folder: str = "") -> bool:
        """Does ``pattern`` (without its ``!``) name any file or folder, read from the
        root, from ``folder``, or (without a slash) as a name at any depth?"""
        return any(self._alternative(alt, folder) for alt in compile_glob(pattern))

    def _alternative(self, alt: Pattern, folder: str) -> bool:
        bases = ("", folder) if folder else ("",)
        return any(self._reading(alt, base) for base in bases) or (alt.anywhere and self._by_name(alt))

    def _pool(self, alt: Pattern, prefix: str) -> Sequence[str]:
        """The fewest entries that can match: those under the pattern's literal
        folder prefix, or those with the name or extension its last segment fixes."""
        if prefix:
            lo = bisect.bisect_left(self.entries, prefix)
            hi = bisect.bisect_left(self.entries, prefix + "\U0010ffff", lo)
            pool: Sequence[str] = self.entries[lo:hi]
        else:
            pool = self.entries
        last = alt.segments[-1]
        by_last: Sequence[str] | None = None
        if last != _GLOBSTAR and not _MAGIC.search(last):
            by_last = self.by_name.get(last, [])
        elif last != _GLOBSTAR:
            tail = last.rpartition("*")[2]
            head = _MAGIC.split(last, 1)[0]
            if "." in tail and not _MAGIC.search(tail):
                by_last = self.by_ext.get(tail.rpartition(".")[2], [])
            elif head:
                by_last = self._named_from(head, len(pool))
        return by_last if by_last is not None and len(by_last) < len(pool) else pool

    def _named_from(self, head: str, enough: int) -> Sequence[str] | None:
        """The entries whose name starts with ``head``; None once there are ``enough``."""
        lo = bisect.bisect_left(self.names, head)
        hi = bisect.bisect_left(self.names, head + "\U0010ffff", lo)
        found: list[str] = []
        for name in self.names[lo:hi]:
            found += self.by_name[name]
            if len(found) >= enough:
                return None
        return found

    def _reading(self, alt: Pattern, base: str) -> bool:
        key = (alt, base)
        known = self._answers.get(key)
        if known is None:
            known = self._answers[key] = self._reads(alt, base)
        return known

    def _reads(self, alt: Pattern, base: str) -> bool:
        literal = []
        for seg in alt.segments:
            if seg == _GLOBSTAR or _MAGIC.search(seg):
                break
            literal.append(seg)
        start = len(base.split("/")) if base else 0
        below = base + "/" if base else ""
        pool = self._pool(alt, "/".join(x for x in (base, *literal) if x))
        return any(_matches(alt.segments, entry.split("/")[start:]) for entry in pool if entry.startswith(below))

    def _by_name(self, alt: Pattern) -> bool:
        known = self._by_names.get(alt)
        if known is None:
            (seg,) = alt.segments
            known = self._by_names[alt] = any(_segment_matches(seg, entry.rpartition("/")[2]) for entry in self._pool(alt, ""))
        return known
