"""Read Markdown the way agents read @-mentions and links: prose only.

Code spans, fenced code blocks, HTML comments and ``[//]: # (comment)`` lines are
masked with spaces (columns stay where they were), because an ``@scope/pkg`` in a
code block or a link in a commented-out line is not something the agent will
follow. Then:

- ``mentions`` finds ``@token`` words and ``classify`` decides which are imports
  (as agents read them): a token is an import when it has a file extension, starts with ``./``,
  ``../`` or ``/``, or names an existing file. E-mail addresses (``a@b.com``), package
  scopes (``@upstash/redis``) and bare words (``@id``) are not; ``@~/…`` is outside
  the repository.
- ``links`` finds relative Markdown links and reference definitions, and
  ``reference_definition`` reads a line as CommonMark reads a link reference
  definition (whether the line may be one, at the start of a block and not inside a
  paragraph, is the block structure's to say: ``blocks.definitions``).
"""

from __future__ import annotations

import posixpath
import re
from bisect import bisect_left
from typing import Callable, Iterable, Iterator, Mapping
from urllib.parse import unquote

from memcheck import lazy_regex
from memcheck.paths import basename
from memcheck.records import NamedTuple

FENCE_OPEN = lazy_regex.compile(r"^ {0,3}(`{3,}|~{3,})")
_TICKS = lazy_regex.compile(r"`+")
_SPECIAL = lazy_regex.compile(r"[\\<`]")  # what can open a code span or comment, or escape that
# Markdown's comment idiom, a reference definition nothing links to: `[//]: # (text)`,
# `[comment]: <> (text)`. Never rendered, and written precisely to switch text off.
_COMMENT_IDIOM = lazy_regex.compile(r"^ {0,3}\[[^\]]*\]:\s*(?:#|<>)(?:\s|$)")
# `@` after a word character is an e-mail address or a version pin (pkg@1.2); after
# `/` or `.` it is part of a path (node_modules/@types); after `:` a package spec
# (`npm:@scope/pkg`, a Yarn `patch:@scope/pkg@...` in a package.json a guidance file
# imports: judged on an unseen repository); `\@` is escaped.
_MENTION = lazy_regex.compile(r"(?<![\w@/.\\+=:-])@([^\s`\"'<>()\[\]{}|,;]+)")
_TRAILING = ".:!?*_~"
# Extensions of files people import into guidance. A dotted word without a slash
# (`@pytest.fixture`, `@app.route`) is a decorator, not a file, unless it ends in one.
EXTENSIONS = frozenset(
    """md mdc mdx markdown txt rst adoc org json jsonc json5 yaml yml toml ini cfg conf env
    example sample template lock xml csv tsv html htm css scss sass less svg png jpg jpeg gif
    webp pdf py pyi ipynb ts tsx js jsx mjs cjs vue svelte astro go rs java kt kts scala rb
    php c h cc cpp hpp cs swift m mm sh bash zsh fish ps1 bat sql graphql gql proto tf hcl
    dart lua r jl ex exs erl hs ml clj gradle properties plist dockerfile makefile mk cmake
    prisma sol zig nim""".split()
)
_EXT = lazy_regex.compile(r"\.([A-Za-z0-9]{1,10})$")
# A link reference definition's label and colon (CommonMark 0.31, "Link reference
# definitions"): no unescaped bracket inside, then the destination, spaces or tabs
# before it. Each character of the label is taken by one alternative only: linear.
_DEFINITION_HEAD = lazy_regex.compile(r"[ \t]*\[((?:\\.|[^\[\]\\])*)\]:[ \t]*")
_TITLE = lazy_regex.compile(r"[ \t]+(?:\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|\((?:\\.|[^()\\])*\))")
_POINTY = lazy_regex.compile(r"<(?:\\.|[^<>\\])*>")
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")  # what a backslash escapes
_LINE_END = lazy_regex.compile(r"[ \t]*\Z")
# Linear on any line, as index._LINK (which says how).
_LINK = lazy_regex.compile(
    r"!?(?<!\\)\[(?:\\.|[^\[\]\\])*\]\(\s*(?!\s)(<[^<>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
_SCHEME = lazy_regex.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_ESCAPED = lazy_regex.compile(r"\\([!-/:-@\[-`{-~])")  # CommonMark backslash escapes of ASCII punctuation
# Obsidian-style [[target]], [[target|alias]], [[target#heading]], ![[embed]]
# An HTML attribute that names what a renderer opens or shows: ``<a href="…">``,
# ``<img src='…'>``, ``src=…`` unquoted. A quoted value is read up to 512 characters
# (no path an agent follows is longer), so a line of a megabyte of ``href="`` with no
# closing quote costs a bounded scan at each, never the rest of the line.
_HTML_TARGET = lazy_regex.compile(
    r"""(?<![\w-])(?:href|src)[ \t]*=[ \t]*(?:"([^"\n]{0,512})"|'([^'\n]{0,512})'|([^\s"'=<>`]+))""", re.IGNORECASE
)
_WIKI = lazy_regex.compile(r"!?\[\[([^\[\]\n|#]*)(?:#[^\[\]\n|]*)?(?:\|[^\[\]\n]*)?\]\]")

HOME, ABSOLUTE, OUTSIDE, PATH = "home", "absolute", "outside", "path"


class Definition(NamedTuple):
    """A link reference definition, ``[label]: destination "title"``, on one line."""

    label: str  # as written between the brackets
    target: str  # the destination as written, without ``<>``
    start: int  # offset of the destination in the line, ``<`` included
    end: int  # just after it, ``>`` included
    stop: int  # just after the definition (its title, if it has one)


def reference_definition(line: str) -> Definition | None:
    """The link reference definition ``line`` is, as CommonMark reads one, or None.

    The label holds no unescaped bracket and some non-space; the destination is
    ``<...>`` (no ``<`` or ``>`` unescaped inside) or a run with no space or control
    character whose unescaped parentheses balance; a title, if any, follows a space
    or tab and closes on the line; nothing but spaces and tabs follows. A line that
    only opens a definition (its destination or title on the next line) is not read
    as one. Leading spaces and tabs are the caller's to judge (up to three, or a list
    item's indentation): ``blocks.layout`` does.
    """
    if "]:" not in line:
        return None
    head = _DEFINITION_HEAD.match(line)
    if head is None:
        return None
    label = head.group(1)
    if not label.strip() or len(label) > 999:
        return None
    start = head.end()
    if start == len(line):
        return None  # the destination would be on the next line
    if line[start] == "<":
        pointy = _POINTY.match(line, start)
        if pointy is None:
            return None
        end = pointy.end()
        target = line[start + 1 : end - 1]
    else:
        end = _destination_end(line, start)
        if end <= start:
            return None
        target = line[start:end]
    stop = end
    if _LINE_END.match(line, end) is None:
        title = _TITLE.match(line, end)
        if title is None or _LINE_END.match(line, title.end()) is None:
            return None  # text after the destination, or after the title
        stop = title.end()
    return Definition(label, target, start, end, stop)


def _destination_end(line: str, start: int) -> int:
    """Where a destination not in ``<>`` that starts at ``start`` ends (just after
    it), or -1 when its parentheses do not balance."""
    depth = 0
    i, n = start, len(line)
    while i < n:
        c = line[i]
        if c == "\\" and i + 1 < n and line[i + 1] in _PUNCTUATION:
            i += 2
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                break
            depth -= 1
        elif c <= " " or c == "\x7f":  # a space ends it, and so does a control character
            break
        i += 1
    return -1 if depth else i


class Token(NamedTuple):
    line: int  # 1-based, in the whole file
    col: int  # 1-based, of the `@` or the link target
    text: str  # the mention without `@`, or the link target as written


def prose(lines: Iterable[str], spans: dict[int, list[tuple[int, int]]] | None = None) -> Iterator[str]:
    """Each line with code spans, fenced blocks and HTML comments blanked out.
    ``spans``, if given, gets, by the line's 0-based index, the (start, end) offsets
    of the content of each code span in prose (none from fenced blocks or comments)."""
    fence: str | None = None
    in_comment = False
    for index, line in enumerate(lines):
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and stripped.strip(fence[0]) == "":
                fence = None
            yield " " * len(line)
            continue
        # Both need `[`, or three backticks or tildes, within the first few columns:
        # most lines have neither, and are not matched at all.
        head = line[:7]
        if not in_comment and "[" in head and _COMMENT_IDIOM.match(line):
            yield " " * len(line)
            continue
        if not in_comment and ("```" in head or "~~~" in head):
            m = FENCE_OPEN.match(line)
            if m and not (m.group(1)[0] == "`" and "`" in line[m.end() :]):
                fence = m.group(1)
                yield " " * len(line)
                continue
        found: list[tuple[int, int]] | None = [] if spans is not None and "`" in line else None
        masked, in_comment = mask_line(line, in_comment, found)
        if found and spans is not None:
            spans[index] = found
        yield masked


def mask_line(line: str, in_comment: bool, spans: list[tuple[int, int]] | None = None) -> tuple[str, bool]:
    """The line with its code spans and HTML comments blanked (columns kept), and
    whether a comment is still open at its end (``in_comment``: one is open at its
    start). ``spans``, if given, gets the (start, end) offsets of each code span's
    content, its backticks left out."""
    if not in_comment and "`" not in line and "<!--" not in line:
        return line, False  # most lines: nothing to blank, no character walk
    out = list(line)
    i, n = 0, len(line)
    search_from = 0
    runs: BacktickRuns | None = None  # indexed at the first backtick: many lines only have comments
    while i < n:
        if in_comment:
            end = line.find("-->", max(i, search_from))
            stop = n if end < 0 else end + 3
            out[i:stop] = " " * (stop - i)
            i = stop
            in_comment = end < 0
            continue
        # Only these three characters can open anything: jump to the next one.
        special = _SPECIAL.search(line, i)
        if special is None:
            break
        i = special.start()
        if line[i] == "\\":
            i += 2  # an escaped character (`\``, `\<`) opens no code span or comment
            continue
        if line.startswith("<!--", i):
            in_comment = True
            search_from = i + 4
            continue
        if line[i] == "`":
            if runs is None:
                runs = BacktickRuns(line)
            run = runs.length_at(i)
            close = runs.closer(i + run, run)
            if close < 0:
                i += run  # an unmatched run is literal text
                continue
            stop = close + run
            out[i:stop] = " " * (stop - i)
            if spans is not None:
                spans.append((i + run, close))
            i = stop
            continue
        i += 1
    return "".join(out), in_comment


class BacktickRuns:
    """The runs of backticks on one line, found once and indexed by length.

    A code span closes at the next run of exactly as many backticks as opened it.
    Searching the rest of the line for it from each opener cost a pass over the line
    per unmatched run: cubic in m on a line of runs of 1, 2, ... m backticks (masking
    it took 7.5 s CPU at m = 480, a 116 KB line). Here one ``finditer`` lists the
    runs, and each closer is a bisection in the starts of runs of its length: linear
    in the line (0.004 s at m = 480, 0.03 s at m = 1,400, the most a 1 MiB file holds).
    """

    __slots__ = ("_line", "_starts")

    def __init__(self, line: str) -> None:
        self._line = line
        self._starts: dict[int, list[int]] = {}
        for m in _TICKS.finditer(line):
            self._starts.setdefault(m.end() - m.start(), []).append(m.start())

    def length_at(self, i: int) -> int:
        """How many backticks follow from ``i`` on (a run may begin after an escaped one)."""
        m = _TICKS.match(self._line, i)
        return 0 if m is None else m.end() - i

    def closer(self, start: int, run: int) -> int:
        """Where the first run of exactly ``run`` backticks at or after ``start``
        begins, or -1; ``start`` must not be inside a run (it is just after the opener)."""
        starts = self._starts.get(run)
        if starts:
            k = bisect_left(starts, start)
            if k < len(starts):
                return starts[k]
        return -1


def body_lines(lines: tuple[str, ...], body_line: int, body: str | None = None) -> Iterator[tuple[int, str]]:
    """(line number, prose) for the lines after the frontmatter; ``body``, their text,
    when the caller has it."""
    start = max(body_line, 1) - 1
    return zip(range(start + 1, len(lines) + 1), body_prose(lines[start:], body))


def body_prose(lines: tuple[str, ...], body: str | None = None) -> tuple[str, ...]:
    """``prose`` of a body's lines; ``body``, their text, when the caller has it, lets a
    body with nothing to mask be its own prose, without a call per line."""
    if body is not None and masks_nothing(body):
        return lines
    return tuple(prose(lines))


def masks_nothing(text: str) -> bool:
    """Whether ``prose`` gives every line of ``text`` back as it is: nothing in it can
    open a fence (three backticks or tildes), a code span (a backtick), an HTML
    comment or the comment idiom (``]:``). Four scans in C rather than a call per line
    (most of a guidance file's lines, on bench/'s M tree, where none has any)."""
    return "`" not in text and "~~~" not in text and "<!--" not in text and "]:" not in text


def mentions(numbered: Iterable[tuple[int, str]]) -> Iterator[Token]:
    for lineno, line in numbered:
        if "@" not in line:
            continue
        for m in _MENTION.finditer(line):
            text = m.group(1).rstrip(_TRAILING)
            if text:
                yield Token(lineno, m.start() + 1, text)


def has_extension(token: str) -> bool:
    last = basename(token.rstrip("/")).split("#", 1)[0]
    m = _EXT.search(last)
    if m is None:
        return False
    return m.group(1).lower() in EXTENSIONS or ("/" in token and not m.group(1).isdigit())


def classify(token: str, folder: str, exists: Callable[[str], bool]) -> tuple[str, str] | None:
    """(kind, repository-relative path) when the token is an import, else None.

    ``folder`` is the mentioning file's folder; ``exists`` tells whether a
    repository-relative path is a file or folder.
    """
    if token == "~" or token.startswith("~/"):
        return HOME, token
    if token.startswith("/"):
        # `@/` alone names the file system's root, a folder no agent imports: a web
        # project's source alias (`### @/ Alias`), not an import (an unseen repository).
        return (ABSOLUTE, token) if token.strip("/") else None
    clean = unquote(token.split("#", 1)[0])
    path = posixpath.normpath(posixpath.join(folder, clean)) if folder else posixpath.normpath(clean)
    explicit = token.startswith(("./", "../")) or has_extension(token)
    if path == ".." or path.startswith("../"):
        return (OUTSIDE, path) if explicit else None
    if explicit or (path != "." and exists(path)):
        return PATH, path
    return None


def links(numbered: Iterable[tuple[int, str]], definitions: Mapping[int, Token]) -> Iterator[Token]:
    """Inline link and image targets in prose, and the targets of ``definitions``
    (line -> its definition's target, see ``blocks.definitions``): a definition's
    line holds nothing else."""
    for lineno, line in numbered:
        defined = definitions.get(lineno) if definitions else None
        if defined is not None:
            yield defined
            continue
        if "[" not in line:
            continue  # links all need a bracket
        for m in _LINK.finditer(line):
            yield Token(lineno, m.start(1) + 1, _strip_angle(m.group(1)))


def html_targets(numbered: Iterable[tuple[int, str]]) -> Iterator[Token]:
    """The ``href`` and ``src`` values of HTML tags in prose (a renderer, and an agent
    that follows links, opens them as it opens a Markdown link's target)."""
    for lineno, line in numbered:
        if "=" not in line:
            continue
        for m in _HTML_TARGET.finditer(line):
            group = 1 if m.group(1) is not None else 2 if m.group(2) is not None else 3
            yield Token(lineno, m.start(group) + 1, m.group(group))


# `[[TODO #74]]`: a tracker's word, one blank, `#` and a number: a ticket cited by
# number in brackets, not a link to a heading (a vault's `[[Note#Heading]]` has no
# blank before its `#`). On an unseen repository it was reported as a dead link to
# `TODO`. Only the words trackers use: any other (`[[Rollback #2]]`) may name a note,
# and a dead one is told (an outside attack deleted the note it named); nor a folder,
# an alias, an embed or another spacing.
_TICKET = lazy_regex.compile(r"\[\[(?i:todo|fixme|bug|issue|pr|ticket|task|story|epic|incident) #[0-9]+\]\]")


def wiki_links(numbered: Iterable[tuple[int, str]]) -> Iterator[Token]:
    """``[[target]]`` links in prose: the target, without alias or heading."""
    for lineno, line in numbered:
        if "[[" not in line:
            continue
        for m in _WIKI.finditer(line):
            target = m.group(1).strip()
            if target and not _TICKET.fullmatch(m.group(0)):
                yield Token(lineno, m.start(1) + 1, target)


def _strip_angle(target: str) -> str:
    return target[1:-1] if target.startswith("<") and target.endswith(">") else target


def is_url(target: str) -> bool:
    """Whether a link target starts with a scheme (``https:``, ``mailto:``)."""
    return _SCHEME.match(target) is not None


def unescaped(target: str) -> str:
    """A link target as the file name it stands for: backslash escapes and
    percent-encoding resolved."""
    return unquote(_ESCAPED.sub(r"\1", target))


def link_path(target: str, folder: str) -> str | None:
    """The repository-relative file a relative link names, or None for what is not
    a relative file link (URLs, anchors, site-absolute paths, templates). A path that
    climbs above the root comes back starting with ``..``."""
    if not target or target.startswith(("#", "/", "~", "//")) or _SCHEME.match(target):
        return None
    if "{{" in target or "${" in target or "%s" in target:
        return None
    clean = unquote(_ESCAPED.sub(r"\1", target).split("#", 1)[0].split("?", 1)[0])
    if not clean:
        return None
    return posixpath.normpath(posixpath.join(folder, clean)) if folder else posixpath.normpath(clean)
