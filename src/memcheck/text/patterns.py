"""Every pattern memcheck matches paths with: one module, so that each kind is read,
compiled and matched one way only.

- **Gitignore lines**: the config's ``exclude`` and ``per-path-ignores``, and the
  guard's categories, allowances and templates. pathspec reads them (its
  ``GitIgnoreSpec`` replicates git's edge cases) and google-re2 matches them, through
  pathspec's ``re2`` backend and public API only. re2 runs in time linear in the path
  whatever the pattern; Python's re backtracks, and pathspec's regex for
  ``*a*a*a*a*a*a*a*a*a*a*b`` took it 40 s against a name of 40 ``a``. Each list of
  lines is compiled once. Which of the guard's lines is the first to match a path
  is text/first_match.py's, on the same reading.
- **Folder globs** (``memory.stores``, ``skills.roots``): a folder's last segments, one
  fnmatch pattern each.
- **Agent globs** in guidance frontmatter (``globs``, ``paths``, ``applyTo``) and in
  @-mentions, below.

Folder and agent globs are translated by ``fnmatch.translate`` and stay on re: it
writes every ``*`` but the last as an atomic group (on 3.10, a lookahead and a
back-reference that act as one), which the engine never backtracks into, so a segment
is matched in time linear in the name. ``*a*a*a*a*a*a*a*a*a*a*b`` against 8,000
characters of ``ab`` takes 0.05 ms on Python 3.10 and 3.11, and doubling the name
doubles it.

Agent globs: each distinct pattern is parsed once. "Does this glob match any file of
the tree?" (GDN008, and glob @-mentions) is answered by one ``FileIndex`` per run,
built only when the first such question is asked: it narrows the candidates by the
pattern's literal folder prefix, file name or extension before trying the pattern,
and remembers every answer, so a tree with thousands of guidance files sharing a few
patterns costs one look-up per distinct pattern, not one pass over the files each.
A pattern it finds nothing for is then tried on the disk (``any_in_tree``).

Matching works on path segments: ``**`` alone in a segment spans any number of
folders, ``*`` and ``?`` stay within one, ``[...]`` (``[!...]`` negates) is a
character class, ``{a,b}`` alternatives. A segment is compiled with
``fnmatch.translate`` (see above); the segments are matched against the path by a
small dynamic programme (at most pattern segments x path segments steps).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from fnmatch import translate
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Callable, Iterable, Sequence, TypeVar

from memcheck import lazy_regex
from memcheck.paths import basename, parent
from memcheck.records import NamedTuple

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

_T = TypeVar("_T")

# --- Gitignore lines -------------------------------------------------------------------

BACKEND = "re2"  # pathspec's backend: never Python's re for a user's pattern
# re2 reads UTF-8, which has no encoding for a lone surrogate (Python decodes a file
# name's stray bytes to one): each becomes a code point at the end of plane 16's
# private-use area, U+10F800-U+10FFFF, which a wildcard matches as it matched the
# surrogate and which no real pattern names. A pattern's surrogates move the same way.
_SURROGATE = lazy_regex.compile("[\ud800-\udfff]")
_TO_PRIVATE_USE = 0x10F800 - 0xD800


def for_re2(text: str) -> str:
    if text.isascii() or not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(lambda m: chr(ord(m.group()) + _TO_PRIVATE_USE), text)


def nfc(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFC", text)


class TooManyPatterns(ValueError):
    """Patterns re2 can match one by one but not as one set: its memory budget for a set
    is spent (seen at about 2,500 lines like `**/*a*a*a*a*b/**`; 19,000 lines like
    `src/p1/**` fit). Reported to the user as a configuration error."""


def built(make: Callable[[], _T], count: int = 1) -> _T:
    """``make()``, with a pattern re2 refuses reported as a ValueError, as pathspec
    reports a line git cannot read. (None is known that re reads: [[:alpha:]] is one,
    and the config refuses it first.)"""
    try:
        return make()
    except Exception as e:
        import re2

        if isinstance(e, re2.error):
            if "Set" in str(e) and count > 1:
                raise TooManyPatterns(
                    f"{count:,} patterns are too many, or too complex, to match together in time linear in the path (re2: {e}); use fewer or simpler patterns"
                ) from None
            raise ValueError(f"re2 cannot compile it ({e})") from None
        raise


class GitIgnore:
    """Gitignore lines, compiled once and matched as git reads them: the last line that
    matches a path decides, and a ``!`` line takes the path back out.

    ``each_alone``: each line is judged on its own (``per-path-ignores``), and the
    question is whether any matches. A ``!`` line alone matches nothing, so it is left
    out rather than let it take a path back from the lines before it."""

    def __init__(self, lines: Iterable[str], each_alone: bool = False) -> None:
        import pathspec  # only where a config has patterns
        from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

        # As GitIgnoreSpec.from_lines reads them (an empty line is no pattern at all).
        read = [GitIgnoreSpecPattern(for_re2(line)) for line in lines if line]
        if each_alone:
            read = [pattern for pattern in read if pattern.include]
        self._spec: GitIgnoreSpec = built(lambda: pathspec.GitIgnoreSpec(read, backend=BACKEND), len(read))

    def match(self, path: str) -> bool:
        return self._spec.match_file(for_re2(path))


@lru_cache(maxsize=64)
def gitignore(lines: tuple[str, ...]) -> GitIgnore:
    """The lines compiled, once per list however often a run asks."""
    return GitIgnore(lines)


@lru_cache(maxsize=256)
def any_line(lines: tuple[str, ...]) -> GitIgnore:
    """The lines compiled, each judged on its own, once per list."""
    return GitIgnore(lines, each_alone=True)


# --- Folder globs ----------------------------------------------------------------------

_MAGIC = lazy_regex.compile(r"[*?\[]")  # what makes a glob segment more than a literal name


@cache
def folder_glob(glob: str) -> tuple[str, ...]:
    """A folder glob's segments (``memory.stores``, ``skills.roots``)."""
    return tuple(s for s in glob.strip("/").split("/") if s)


