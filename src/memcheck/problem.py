"""The finding value object and the rule catalogue entry that produces it."""

from __future__ import annotations

import json
import re
from typing import Iterable, Iterator, Sequence

from memcheck import lazy_regex
from memcheck.paths import IGNORABLE, has_ignorable
from memcheck.records import NamedTuple

ERROR = "error"
WARNING = "warning"
# Not a finding: what a run says once in its summary line (a documented example key
# passed over), carried with the findings to the end (engine/finish takes it out).
NOTE = "note"

# What a rule's verdict on a file depends on (``Rule.scope``): the cache and the
# editor re-judge a finding when what it depends on changes, no sooner.
FILE = "file"  # the file's own content, and the questions it asks of the tree (is there such a file?)
STORE = "store"  # every memory of a store, and its index: a memory's edit can change it on another file
TREE = "tree"  # every agent file of a kind in the tree (who reads what, every skill, the listing)
IMPORTS = "imports"  # a guidance file with the files its imports reach and the agents that read it
CHANGE = "change"  # a change (commit, push or pull request): the guard's rules, never `memcheck check`'s
SUPPRESSION = "suppression"  # the suppression comments of a file, after every other rule has run
SCOPES = (FILE, STORE, TREE, IMPORTS, CHANGE, SUPPRESSION)

# What a terminal or a log viewer acts on instead of showing: the C0 controls (line
# breaks and tab among them), DEL, the C1 controls (NEL, U+0085, among them) and the
# Unicode line and paragraph separators. An ESC from a file retitles the terminal,
# erases the lines above or hides the rest of a report; a line break starts a line
# of the file's choosing.
CONTROL = lazy_regex.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# The ones json.dumps(ensure_ascii=False) leaves as they are.
_RAW_IN_JSON = lazy_regex.compile("[\x7f-\x9f\u2028\u2029]")
_SHORT = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
# GitHub's runner takes a line of a step's output as a workflow command (::error,
# ::add-mask::, ::stop-commands::) when it starts with `::` after any leading
# whitespace, and in the older form `##[command]` anywhere in the line. `[` is
# written as its JSON escape after `##`, which breaks that form and nothing else.
_OLD_COMMAND = "##["
_OLD_COMMAND_SHOWN = "##\\u005b"


def _escape(m: re.Match[str]) -> str:
    ch = m.group()
    return _SHORT.get(ch) or _u(ch)


def _u(ch: str) -> str:
    """``ch`` as JSON escapes it: ``\\u200b``; past U+FFFF, as its surrogate pair."""
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _invisible(m: re.Match[str]) -> str:
    return _u(m.group())


def escaped(text: str) -> str:
    """Text safe to print within a line: each control character as json.dumps
    escapes it (``\\n``, ``\\u001b``), each character that draws nothing too (a
    file name's zero-width space or bidi control, quoted in a message), and no `##[`
    command. Text that needs none of it, every usual message, comes back as it is."""
    if CONTROL.search(text):
        text = CONTROL.sub(_escape, text)
    text = visible_name(text)
    return text.replace(_OLD_COMMAND, _OLD_COMMAND_SHOWN) if _OLD_COMMAND in text else text


def shown(path: str) -> str:
    """A path safe to print on one line, and at the start of one: quoted as a JSON
    string, with the escapes of ``escaped``, when it holds a control character or
    could be read as a workflow command (it starts with `::`, or holds `##[`), so a
    file name cannot forge, split or hide a report line; and when it holds a
    character that draws nothing (a bidi control, a zero-width space), that character
    as its escape too, so ``<U+200B>.env`` never reads as ``.env``."""
    if CONTROL.search(path) or path.lstrip().startswith("::") or _OLD_COMMAND in path or has_ignorable(path):
        return escaped(json.dumps(path, ensure_ascii=False))
    return path


def visible_name(text: str) -> str:
    """``text`` with each character that draws nothing as its JSON escape
    (``\\u200b``): what a name shows where it is printed."""
    return IGNORABLE.sub(_invisible, text) if has_ignorable(text) else text


def json_text(dumped: str) -> str:
    """JSON text as json.dumps(ensure_ascii=False) writes it, with what that leaves raw
    and a terminal or log viewer would act on escaped too (DEL, the C1 controls, the
    line and paragraph separators, `##[`), and the characters that draw nothing
    (``IGNORABLE``) shown as escapes: the same values to a JSON reader."""
    if _RAW_IN_JSON.search(dumped):
        dumped = _RAW_IN_JSON.sub(_escape, dumped)
    dumped = visible_name(dumped)  # a file name's bidi and zero-width characters, as readable escapes
    return dumped.replace(_OLD_COMMAND, _OLD_COMMAND_SHOWN) if _OLD_COMMAND in dumped else dumped


def some(items: Sequence[str], shown: int = 5) -> str:
    """The first ``shown`` of ``items``, joined for a message, and how many more there are."""
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(items[:shown]) + more


