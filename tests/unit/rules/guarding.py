"""What the GRD rules' tests share: the guard's engine on changes and settings held
in memory (``memcheck.guard.engine.judge_changes``), and the console transcript of a
rule's doc, the line a user sees, to compare its findings with.

No repository: a staged change is a ``Change`` with a status and no commit, HEAD's
settings and the staged ones are the texts of a ``.memcheck.yaml`` read as the guard
reads them from a commit (``load_text``); git's part (which changes, which commits'
settings) is tested in tests/cli/test_guard*.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping

from memcheck.changes import Change
from memcheck.config import Config, ConfigError, load_text
from memcheck.guard.engine import judge_changes
from memcheck.guard.tiers import recogniser
from memcheck.guard.trust import SettingsChange
from memcheck.problem import Problem, escaped, shown

ROOT = Path("/nonexistent/memcheck-in-memory")
FILE = "100644"
SETTINGS = ".memcheck.yaml"


def settings(text: str | None = None, shown_as: str = f"HEAD:{SETTINGS}") -> Config:
    """The settings a ``.memcheck.yaml`` holding ``text`` gives (None: no file)."""
    return load_text(ROOT, SETTINGS, text, shown_as)


def added(path: str, mode: str = FILE, target: str | None = None) -> Change:
    """A staged addition (no commit yet)."""
    return Change("A", path, new_mode=mode, target=target)


def modified(path: str) -> Change:
    return Change("M", path, old_mode=FILE, new_mode=FILE)


def guard_staged(
    *changes: Change, head: str | None = None, staged: str | None = None, env: Mapping[str, str] | None = None
) -> list[Problem]:
    """What ``memcheck guard`` reports for staged ``changes``: judged by HEAD's
    settings (``head``, the text of its .memcheck.yaml) and, with ``staged``, the
    staged .memcheck.yaml compared with HEAD's (GRD003, GRD005); the commit made from
    a shell with ``env``."""
    config = settings(head)
    agent = recogniser(config.guard).of_shell(env or {})
    changed = []
    if staged is not None:
        after: Config | str
        try:
            after = settings(staged, SETTINGS)  # as the engine names it, without the tree
        except ConfigError as e:
            after = str(e)
        changed.append(SettingsChange(SETTINGS, "", after, (config,)))
    return judge_changes(changes, config, lambda change: agent, changed)


def line(problem: Problem) -> str:
    """A finding as ``memcheck guard`` prints it (no colour)."""
    return f"{shown(problem.path)}:{problem.line}:{problem.col}: {problem.code} {escaped(problem.message)}"


def printed(transcript: str) -> list[str]:
    """The lines a console transcript of a rule's doc (``example(CODE)``) shows
    memcheck print: every line but the ``$`` command."""
    return [text for text in transcript.splitlines() if text and not text.startswith("$ ")]


def shows(expected: str, actual: str) -> bool:
    """Whether a transcript's line shows ``actual``: its ``...`` stands for text the
    doc leaves out."""
    return re.fullmatch(".*".join(map(re.escape, expected.split("..."))), actual, re.S) is not None