def folder_glob_regexes(glob: str) -> list[re.Pattern[str]]:
    """A folder glob's segments compiled, the blank ones too, as matching compiles them:
    the config's check that a glob is usable. re's warnings are left to the caller."""
    return [re.compile(translate(segment)) for segment in glob.split("/")]


@lru_cache(maxsize=4096)
def _folder_segment(segment: str) -> Callable[[str], re.Match[str] | None]:
    return re.compile(translate(segment)).match


def folder_matches(segments: tuple[str, ...], folder_parts: Sequence[str]) -> bool:
    """Do a folder glob's segments name the folder whose segments are ``folder_parts``?
    They match its last segments, one each; ``*`` stays within one."""
    if not segments or len(segments) > len(folder_parts):
        return False
    return all(_folder_segment(want)(have) is not None for have, want in zip(folder_parts[-len(segments) :], segments))


def glob_matches_folder(glob: str, folder: str) -> bool:
    """``glob`` names ``folder`` at any depth; ``*`` matches one path segment."""
    return folder_matches(folder_glob(glob), folder.split("/") if folder else [])


def is_literal(segment: str) -> bool:
    """A glob segment without ``*``, ``?`` or ``[``: a name, compared as text."""
    return not _MAGIC.search(segment)


# --- Agent globs -----------------------------------------------------------------------
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
_GLOBSTAR = "**"


