"""Which of a list of gitignore lines is the first to match a path: the guard's
question (guard/paths.py), asked of one path at a time (``FirstMatch.first_at``) or
of a change's paths at once (``FirstMatch.none_match``). The lines are read and
matched as text/patterns.py reads every gitignore line: pathspec's translation,
matched by re2 only.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence

from memcheck import lazy_regex
from memcheck.records import NamedTuple
from memcheck.text import patterns

if TYPE_CHECKING:
    from pathspec import PathSpec, RegexPattern


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
        found = self.spec.check_file(text if text.isascii() else patterns.for_re2(text), separators=()).index
        return None if found is None else self.order[found]


def _lines(regexes: Mapping[int, str], indices: Iterable[int]) -> _Lines:
    import pathspec

    order = tuple(sorted(indices, reverse=True))
    return _Lines(
        patterns.built(lambda: pathspec.PathSpec([_regex_pattern(regexes[i]) for i in order], backend=patterns.BACKEND), len(order)), order
    )


# pathspec writes a line without a slash (but for a trailing one) as this prefix, its
# match of one path segment, and one of these suffixes (any entry / folders only).
_ANY_DEPTH = "^(?:.+/)?"
_ANY, _FOLDERS, _FILES = 0, 1, 2  # what a one-segment line may match: any entry, folders, files
_SUFFIXES = (("(?:(?P<ps_d>/)|$)", _ANY), ("(?P<ps_d>/)", _FOLDERS))
# What a path segment is, and so which lines may match it: a folder above the path,
# the path's own name as a file or as a folder, or (a symlink's target, which may be
# either) both.
_AS_FOLDER, _AS_FILE, _AS_EITHER = (_ANY, _FOLDERS), (_ANY, _FILES), (_ANY, _FOLDERS, _FILES)
_LITERAL_TAIL = lazy_regex.compile(r"[^*?\]\\]*$")
# Put before a path that whole-path lines are tried on, and matched first by their
# regexes: pathspec drops a leading "/" or "./" from what it is given, which the lines
# must see. No path holds a NUL.
_START, _START_REGEX = "\x00", r"\x00"
# A segment only the same name matches, in any case: ASCII (str.lower and re2 may fold
# other names apart), no wildcard, escape, class or space, not "." or "..".
_PLAIN_SEGMENT = lazy_regex.compile(r"(?![.]+$)[A-Za-z0-9._-]+")


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
        self._lines = tuple(patterns.nfc(line) for line in lines)
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
        self._whole: _Lines | None = None  # the whole-path lines as one set: see _whole_set
        # A name each whole-path line needs (the guard's 32 each name one: .vscode,
        # secrets): a path (ASCII) holding none is not asked. None: a line names none.
        plain = [
            next((seg for seg in self._lines[i].removeprefix("!").split("/") if _PLAIN_SEGMENT.fullmatch(seg)), None)
            for i in self._whole_lines
        ]
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
        match across names (a negated class, ``[!x]``, takes a slash), or of an
        empty name between two, tells nothing, and then no path is called unmatched."""
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
                if not name or "/" in name:  # across names, or between two (a line that matches an empty name)
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

    def _whole_set(self) -> _Lines:
        """The whole-path lines as one set, made the first time a path is asked
        (a run none of whose paths needs them imports no pathspec)."""
        if self._whole is None:
            self._whole = _lines(self._regexes, self._whole_lines)
        return self._whole

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
            source, include = known if known is not None else translated(patterns.for_re2(line))
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
                keys = (
                    [k for k in self._by_key if k[1] in kinds] if ext is None else [(e, k) for e in dict.fromkeys((ext, "")) for k in kinds]
                )
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
        path = patterns.nfc(path)
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
        if self._whole_lines and (
            self._whole_names is None or not path.isascii() or not self._whole_names.isdisjoint(self._fold(path).split("/"))
        ):
            index = self._whole_set().first(_START + (path + "/" if is_dir else path))
            if index is not None:
                return index, False
        return None
