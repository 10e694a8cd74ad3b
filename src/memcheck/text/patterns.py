"""Every pattern memcheck matches paths with: one module, so that each kind is read,
compiled and matched one way only.

- **Gitignore lines**: the config's ``exclude`` and ``per-path-ignores``, and the
  guard's categories, allowances and templates. pathspec reads them (its
  ``GitIgnoreSpec`` replicates git's edge cases) and google-re2 matches them, through
  pathspec's ``re2`` backend and public API only. re2 runs in time linear in the path
  whatever the pattern; Python's re backtracks, and pathspec's regex for
  ``*a*a*a*a*a*a*a*a*a*a*b`` took it 40 s against a name of 40 ``a``. Each list of
  lines is compiled once.
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
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, NamedTuple, Sequence, TypeVar

from memcheck.paths import basename, parent

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec, PathSpec, RegexPattern

_T = TypeVar("_T")

# --- Gitignore lines -------------------------------------------------------------------

_BACKEND = "re2"  # pathspec's backend: never Python's re for a user's pattern
# re2 reads UTF-8, which has no encoding for a lone surrogate (Python decodes a file
# name's stray bytes to one): each becomes a code point at the end of plane 16's
# private-use area, U+10F800-U+10FFFF, which a wildcard matches as it matched the
# surrogate and which no real pattern names. A pattern's surrogates move the same way.
_SURROGATE = re.compile("[\ud800-\udfff]")
_TO_PRIVATE_USE = 0x10F800 - 0xD800


def _for_re2(text: str) -> str:
    if text.isascii() or not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(lambda m: chr(ord(m.group()) + _TO_PRIVATE_USE), text)


def _nfc(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFC", text)


class TooManyPatterns(ValueError):
    """Patterns re2 can match one by one but not as one set: its memory budget for a set
    is spent (seen at about 2,500 lines like `**/*a*a*a*a*b/**`; 19,000 lines like
    `src/p1/**` fit). Reported to the user as a configuration error."""


def _built(make: Callable[[], _T], count: int = 1) -> _T:
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
        read = [GitIgnoreSpecPattern(_for_re2(line)) for line in lines if line]
        if each_alone:
            read = [pattern for pattern in read if pattern.include]
        self._spec: GitIgnoreSpec = _built(lambda: pathspec.GitIgnoreSpec(read, backend=_BACKEND), len(read))

    def match(self, path: str) -> bool:
        return self._spec.match_file(_for_re2(path))


@lru_cache(maxsize=64)
def gitignore(lines: tuple[str, ...]) -> GitIgnore:
    """The lines compiled, once per list however often a run asks."""
    return GitIgnore(lines)


@lru_cache(maxsize=256)
def any_line(lines: tuple[str, ...]) -> GitIgnore:
    """The lines compiled, each judged on its own, once per list."""
    return GitIgnore(lines, each_alone=True)


class BadLine(ValueError):
    """A line ``FirstMatch`` cannot match: ``index`` says which; ``unreadable``: git
    cannot read it as a gitignore line (pathspec's ValueError), else its regex is refused."""

    def __init__(self, index: int, error: Exception, unreadable: bool) -> None:
        super().__init__(str(error))
        self.index = index
        self.error = error
        self.unreadable = unreadable


# pathspec's regex for a gitignore line and whether the line includes, by line: what
# ``translated`` gives, kept in a file for lines known before a run (the guard's own).
Translations = Mapping[str, "tuple[str | None, bool | None]"]


@lru_cache(maxsize=4096)
def translated(line: str) -> tuple[str | None, bool | None]:
    """pathspec's regex for a gitignore line, and whether the line includes (None for a
    blank line or a comment), as its pattern object gives them, without compiling it
    with Python's re, as the object does (20 ms for the guard's shipped lines)."""
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    source, include = GitIgnoreSpecPattern.pattern_to_regex(line)
    assert source is None or isinstance(source, str)
    return (source, include) if source is not None and include is not None else (None, None)


@lru_cache(maxsize=4096)
def _regex_pattern(regex: str) -> RegexPattern:
    """A regex as a pathspec pattern, compiled and matched by re2 only (the backend
    reads its source); the guard's sets share the patterns of the lines they have in common."""
    import re2
    from pathspec import RegexPattern

    return RegexPattern(re2.compile(regex), include=True)


class _Lines(NamedTuple):
    """Lines as one re2 set; ``order``: the line each of the set's patterns stands for.
    pathspec answers with the last pattern that matches, so the lines go in latest
    first, and its answer is the earliest line."""

    spec: PathSpec[RegexPattern]
    order: tuple[int, ...]

    def first(self, text: str) -> int | None:
        # No separators to normalise: the text is a path segment, or starts with _START.
        found = self.spec.check_file(text if text.isascii() else _for_re2(text), separators=()).index
        return None if found is None else self.order[found]


def _lines(regexes: Mapping[int, str], indices: Iterable[int]) -> _Lines:
    import pathspec

    order = tuple(sorted(indices, reverse=True))
    return _Lines(_built(lambda: pathspec.PathSpec([_regex_pattern(regexes[i]) for i in order], backend=_BACKEND), len(order)), order)


# pathspec writes a line without a slash (but for a trailing one) as this prefix, its
# match of one path segment, and one of these suffixes (any entry / folders only).
_ANY_DEPTH = "^(?:.+/)?"
_ANY, _FOLDERS, _FILES = 0, 1, 2  # what a one-segment line may match: any entry, folders, files
_SUFFIXES = (("(?:(?P<ps_d>/)|$)", _ANY), ("(?P<ps_d>/)", _FOLDERS))
# What a path segment is, and so which lines may match it: a folder above the path,
# the path's own name as a file or as a folder, or (a symlink's target, which may be
# either) both.
_AS_FOLDER, _AS_FILE, _AS_EITHER = (_ANY, _FOLDERS), (_ANY, _FILES), (_ANY, _FOLDERS, _FILES)
_LITERAL_TAIL = re.compile(r"[^*?\]\\]*$")
# Put before a path that whole-path lines are tried on, and matched first by their
# regexes: pathspec drops a leading "/" or "./" from what it is given, which the lines
# must see. No path holds a NUL.
_START, _START_REGEX = "\x00", r"\x00"
# A segment only the same name matches, in any case: ASCII (str.lower and re2 may fold
# other names apart), no wildcard, escape, class or space, not "." or "..".
_PLAIN_SEGMENT = re.compile(r"(?![.]+$)[A-Za-z0-9._-]+")


def _extension(name: str) -> str:
    return name.rpartition(".")[2] if "." in name else ""


class FirstMatch:
    """Gitignore lines asked which is the first to match a path (the guard's question),
    each line on its own: a ``!`` only marks the line, which matches as it would without
    it. Matched after Unicode NFC normalisation, case-insensitively unless
    ``case_sensitive``, a newline in a name being a character like any other.

    A line without a slash matches one path segment, and the path's segments are tried
    from the top: the first segment that some of those lines match decides, by the
    earliest of them. Segments repeat from path to path, so each is matched once. The
    lines with a slash are tried after, on the whole path.

    A one-segment line is filed under the extension its literal tail demands
    (``*[._-]secret.json`` can only match a segment ending in ``.json``), and a segment
    tries just its own extension's lines and those without a fixed extension. A line
    with a fixed extension is read by pathspec the first time a segment with that
    extension is judged: a range of Markdown and Python files needs two or three of
    some fifty, and compiling them all costs more than judging the range.

    ``files``: the lines that name a file, never a folder above it, and never a file
    with one of the ``spared`` extensions (source code and documentation).
    ``at_once``: lines compiled at once (the config's), so that a bad one is reported
    before anything is judged; the others are known to compile.
    ``translations``: the regexes of lines known before the run (``translated`` of
    each, kept in a file), so a run that needs no more imports no pathspec: the
    import alone was a fifth of a guard run that finds nothing.
    """

    def __init__(
        self,
        lines: Sequence[str],
        case_sensitive: bool = False,
        at_once: Iterable[int] = (),
        files: Iterable[int] = (),
        spared: frozenset[str] = frozenset(),
        translations: Translations | None = None,
    ) -> None:
        self._lines = tuple(_nfc(line) for line in lines)
        self._translations = translations or {}
        self._spared = spared
        self._fold: Callable[[str], str] = (lambda s: s) if case_sensitive else str.lower
        self._flags = "(?s)" if case_sensitive else "(?si)"
        self._files = frozenset(files)
        at_once = self._at_once = frozenset(at_once)
        self._regexes: dict[int, str] = {}
        self._cores: dict[int, str] = {}  # a one-segment line's regex, unanchored (see none_match)
        self._by_key: dict[tuple[str, int], list[int]] = {}  # (extension, what it matches) -> one-segment lines
        self._later: dict[str, list[int]] = {}  # extension -> lines read when a segment with it is judged
        self._whole_lines: list[int] = []
        for i, line in enumerate(self._lines):
            body = line.removeprefix("!")
            ext = self._fixed_extension(body)
            if ext and "/" not in body.rstrip("/") and i not in self._files and i not in at_once:
                self._later.setdefault(ext, []).append(i)
                continue
            self._read(i)
            if i in at_once and i in self._regexes:
                try:
                    _lines(self._regexes, [i])
                except (ValueError, re.error) as e:
                    raise BadLine(i, e, unreadable=False) from None
        self._segment: dict[tuple[str | None, tuple[int, ...]], _Lines | None] = {}
        self._whole_set: _Lines | None = None  # the whole-path lines as one set, made when first asked
        # A name each whole-path line needs (the guard's 32 each name one: .vscode,
        # secrets): a path (ASCII) holding none is not asked. None: a line names none.
        plain = [next((seg for seg in self._lines[i].removeprefix("!").split("/") if _PLAIN_SEGMENT.fullmatch(seg)), None) for i in self._whole_lines]
        self._whole_names = None if None in plain else frozenset(self._fold(seg) for seg in plain if seg is not None)
        self._seen: dict[tuple[str, tuple[int, ...]], int | None] = {}
        self._scans: dict[tuple[int, ...], Callable[[str], Iterable[re.Match[str]]] | None] = {}

    def none_match(self, paths: Iterable[str]) -> set[str]:
        """Of these paths (repository-relative, files), some that no line matches: as
        ``first_at`` finds no line for each, and no line matches each through a
        folder above it. A path this cannot tell about quickly is left out, to be
        asked one by one: a non-ASCII one (NFC, and case folding beyond ASCII), or
        every one when a line matched across names (below).

        Asking 10,000 paths one by one took 80 ms, in Python calls per path; here the
        distinct names of all the paths are tried at once, by one regex of every
        one-segment line that may match them run over them joined as
        ``/name1//name2/``, and whole-path lines are asked only of paths holding a name
        each needs. A line's regex never matches a ``/`` within one name (a name has
        none), so when every match is one whole name, those are all the names any line
        matches (re2 scans left to right, and each name has its own two slashes); a
        match across names (a negated class, ``[!x]``, takes a slash) tells nothing,
        and then no path is called unmatched."""
        plain = list(paths)
        joined = "/".join(plain)
        if not joined.isascii():
            plain = [path for path in plain if path.isascii()]
            joined = "/".join(plain)
        text = "/" + joined.replace("/", "//") + "/"
        # Each name's extension: after its last dot, before its slash.
        exts = {self._fold(ext) for ext in set(re.findall(r"\.([^./]*)/", text))} | {""}
        for ext in exts:
            self._read_later(ext)
        indices = tuple(sorted(i for (ext, _), lines in self._by_key.items() if ext in exts for i in lines))
        matched: set[str] = set()
        if indices:
            scan = self._scans[indices] if indices in self._scans else self._scan(indices)
            if scan is None:
                return set()
            for found in scan(text):
                name = found.group()[1:-1]
                if "/" in name:
                    return set()
                matched.add(name)
        if self._whole_lines:
            if self._whole_names is None:
                return set()
            needed = self._whole_names.intersection(self._fold(joined).split("/"))
            if needed:
                matched |= {name for name in set(joined.split("/")) if self._fold(name) in needed}
        if not matched:
            return set(plain)
        return {path for path in plain if matched.isdisjoint(path.split("/"))}

    def _scan(self, indices: tuple[int, ...]) -> Callable[[str], Iterable[re.Match[str]]] | None:
        """The finditer of one regex of these one-segment lines, each a name between
        slashes; None when re2 will not compile them as one (every line compiles on
        its own: ``first_at`` asks them)."""
        import re2

        scan: Callable[[str], Iterable[re.Match[str]]] | None
        try:
            scan = re2.compile(f"{self._flags}/(?:{'|'.join(self._cores[i] for i in indices)})/").finditer
        except re2.error:
            scan = None
        self._scans[indices] = scan
        return scan

    def _fixed_extension(self, body: str) -> str:
        """The extension a one-segment line's literal tail demands ("" for none); a
        non-ASCII one may fold differently in str.lower and re2's case folding, so it
        counts as none."""
        tail = _LITERAL_TAIL.search(body.rstrip("/"))
        ext = _extension(tail.group() if tail else "")
        return self._fold(ext) if ext.isascii() else ""

    def _read(self, i: int) -> None:
        """Have pathspec translate line ``i``, and file it under its segment key or among
        the whole-path lines (a blank line or a comment under neither)."""
        line = self._lines[i]
        try:
            known = self._translations.get(line)
            source, include = known if known is not None else translated(_for_re2(line))
            if source is not None and i in self._at_once:  # the config's: re's errors, as pathspec's objects gave them
                re.compile(source)
        except re.error as e:
            raise BadLine(i, e, unreadable=False) from None
        except ValueError as e:  # a trailing backslash, ...
            raise BadLine(i, e, unreadable=True) from None
        if include is None or source is None:
            return
        key = self._segment_key(line, source)
        if i in self._files:
            if key is None or key[1] != _ANY:
                raise ValueError(f"{line!r} cannot name a file: it has a slash")  # shipped lines only: tested
            key = (key[0], _FILES)
        if key is None:
            # A whole-path line matches from the path's start, as re's match() did.
            self._regexes[i] = f"{self._flags}^{_START_REGEX}(?:{source.removeprefix('^')})"
            self._whole_lines.append(i)
        else:
            core = source[len(_ANY_DEPTH) : -len(_SUFFIXES[0 if key[1] == _FILES else key[1]][0])]
            self._regexes[i] = f"{self._flags}^(?:{core})$"
            self._cores[i] = core
            self._by_key.setdefault(key, []).append(i)

    def _segment_key(self, line: str, source: str) -> tuple[str, int] | None:
        """(extension, what it matches) for a one-segment line, None for the others."""
        body = line.removeprefix("!")
        if "/" in body.rstrip("/") or not source.startswith(_ANY_DEPTH):
            return None
        for suffix, kind in _SUFFIXES:
            if source.endswith(suffix):
                return (self._fixed_extension(body), kind)
        return None

    def _read_later(self, ext: str | None) -> None:
        """Read the lines of an extension (None: of every extension) not read yet."""
        for each in list(self._later) if ext is None else [ext]:
            for i in self._later.pop(each, ()):
                self._read(i)
                assert i in self._regexes and i not in self._whole_lines, f"{self._lines[i]!r} is not a one-segment line"

    def _segment_lines(self, ext: str | None, kinds: tuple[int, ...]) -> _Lines | None:
        """The lines that may match a segment of these kinds with this extension: its
        own and those of no fixed extension (None: of every extension)."""
        key = (ext, kinds)
        if key not in self._segment:
            self._read_later(ext)
            if ext is not None and ext and not any((ext, k) in self._by_key for k in kinds):
                # Most extensions (py, md) have no lines of their own: share the set of
                # the lines without one.
                self._segment[key] = self._segment_lines("", kinds)
            else:
                keys = [k for k in self._by_key if k[1] in kinds] if ext is None else [(e, k) for e in dict.fromkeys((ext, "")) for k in kinds]
                indices = [i for k in keys for i in self._by_key.get(k, ())]
                self._segment[key] = _lines(self._regexes, indices) if indices else None
        return self._segment[key]

    def _match_segment(self, name: str, kinds: tuple[int, ...]) -> int | None:
        ext = _extension(name)
        if _FILES in kinds and ext.lower() in self._spared:
            kinds = _AS_FOLDER[:1] if kinds == _AS_FILE else _AS_FOLDER
        lines = self._segment_lines(self._fold(ext) if ext.isascii() else None, kinds)
        return lines.first(name) if lines is not None else None

    def first(self, path: str, is_dir: bool = False) -> int | None:
        """The first line that matches a repository-relative path, if any."""
        found = self.first_at(path, is_dir)
        return found[0] if found is not None else None

    def first_at(self, path: str, is_dir: bool = False, either: bool = False) -> tuple[int, bool] | None:
        """The first line that matches, and whether it matched the path's own name (its
        last segment) rather than a folder above it or the whole path. ``either``: the
        path may be a folder or a file (what a symlink points at)."""
        path = _nfc(path)
        parts = path.split("/")
        last = len(parts) - 1
        own = _AS_EITHER if either else _AS_FOLDER if is_dir else _AS_FILE
        for i, name in enumerate(parts):
            key = (name, own if i == last else _AS_FOLDER)
            if key not in self._seen:
                self._seen[key] = self._match_segment(*key)
            index = self._seen[key]
            if index is not None:
                return index, i == last
        if self._whole_lines and (self._whole_names is None or not path.isascii() or not self._whole_names.isdisjoint(self._fold(path).split("/"))):
            if self._whole_set is None:
                self._whole_set = _lines(self._regexes, self._whole_lines)
            index = self._whole_set.first(_START + (path + "/" if is_dir else path))
            if index is not None:
                return index, False
        return None


# --- Folder globs ----------------------------------------------------------------------

_MAGIC = re.compile(r"[*?\[]")  # what makes a glob segment more than a literal name


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