class Alternative(NamedTuple):
    """One brace-free alternative of an agent glob, as segments (``**`` kept as its own segment)."""

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
def compile_glob(pattern: str) -> tuple[Alternative, ...]:
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
            found.append(Alternative(tuple(collapsed), "/" not in alt.strip("/")))
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
        out.append([basename(path)])
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
            folder = parent(path)
            while folder and folder not in entries:
                entries.add(folder)
                folder = parent(folder)
        self.entries = sorted(entries)
        self.by_name: dict[str, list[str]] = {}
        self.by_ext: dict[str, list[str]] = {}
        for entry in self.entries:
            name = basename(entry)
            self.by_name.setdefault(name, []).append(entry)
            if "." in name:
                self.by_ext.setdefault(name.rpartition(".")[2], []).append(entry)
        # Distinct names, sorted, for names a pattern fixes the start of (``test_*``).
        self.names = sorted(self.by_name)
        # Answers per pattern and base: the root's reading is shared by every folder
        # whose guidance file has the pattern (keyed by folder, it was worked out again
        # for each: 1,200 folders with "**/zz*" took 9.8 s, four times 600's).
        self._answers: dict[tuple[Alternative, str], bool] = {}
        self._by_names: dict[Alternative, bool] = {}

    def any_match(self, pattern: str, folder: str = "") -> bool:
        """Does ``pattern`` (without its ``!``) name any file or folder, read from the
        root, from ``folder``, or (without a slash) as a name at any depth?"""
        return any(self._alternative(alt, folder) for alt in compile_glob(pattern))

    def _alternative(self, alt: Alternative, folder: str) -> bool:
        bases = ("", folder) if folder else ("",)
        return any(self._reading(alt, base) for base in bases) or (alt.anywhere and self._by_name(alt))

    def _pool(self, alt: Alternative, prefix: str) -> Sequence[str]:
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

    def _reading(self, alt: Alternative, base: str) -> bool:
        key = (alt, base)
        known = self._answers.get(key)
        if known is None:
            known = self._answers[key] = self._reads(alt, base)
        return known

    def _reads(self, alt: Alternative, base: str) -> bool:
        literal = []
        for seg in alt.segments:
            if seg == _GLOBSTAR or _MAGIC.search(seg):
                break
            literal.append(seg)
        start = len(base.split("/")) if base else 0
        below = base + "/" if base else ""
        pool = self._pool(alt, "/".join(x for x in (base, *literal) if x))
        return any(_matches(alt.segments, entry.split("/")[start:]) for entry in pool if entry.startswith(below))

    def _by_name(self, alt: Alternative) -> bool:
        known = self._by_names.get(alt)
        if known is None:
            (seg,) = alt.segments
            known = self._by_names[alt] = any(_segment_matches(seg, basename(entry)) for entry in self._pool(alt, ""))
        return known


# A folder's entries, one folder at a time: (its folders, its other entries), as names.
Entries = Callable[[str], "tuple[Sequence[str], Sequence[str]]"]


def any_in_tree(pattern: str, folder: str, entries: Entries) -> bool:
    """``FileIndex.any_match`` on a tree read one folder at a time by ``entries``,
    going only where the pattern leads: into the folders its segments name, and below
    a ``**`` (folders in order) until the first match. Each folder is read at most
    once per alternative and reading; the caller keeps what was read."""
    for alt in compile_glob(pattern):
        readings = [("", alt.segments)] + ([(folder, alt.segments)] if folder else [])
        if alt.anywhere:
            readings.append(("", (_GLOBSTAR, *alt.segments)))
        if any(_in_tree(start, segments, entries) for start, segments in readings):
            return True
    return False


def _in_tree(start: str, segments: tuple[str, ...], entries: Entries) -> bool:
    # Depth first, without recursion (a tree can be thousands of folders deep): a
    # state is a folder and the segments matched down to it.
    last = len(segments) - 1
    # ends[i]: segments i and after match no segment at all (each is a **)
    ends = [all(s == _GLOBSTAR for s in segments[i:]) for i in range(len(segments) + 1)]
    todo, seen = [(start, 0)], set()
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        at, i = state
        if i > last:  # a ** ended on a folder below the start: it names that folder
            if at != start:
                return True
            continue
        folders, others = entries(at)
        seg = segments[i]
        if seg == _GLOBSTAR:
            if i == last and (folders or others or at != start):
                return True
            todo.extend((f"{at}/{name}" if at else name, i) for name in reversed(folders))
            todo.append((at, i + 1))  # tried first: no folder more
            continue
        if ends[i + 1] and any(_segment_matches(seg, name) for name in (*folders, *others)):
            return True
        todo.extend((f"{at}/{name}" if at else name, i + 1) for name in reversed(folders) if _segment_matches(seg, name))
    return False
