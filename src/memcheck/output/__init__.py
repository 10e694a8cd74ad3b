"""Reporters: each turns a run's problems into text on stdout.

``REPORTER_BY_NAME`` maps a ``--format`` value to its module's ``report``; modules are
imported when chosen, so a run pays only for the format it prints.
"""

from __future__ import annotations

import importlib
import os
from typing import Any, Callable, Mapping, Sequence, TextIO

from memcheck.choices import FORMATS
from memcheck.problem import Problem
from memcheck.records import NamedTuple

Reporter = Callable[[Sequence[Problem], TextIO, "ReportContext"], None]

# What `fix` did to one index, as hooks.fix.describe records it for the reporters:
# added, repointed, removed, rewrote, past_cap, caps. Any: the record is a plain dict
# of JSON values, printed by json and read key by key by text.
FixRecord = Mapping[str, Any]

# One reporter module a format, named after it: choices.FORMATS is the one list of them.
REPORTER_BY_NAME = {name: f"memcheck.output.{name}" for name in FORMATS}


# An index's cap usage, for the JSON report: path, lines, bytes, max_lines, max_bytes.
CapUsage = Mapping[str, object]
# A baseline file name to suggest when none is configured.
BASELINE_FILE = ".memcheck-baseline.json"


class Older(NamedTuple):
    """Findings older than the change, not reported (``--new-since``, ``--changed``)."""

    ref: str  # the problems reported are new since this
    total: int
    baseline: str | None  # the config's baseline, which would adopt them


class Override(NamedTuple):
    """A pull request's override label as the guard judged it (``guard --override-label``
    or ``--allow-label``): ``counts`` when it lets a reviewed change through; ``refused``,
    why the label the pull request carries does not count; neither when it is not carried."""

    label: str
    counts: bool = False
    refused: str = ""


class Checked(NamedTuple):
    """What a check or fix looked at, for the summary line: the agent files it read."""

    guidance: int
    stores: int
    memories: int  # memory files in those stores
    skills: int
    # What the run was given: the whole tree, some paths, or what a change touches
    # (the words of the line that says it found nothing to check).
    scope: str = "tree"
    # The other files agents load: subagents, custom agents, prompt files, Kiro
    # steering, Cline rules.
    others: int = 0
    accepted: int = 0  # findings the config's baseline accepted, not reported
    stale: int = 0  # the baseline's entries that accepted nothing on a whole tree: findings since mended
    baseline: str = ""  # the baseline's file, as the config names it
    examples: tuple[Problem, ...] = ()  # documented example keys passed over (notes: path, line and the key)
    # A whole tree judged where a change was asked for (`pre-commit run --all-files`),
    # with no baseline: the line says how to adopt what it found.
    adopt: bool = False

    def nothing(self) -> bool:
        return not (self.guidance or self.stores or self.skills or self.others)


class ReportContext:
    """What a reporter may need beyond the problems."""

    def __init__(
        self,
        color: bool = False,
        fixed: Sequence[str] = (),
        command: str = "check",
        changes: Mapping[str, FixRecord] | None = None,
        statistics: bool = False,
        older: Older | None = None,
        indexes: Sequence[CapUsage] | None = None,
        fail_on: str | None = None,
        quiet: bool = False,
        checked: Checked | None = None,
        override: Override | None = None,
        judged: str | None = None,
    ):
        self.color = color
        self.fixed = tuple(fixed)  # files `fix` rewrote
        self.command = command
        # per index fix rewrote: added, repointed, removed, rewrote, past_cap (see hooks.fix.describe)
        self.changes: Mapping[str, FixRecord] = changes or {}
        self.statistics = statistics  # counts per code instead of each finding (text and json)
        self.older = older  # only what the change brings is reported
        self.indexes = indexes  # the indexes checked, with their cap usage (json)
        self.fail_on = fail_on  # what fails the run (json)
        self.quiet = quiet  # the findings alone: no summary, no fix lines but their warnings (text, github)
        self.checked = checked  # what check or fix looked at (None: guard, which judges paths)
        self.override = override  # guard's: the override label it was given, judged (json, markdown)
        self.judged = judged  # guard's: the range it judged and by whose settings, in words (markdown)


def resolve_format(name: str) -> str:
    if name == "auto":
        return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"
    return name


def get_reporter(name: str) -> Reporter:
    return importlib.import_module(REPORTER_BY_NAME[name]).report  # type: ignore[no-any-return]


def counts(problems: Sequence[Problem]) -> tuple[int, int, int]:
    errors = sum(p.severity == "error" for p in problems)
    return errors, len(problems) - errors, sum(p.fixable for p in problems)


class Count(NamedTuple):
    code: str
    name: str
    count: int  # type: ignore[assignment]  # (the field, in place of tuple's count(): never called on a Count)
    fixable: bool  # `memcheck fix` fixes at least one of them


def statistics(problems: Sequence[Problem]) -> list[Count]:
    """Findings counted per code, most first (``--statistics``, as ruff's)."""
    from memcheck.checks import all_rules

    rules = all_rules()
    by_code: dict[str, list[Problem]] = {}
    for p in problems:
        by_code.setdefault(p.code, []).append(p)
    counts = [
        Count(code, rules[code].name if code in rules else "", len(found), any(p.fixable for p in found)) for code, found in by_code.items()
    ]
    return sorted(counts, key=lambda c: (-c.count, c.code))


def occurrences(problems: Sequence[Problem]) -> list[tuple[tuple[str, ...], int]]:
    """Each finding's identity across runs: what a baseline matches it by (its file,
    its code and its message without its numbers, see memcheck.baseline), and which
    of the identical ones it is (1, 2, ... in report order). A finding that moves to
    another line keeps it; the SARIF and GitLab fingerprints are made from it. A
    finding about several files keeps it as they change: the memories an index has
    no room for are one alert while some are added and others go."""
    from memcheck.baseline import key

    seen: dict[tuple[str, ...], int] = {}
    found: list[tuple[tuple[str, ...], int]] = []
    for p in problems:
        k = (p.path, p.code, key(p).message)
        seen[k] = seen.get(k, 0) + 1
        found.append((k, seen[k]))
    return found
