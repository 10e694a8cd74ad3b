"""A baseline: the findings a repository already had when it adopted memcheck.

``memcheck check --write-baseline FILE`` records them; ``--baseline FILE`` (or the
config's ``baseline:``) reports only findings that are not in it, so a repository
with hundreds of findings gates new ones today and pays the old ones down later.

A finding is matched by its file, its code and its message with the numbers left
out: the message names what the finding is about (the key, the link, the memory
file), while its numbers are line numbers and sizes, which change when the file
around it is edited. The lists of agents a message names are left out too: they
follow the config's `agents:`, which a team changes as it takes up another agent. So
a finding that moves to another line stays accepted, and one about another key or
file is new. Matches are counted: a baseline holding two
identical findings accepts two, and a third is reported. A finding about several
files (the memories an index has no room for) is recorded with them, and accepted
where the baseline's names every one it names now: one more memory left out is new,
one fewer is not.

Secret findings (``SEC``) are never recorded: a secret must not pass silently; it is
removed and rotated, or, for a test fixture, named in the config's
``per-path-ignores``, where a reviewer sees it.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import AbstractSet, Callable, Generic, Hashable, Iterable, Sequence, TypeVar

from memcheck import lazy_regex
from memcheck.config import Config, ConfigError, inside_only
from memcheck.problem import Problem, about_files, several, without_names
from memcheck.records import NamedTuple
from memcheck.safe_files import Refused, replacing, within
from memcheck.text.document import BINARY, TOO_LARGE, special_file

VERSION = 1
NEVER_ACCEPTED = ("SEC",)
# A number standing on its own ("line 12", "215 lines", "25,000 bytes", "lines
# 201-215"), not one in a word ("v1"), a file name or path ("session-2025-01-10.md",
# "docs/2fa.md": a token with a "/" or an extension) or a quoted value or link
# ('2025-01-10'): those say what the finding is about.
_NUMBER = lazy_regex.compile(r"""('[^'\n]*'|"[^"\n]*"|[^\s'"]*(?:\.[A-Za-z]|/)[^\s'"]*)|(?<![\w.])\d+(?![\w.]*\w)""")


def _mask(message: str) -> str:
    return _agent_lists().sub(_agents_masked, _NUMBER.sub(lambda m: m.group(1) or "#", message))


# The verb after a list of agents agrees with how many it names ("Codex reads", "Codex
# and Amp read"): masked with the list, in its plural.
_PLURAL = {"reads": "read", "does": "do", "follows": "follow", "loads": "load", "sees": "see", "skips": "skip", "is": "are", "has": "have"}


def _agents_masked(m: re.Match[str]) -> str:
    verb = m.group("verb")
    return "(agents)" if verb is None else f"(agents) {_PLURAL.get(verb, verb)}"


@cache
def _agent_lists() -> re.Pattern[str]:
    """A list of agents' names in a message ("Codex and Amp", "Claude Code, Codex and
    Cursor"): which agents a message names follows the config's `agents:` (the agents
    a team uses), not what the finding is about, so a team that adds an agent keeps its
    baseline. (Masked when a baseline is read too: one written before matches still.)"""
    from memcheck import agents

    names = "|".join(re.escape(agents.title(a)) for a in sorted(agents.ALL, key=lambda a: -len(agents.title(a))))
    verbs = "|".join(sorted({*_PLURAL, *_PLURAL.values()}))
    return re.compile(rf"(?:\b(?:{names})(?:(?:, and |, | and )(?:{names}))*\b|\bno agent\b)(?: (?P<verb>{verbs})\b)?")


def _normal_path(path: str) -> str:
    """A path as findings name it: forward slashes, no leading ``./`` (a baseline
    edited by hand, or written on Windows)."""
    norm = posixpath.normpath(path.replace("\\", "/"))
    return "" if norm == "." else norm


class Key(NamedTuple):
    path: str
    code: str
    message: str  # numbers masked with '#'; a finding about several files: without their names
    files: frozenset[str] = frozenset()  # the files of a finding about several (see problem.several)


def key(p: Problem) -> Key:
    return Key(p.path, p.code, _mask(without_names(p)), several(p))


def _order(k: Key) -> tuple[str, str, str, list[str]]:
    return (k.path, k.code, k.message, sorted(k.files))


K = TypeVar("K", bound=Hashable)


class _Entries(Generic[K]):
    """Counted entries (a baseline's, or an older tree's findings) that findings are
    matched with one at a time, each entry holding as many findings as its count.
    An entry about several files (see ``Key.files``) holds any finding of the same
    words that names only files it names, and any finding on the same file, of the
    same rule, about one of them alone (the memories an index had no room for, one
    of which it now has room for): what was one finding may now be two."""

    def __init__(
        self,
        counted: Counter[K],
        files: Callable[[K], frozenset[str]],
        rest: Callable[[K], object],
        where: Callable[[K], tuple[str, str]],
    ) -> None:
        self.left = counted
        self._files, self._rest, self._where = files, rest, where
        # The entries about several files, closest first (naming fewest), by their words
        # and by their file and rule: each finding looks up its own, not every entry (a
        # baseline of thousands of stores, each with memories left out).
        several = sorted((e for e in counted if files(e)), key=lambda e: (len(files(e)), sorted(files(e))))
        self._by_rest: dict[object, list[K]] = {}
        self._by_where: dict[tuple[str, str], list[K]] = {}
        for e in several:
            self._by_rest.setdefault(rest(e), []).append(e)
            self._by_where.setdefault(where(e), []).append(e)

    def take(self, k: K, about: str) -> bool:
        """Whether an entry holds ``k`` (``about``: the one file its finding is about,
        or ""); a count it takes is no longer left over."""
        wanted = self._files(k)
        if not wanted and self.left[k] > 0:
            self.left[k] -= 1
            return True
        if wanted:
            holding = [e for e in self._by_rest.get(self._rest(k), ()) if self._files(e) >= wanted]
        elif about:
            holding = [e for e in self._by_where.get(self._where(k), ()) if about in self._files(e)]
        else:
            return False
        if not holding:
            return False
        if self.left[holding[0]] > 0:  # (the closest: naming fewest files)
            self.left[holding[0]] -= 1
        return True


def accepted(p: Problem) -> bool:
    """Whether a baseline may hold the finding at all."""
    return not p.code.startswith(NEVER_ACCEPTED)


def render(problems: Iterable[Problem]) -> str:
    """The baseline file for these findings: JSON, sorted, one finding per entry with
    its count, so the same findings always give the same bytes (and a finding that
    only moved does not change the file)."""
    counted = Counter(key(p) for p in problems if accepted(p))
    entries: list[dict[str, object]] = []
    for k in sorted(counted, key=_order):
        entry: dict[str, object] = {"path": k.path, "code": k.code, "message": k.message, "count": counted[k]}
        if k.files:
            entry["files"] = sorted(k.files)
        entries.append(entry)
    return json.dumps({"version": VERSION, "findings": entries}, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def write(path: Path, problems: Sequence[Problem], top: Path | None = None) -> tuple[int, int]:
    """Write the baseline, whole or not at all, never through a symlink nor, in the
    repository ``top``, into a folder that leads out of it (see
    ``safe_files.replacing``); (findings recorded, secret findings left out)."""
    text = render(problems)
    try:
        # backslashreplace: a file name that is not UTF-8 is recorded as the JSON escape
        # of its character (\udcff), which load reads back to the same path.
        with replacing(str(path), top) as handle:
            handle.write(text)
    except Refused as e:
        raise ConfigError(f"baseline {e}") from None
    except OSError as e:
        raise ConfigError(f"baseline {path}: cannot write it: {e.strerror or e}") from None
    kept = sum(accepted(p) for p in problems)
    return kept, len(problems) - kept


def load(path: Path) -> Counter[Key]:
    kind = special_file(path)
    if kind is not None:  # reading a FIFO would wait for a writer forever
        raise ConfigError(f"baseline {path} is {kind}, not a regular file; not read")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"baseline {path} does not exist; write it with `memcheck check --write-baseline {path}`") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise ConfigError(f"baseline {path}: cannot read it: {e}") from None
    except RecursionError:  # json recurses once per level: '[' * 100,000 exhausts the stack
        raise ConfigError(f"baseline {path}: cannot read it: nested too deeply to be a memcheck baseline") from None
    if not isinstance(data, dict) or data.get("version") != VERSION or not isinstance(data.get("findings"), list):
        raise ConfigError(f"baseline {path} is not a memcheck baseline (version {VERSION}); write it again with --write-baseline")
    found: Counter[Key] = Counter()
    for i, entry in enumerate(data["findings"]):
        fields = (entry.get("path"), entry.get("code"), entry.get("message")) if isinstance(entry, dict) else ()
        count = entry.get("count", 1) if isinstance(entry, dict) else None
        files = entry.get("files", []) if isinstance(entry, dict) else None
        if (
            len(fields) != 3
            or not all(isinstance(f, str) for f in fields)
            or not isinstance(count, int)
            or isinstance(count, bool)
            or count < 1
            or not isinstance(files, list)
            or not all(isinstance(f, str) for f in files)
        ):
            raise ConfigError(
                f"baseline {path}: finding {i + 1} needs a path, code and message (strings), a count of 1 or more, "
                "and, if it has files, a list of strings"
            )
        where, code, message = fields
        found[Key(_normal_path(where), code, _mask(message), frozenset(_normal_path(f) for f in files))] += count  # type: ignore[arg-type]
    return found


def drop_accepted(problems: Sequence[Problem], config: Config) -> list[Problem]:
    """The findings the config's baseline does not accept, in their order. Where a
    baseline accepts fewer than there are, the first ones in that order are accepted."""
    return match(problems, config)[0]


def match(problems: Sequence[Problem], config: Config) -> tuple[list[Problem], Counter[Key]]:
    """``drop_accepted``'s findings, and the baseline's entries that accepted none of
    them (with how many times each is left): on a whole tree, findings since mended,
    whose entries would silently accept the same finding if it came back."""
    if not config.baseline:
        return list(problems), Counter()
    path = config.root / config.baseline
    inside_only(path, config.root, f"baseline {Path(within(path, config.root) or config.baseline).as_posix()}", "a baseline")
    entries = _Entries(load(path), _files, _rest, _where)
    kept = [p for p in problems if not (accepted(p) and entries.take(key(p), _about_one(p)))]
    # An entry about several files that a finding of the same words outgrew (one more
    # memory left out) is not mended: the finding is reported, and the entry is its.
    grown = {_rest(key(p)) for p in kept if several(p)}
    return kept, Counter({e: n for e, n in entries.left.items() if n > 0 and not (e.files and _rest(e) in grown)})


def _about_one(p: Problem) -> str:
    return "" if several(p) else p.about


def _files(k: Key) -> frozenset[str]:
    return k.files


def _rest(k: Key) -> tuple[str, str, str]:
    return (k.path, k.code, k.message)


def _where(k: Key) -> tuple[str, str]:
    return (k.path, k.code)


def _unread(message: str) -> bool:
    return TOO_LARGE in message or BINARY in message


def new_since(
    problems: Sequence[Problem],
    before: Iterable[Problem],
    changed: AbstractSet[str],
    found: Callable[[Problem], str | None] | None = None,
    found_before: Callable[[Problem], str | None] | None = None,
) -> tuple[list[Problem], int]:
    """The findings that ``before`` (an older tree's) does not have, in their order,
    and how many it has: matched as a baseline matches them, counted the same way. A
    secret in a file the change touches is never older (a baseline never accepts
    one); only in a file it leaves as it was. ``found`` and ``found_before``: what each
    finding found (see ``checks.hidden.found_on``), matched too where given, so a
    finding that reads as an older one but found other text is new. A file too large
    to read, or binary, is never older where the change touches it: what it adds past
    the cap, or besides its NUL bytes, is read by no rule but SEC's and HID's, and an
    agent loads it."""

    def keyed(p: Problem, what: Callable[[Problem], str | None] | None) -> tuple[Key, str | None]:
        return key(p), None if what is None else what(p)

    before = list(before)
    entries = _Entries(Counter(keyed(p, found_before) for p in before), _keyed_files, _keyed_rest, _keyed_where)
    # The files each rule's older findings on a file named, alone or with others: a
    # finding about several files names nothing new where it names only those (a
    # memory told alone before, as fix had room for it, and left out with the others now).
    named: dict[tuple[str, str], set[str]] = {}
    for p in before:
        named.setdefault((p.path, p.code), set()).update(about_files(p))
    new = [
        p
        for p in problems
        if not (
            ((accepted(p) and not _unread(p.message)) or p.path not in changed)
            and (entries.take(keyed(p, found), _about_one(p)) or (bool(several(p)) and several(p) <= named.get((p.path, p.code), set())))
        )
    ]
    return new, len(problems) - len(new)


def _keyed_files(k: tuple[Key, str | None]) -> frozenset[str]:
    return k[0].files


def _keyed_rest(k: tuple[Key, str | None]) -> tuple[str, str, str, str | None]:
    return (k[0].path, k[0].code, k[0].message, k[1])


def _keyed_where(k: tuple[Key, str | None]) -> tuple[str, str]:
    return (k[0].path, k[0].code)
