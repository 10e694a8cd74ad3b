"""Suppression comments: markdownlint's inline form, for memcheck's rules.

In Markdown (outside fenced code blocks and code spans), one comment on one line:

- ``<!-- memcheck-disable-next-line CODE ... -->``: findings on the next line;
- ``<!-- memcheck-disable-line CODE ... -->``: findings on the comment's own line;
- ``<!-- memcheck-disable CODE ... -->`` up to ``<!-- memcheck-enable CODE ... -->``
  (or the end of the file): findings on those lines; ``enable`` with codes ends the
  ``disable`` of the same codes (inside a bare or prefix ``disable``, turns just those
  codes back on, as markdownlint does), a bare ``enable`` ends them all;
- ``<!-- memcheck-disable-file CODE ... -->``: findings anywhere in the file.

In YAML frontmatter, the same as a comment line of its own starting in the first
column: ``# memcheck-disable-next-line MEM010`` (``-line`` has no YAML form: a comment
after a value is read as part of the value by the agents' line parsers).

Codes are rule codes or prefixes (``MEM010``, ``IDX``), separated by spaces or
commas; no code means every rule. A finding is suppressed by the comments in the
file it is reported on and, for a finding about another file (an unlisted memory,
reported on its index), by a ``disable-file`` comment in that file.

Secrets are never suppressed: a secret must not pass silently (remove and rotate
it; for a test fixture, name the file in the config's ``per-path-ignores``, where a
reviewer sees it). A comment that suppresses nothing, or names a secret rule, is
MCK001; a code that names no rule is MCK002.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Iterable, Iterator

from memcheck import lazy_regex
from memcheck.checks.meta.unknown_suppression_code import MCK002
from memcheck.checks.meta.unused_suppression import MCK001
from memcheck.problem import Problem, about_files, about_several, several, several_named, without_names
from memcheck.records import NamedTuple
from memcheck.text.document import Document
from memcheck.text.mentions import FENCE_OPEN, BacktickRuns

UNSUPPRESSIBLE = ("SEC",)
_KINDS = "disable-next-line|disable-line|disable-file|disable|enable"
_HTML = lazy_regex.compile(rf"<!--\s*memcheck-({_KINDS})(?=[\s,]|-->)(.*?)-->")
_YAML = lazy_regex.compile(rf"#\s*memcheck-({_KINDS})(?=[\s,]|$)(.*)$")
_ALL = "*"  # the selector of a comment without codes
_END = 1 << 62  # a range that runs to the end of the file


class Directive(NamedTuple):
    path: str
    line: int
    col: int
    kind: str  # one of _KINDS
    codes: tuple[str, ...]  # upper-case selectors; () for every rule


def directives(doc: Document) -> list[Directive]:
    """The suppression comments of a document, in line order."""
    if doc.error is not None or "memcheck-" not in doc.text:
        return []  # the usual case: one substring search
    lines = doc.lines
    found: list[Directive] = []
    body_start = 0
    fm = doc.frontmatter
    if doc.has_frontmatter and not doc.unterminated and fm is not None:
        for i in range(1, fm.end_line - 1):  # between the fences
            m = _YAML.match(lines[i])
            if m and m.group(1) != "disable-line":
                found.append(Directive(doc.path, i + 1, 1, m.group(1), _codes(m.group(2))))
        body_start = fm.end_line
    fence: str | None = None
    for i in range(body_start, len(lines)):
        line = lines[i]
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and stripped.strip(fence[0]) == "":
                fence = None
            continue
        if "```" in line[:7] or "~~~" in line[:7]:
            m = FENCE_OPEN.match(line)
            if m and not (m.group(1)[0] == "`" and "`" in line[m.end() :]):
                fence = m.group(1)
                continue
        if "memcheck-" not in line:
            continue
        spans = _code_spans(line) if "`" in line else []
        span_starts = [start for start, _ in spans]
        # No comment opened after the last `-->` can close: searching there would try
        # the rest of the line once per opener (minutes on a line of them).
        for m in _HTML.finditer(line, 0, line.rfind("-->") + 3):
            if not _inside(spans, span_starts, m.start()):
                found.append(Directive(doc.path, i + 1, m.start() + 1, m.group(1), _codes(m.group(2))))
    return found


def _codes(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(c.upper() for c in re.split(r"[\s,]+", text.strip()) if c))


def _code_spans(line: str) -> list[tuple[int, int]]:
    """The code spans of a line, (start, end) in order: they do not overlap."""
    spans = []
    runs = BacktickRuns(line)
    i = line.find("`")
    while i >= 0:
        run = runs.length_at(i)
        close = runs.closer(i + run, run)
        if close < 0:
            i = line.find("`", i + run)
            continue
        spans.append((i, close + run))
        i = line.find("`", close + run)
    return spans


def _inside(spans: list[tuple[int, int]], starts: list[int], col: int) -> bool:
    """Whether ``col`` is in one of the ordered, disjoint ``spans`` (``starts``: their
    starts). Only the last span starting at or before it can hold it: a bisection, not
    a pass over the spans per comment (quadratic on a line of `x` <!-- comment -->
    pairs: reading 4,000 of them took 1.9 s CPU, now 0.04 s)."""
    k = bisect_right(starts, col) - 1
    return k >= 0 and col < spans[k][1]


class _Group:
    """The comments that suppress one selector at one place; marked used together, once
    (a file may repeat a comment thousands of times: each finding marks it in O(1))."""

    __slots__ = ("comments", "used")

    def __init__(self) -> None:
        self.comments: list[Directive] = []
        self.used = False


class _FileComments:
    """One file's suppressing comments, looked up by selector: a finding tries only
    the selectors that can match its code (the code's prefixes, and "every rule"), so
    the cost is linear in findings plus comments, however many of each a file holds."""

    def __init__(self, found: list[Directive]) -> None:
        self.comments = found
        self.file_wide: dict[str, _Group] = {}
        self.lines: dict[tuple[int, str], _Group] = {}
        # selector -> (first, last, group, codes re-enabled there), sorted, disjoint
        self.spans: dict[str, list[tuple[int, int, _Group, tuple[str, ...]]]] = {}
        open_: dict[str, tuple[int, _Group, tuple[str, ...]]] = {}
        for d in found:
            selectors = d.codes or (_ALL,)
            if d.kind == "disable-file":
                for sel in selectors:
                    self.file_wide.setdefault(sel, _Group()).comments.append(d)
            elif d.kind in ("disable-next-line", "disable-line"):
                line = d.line + 1 if d.kind == "disable-next-line" else d.line
                for sel in selectors:
                    self.lines.setdefault((line, sel), _Group()).comments.append(d)
            elif d.kind == "disable":
                for sel in selectors:
                    if sel in open_:
                        open_[sel][1].comments.append(d)  # already disabled: this one begins nothing new
                    else:
                        group = _Group()
                        group.comments.append(d)
                        open_[sel] = (d.line, group, ())
            else:  # enable: ends the disable of the same codes; a bare enable ends them all
                for sel in d.codes or list(open_):
                    begun = open_.pop(sel, None)
                    if begun is not None:
                        self.spans.setdefault(sel, []).append((begun[0], d.line - 1, *begun[1:]))
                # As markdownlint: `enable GDN013` inside a bare `disable` (or one of
                # GDN) turns GDN013 back on and leaves the rest off.
                for code in d.codes:
                    for sel in [s for s in open_ if s == _ALL or code.startswith(s)]:
                        first, group, excepted = open_[sel]
                        self.spans.setdefault(sel, []).append((first, d.line - 1, group, excepted))
                        open_[sel] = (d.line, group, (*excepted, code))
        for sel, (first, group, excepted) in open_.items():
            self.spans.setdefault(sel, []).append((first, _END, group, excepted))

    def covering(self, line: int, code: str, file_only: bool = False) -> Iterator[tuple[str, _Group]]:
        for sel in (_ALL, *(code[:n] for n in range(1, len(code) + 1))):
            group = self.file_wide.get(sel)
            if group is not None:
                yield sel, group
            if file_only:
                continue
            group = self.lines.get((line, sel))
            if group is not None:
                yield sel, group
            spans = self.spans.get(sel)
            if spans:
                k = bisect_right(spans, (line, _END + 1)) - 1  # the last span starting at or before the line
                if k >= 0 and spans[k][0] <= line <= spans[k][1] and not code.startswith(spans[k][3]):
                    yield sel, spans[k][2]


def apply(problems: Iterable[Problem], documents: dict[str, Document], enabled: set[str]) -> list[Problem]:
    """The problems the comments in ``documents`` (path -> document) leave, and the
    MCK findings about those comments."""
    files = {path: _FileComments(found) for path, doc in documents.items() if (found := directives(doc))}
    problems = list(problems)
    if not files:
        return problems
    used: set[tuple[Directive, str]] = set()
    problems = [q for p in problems for q in _apart(p, files, used)]
    kept = [p for p in problems if p.code.startswith(UNSUPPRESSIBLE) or not _suppress(p, files, used)]
    meta = [m for m in _judge(files, used, enabled) if m.code in enabled]
    # A comment naming MCK001 keeps other comments' findings quiet (never its own).
    meta = [m for m in meta if not _suppress(m, files, None)]
    return kept + meta


def _apart(p: Problem, files: dict[str, _FileComments], used: set[tuple[Directive, str]]) -> list[Problem]:
    """A finding about several files (the memories an index has no room for) without
    those whose own file turns its rule off (a disable-file comment, which keeps that
    memory out of the index on purpose: as it turns off the finding about that file
    alone); none where every one of them does. Any other finding as it is."""
    members = about_files(p) if several(p) and not p.code.startswith(UNSUPPRESSIBLE) else ()
    own = []
    for member in members:
        comments = files.get(member)
        covering = list(comments.covering(0, p.code, True)) if comments is not None else []
        for sel, group in covering:
            if not group.used:
                group.used = True
                used.update((d, sel) for d in group.comments)
        if covering:
            own.append(member)
    if not own:
        return [p]
    rest = [m for m in members if m not in own]
    return [p._replace(message=without_names(p) + several_named(rest), about=about_several(rest))] if rest else []


def _suppress(p: Problem, files: dict[str, _FileComments], used: set[tuple[Directive, str]] | None) -> bool:
    """Whether a comment suppresses ``p``; marks those that do in ``used`` (None: a
    finding about a comment, which only comments naming its code suppress)."""
    hit = False
    places = [(p.path, p.line, False)]
    # The file it is about: its disable-file comments. (A finding about several files is
    # not turned off by one of them: ``_apart`` takes that file out of it.)
    if p.about and not several(p) and p.about != p.path:
        places.append((p.about, 0, True))
    for path, line, file_only in places:
        comments = files.get(path)
        if comments is None:
            continue
        for sel, group in comments.covering(line, p.code, file_only):
            if used is None:
                if sel != _ALL and any(d.line != p.line for d in group.comments):
                    hit = True
                continue
            hit = True
            if not group.used:
                group.used = True
                used.update((d, sel) for d in group.comments)
    return hit


def _prefixes(codes: Iterable[str]) -> set[str]:
    return {c[:n] for c in codes for n in range(1, len(c) + 1)}


def _judge(files: dict[str, _FileComments], used: set[tuple[Directive, str]], enabled: set[str]) -> list[Problem]:
    from memcheck.rules import OPT_IN
    from memcheck.rules import codes as catalogue

    codes = catalogue()
    known = _prefixes(codes)
    # Only comments about rules that are all on are judged: with --select IDX or
    # --ignore GDN013, a comment about MEM010 or GDN (or one naming no rule) cannot
    # show whether it still suppresses something in a run with every rule on. (An
    # opt-in rule left off is how every rule is on by default: not a rule left out.)
    off = [c for c in codes if c not in enabled and not c.startswith("MCK") and c not in OPT_IN]
    covers_off = _prefixes(off)
    judged = {s for s in _prefixes(c for c in enabled if not c.startswith("MCK")) if s not in covers_off}
    not_secret = _prefixes(c for c in codes if not c.startswith(UNSUPPRESSIBLE))
    hits: dict[Directive, set[str]] = {}
    for d, sel in used:
        hits.setdefault(d, set()).add(sel)
    found: list[Problem] = []
    for comments in files.values():
        for d in comments.comments:
            if d.kind == "enable":
                continue
            hit = hits.get(d, set())
            unknown = [s for s in d.codes if s not in known]
            if unknown:
                found.append(
                    MCK002.at(
                        d.path,
                        d.line,
                        d.col,
                        f"{', '.join(unknown)} in this suppression names no rule; fix the code (`memcheck rules` lists them)",
                    )
                )
            if not d.codes:
                if _ALL not in hit and not off:
                    found.append(MCK001.at(d.path, d.line, d.col, f"memcheck-{d.kind} suppresses nothing here; remove it"))
                continue
            secret = [s for s in d.codes if s in known and s not in not_secret]
            if secret:
                message = (
                    f"{', '.join(secret)}: a secret cannot be suppressed by a comment; remove the secret and rotate it"
                    " (for a test fixture, name the file in per-path-ignores)"
                )
                found.append(MCK001.at(d.path, d.line, d.col, message))
            idle = [s for s in d.codes if s in judged and s in not_secret and s not in hit]
            if idle:
                them = "it" if len(idle) == 1 else "them"
                found.append(
                    MCK001.at(d.path, d.line, d.col, f"the suppression of {', '.join(idle)} suppresses nothing here; remove {them}")
                )
    return found
