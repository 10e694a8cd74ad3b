"""What a check compares with (``Since``: ``--new-since REF``, ``--changed``) and what
it found (``Found``): plain values, apart from the engine that works them out, so a
run that has nothing to check (see workspace/candidates.py) reports it without
importing the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from memcheck.records import NamedTuple

if TYPE_CHECKING:
    from memcheck.config import Config
    from memcheck.output import Checked
    from memcheck.problem import Problem


class Since(NamedTuple):
    """What a run compares with."""

    ref: str  # as messages name it: "new since REF"
    settings: str  # the commit REF names: its settings judge the change's secrets
    tree: str  # the commit whose tree the findings are compared with: where HEAD's history left REF's
    touched: tuple[str, ...] | None  # what the change touches; None: what differs from ``tree`` (worked out by engine.since)
    compare: bool = True  # False (``--all``): every finding is reported; REF still judges the secrets
    folders: tuple[str, ...] | None = None  # a hook run lists these folders only (see selection.hook_folders)
    settings_file: str | None = None  # --config: read from REF where it is in the repository
    options: Callable[[Config], Config] | None = None  # the command line's options, put on REF's settings too


class Found(NamedTuple):
    problems: list[Problem]  # what to report
    older: int  # findings older than the change, not reported
    fails: bool  # a finding fails the run (the tree's fail-on; REF's for what REF's settings found)
    indexes: list[str]  # the MEMORY.md files checked, for reports of their cap usage
    checked: Checked | None = None  # what was checked, for the summary line