class Problem(NamedTuple):
    """One finding. Field order is the sort order of every report."""

    path: str  # repository-relative POSIX path
    line: int  # 1-based
    col: int  # 1-based
    code: str
    message: str
    severity: str
    fixable: bool = False
    # The file the finding is about, when it is reported elsewhere (an unlisted memory
    # is reported on its index): a suppression comment there applies too. Not printed.
    # A finding about several files holds them all (see ``about_several``).
    about: str = ""


# A finding about several files (the memories an index has no room for, one finding,
# not one each): ``about`` holds every one of them after this mark, and its message
# ends with their names (``several_named``). A baseline or an older run counts such a
# finding as the one it holds where it named every file the finding now names: one
# more file is a new finding, one file fewer is not.
_SEVERAL = "\0"  # (no path holds a NUL)
# At most so many names, and so many characters of them, end the message: a long
# message loses its middle (``MAX_MESSAGE``), never these.
_NAMED_MOST, _NAMED_CHARS = 5, 300


def about_several(paths: Sequence[str]) -> str:
    """``about`` for a finding about each of ``paths`` (one of them or more)."""
    return _SEVERAL + _SEVERAL.join(paths)


def about_files(p: Problem) -> tuple[str, ...]:
    """The files ``p`` is about, where it is reported elsewhere: none, one, or several."""
    if p.about.startswith(_SEVERAL):
        return tuple(p.about[1:].split(_SEVERAL))
    return (p.about,) if p.about else ()


def several(p: Problem) -> frozenset[str]:
    """The files of a finding about several files (``about_several``), else none."""
    return frozenset(about_files(p)) if p.about.startswith(_SEVERAL) else frozenset()


def several_named(paths: Sequence[str]) -> str:
    """How a message about several files ends: the first of their names, in the order
    given, and how many more there are (": a.md, b.md and 3 more")."""
    names: list[str] = []
    for path in paths[:_NAMED_MOST]:
        name = shown(path.rsplit("/", 1)[-1])
        if ", " in name or name != name.strip():  # one name, not two: quoted as JSON
            name = json.dumps(name, ensure_ascii=False)
        if names and sum(len(n) + 2 for n in names) + len(name) > _NAMED_CHARS:
            break
        names.append(name)
    more = f" and {len(paths) - len(names)} more" if len(paths) > len(names) else ""
    return ": " + ", ".join(names) + more


def without_names(p: Problem) -> str:
    """``p``'s message without the names of the files it is about, where it is about
    several: what stays the same when one of them is added or goes."""
    tail = several_named(about_files(p)) if p.about.startswith(_SEVERAL) else ""
    return p.message[: -len(tail)] if tail and p.message.endswith(tail) else p.message


def failing(problems: Iterable[Problem], fail_on: str) -> list[Problem]:
    """The findings that make the run fail under ``fail_on``."""
    if fail_on == "never":
        return []
    return [p for p in problems if fail_on == WARNING or p.severity == ERROR]


class Rule(NamedTuple):
    """A rule is data: its code, how bad it is, and its documentation.

    ``doc`` is Markdown with the headings ruff uses (*What it does*, *Why is this
    bad?*, *Example*, *Use instead*); ``memcheck rule CODE`` prints it. ``scope`` is
    what its verdict depends on (one of ``SCOPES``); ``security_severity`` the score
    SARIF gives code scanning for a rule about security (CVSS-like, "0.1" to "10.0";
    empty for the others). ``opt_in``: off unless ``select`` names its code (see
    ``rules.OPT_IN``): a rule whose premise a source no longer confirms, or advice.
    """

    code: str
    name: str
    severity: str
    fixable: bool
    summary: str
    doc: str
    scope: str = FILE
    security_severity: str = ""
    opt_in: bool = False

    def at(self, path: str, line: int, col: int, message: str, about: str = "") -> Problem:
        return Problem(path, max(line, 1), max(col, 1), self.code, _bounded(message), self.severity, self.fixable, about)


# A message quotes keys and values from the file, which may be a line of a megabyte:
# past this length its middle is left out, keeping what is wrong (the start) and
# what to do (the end). The longest message the test corpus gives is 295 characters.
MAX_MESSAGE = 1000


def _bounded(message: str) -> str:
    if len(message) <= MAX_MESSAGE:
        return message
    return f"{message[:600]}...[{len(message) - 900:,} characters left out]...{message[-300:]}"


def contained(rule: Rule, path: str, problems: Iterable[Problem]) -> Iterator[Problem]:
    """The findings of checking one file, where running out of stack or memory on it
    (a file built to exhaust a checker) is one ``rule`` finding on that file instead
    of the end of the run. Any other exception is a bug of memcheck's and goes on up
    to the internal-error report."""
    try:
        yield from problems
    except (RecursionError, MemoryError) as e:
        yield rule.at(
            path,
            1,
            1,
            f"{path.rpartition('/')[2]} could not be checked: it exhausts memcheck's {'memory' if isinstance(e, MemoryError) else 'stack'} ({type(e).__name__}); simplify the file",
        )
