"""An override label: a maintainer's word, on a pull request, that what it changes
is accepted (``memcheck guard --allow-label NAME``; or ``--override-label NAME
--event FILE``, which the GitHub Action passes, where the guard judges the event).

It lets through an agent's change to a path guarded from agents (GRD004) and a
change to the guard's settings (GRD003, GRD005), which the maintainer who adds the
label has reviewed: each is still reported, as a warning that names the label. A
secret (GRD001, GRD002) is removed and rotated, never accepted: no label lets it through.

Only a person's label counts, and who added it is known only on the run its
``labeled`` event starts: the event's sender, a ``User`` that is no ``[bot]`` account
and no agent's by memcheck's own signatures (never the pull request's settings, nor
anything else its files hold).
"""

from __future__ import annotations

import json
from typing import Mapping, Sequence

from memcheck import lazy_regex
from memcheck.checks.guard import GRD003, GRD004, GRD005
from memcheck.config import ConfigError
from memcheck.guard.tiers import shipped_signatures
from memcheck.output import Override
from memcheck.problem import WARNING, Problem

OVERRIDABLE = frozenset(rule.code for rule in (GRD003, GRD004, GRD005))
# An agent's GitHub account as its commits' address names it: ``ID+LOGIN@users.noreply.github.com``.
_NOREPLY_LOGIN = lazy_regex.compile(r"\+([^@]+)@users\.noreply\.github\.com$")
ONLY_ON_LABELED = (
    "who added it is known only on the run its labeled event starts: a person who accepts these commits removes it and adds it again"
)


def allowed(problems: Sequence[Problem], label: str) -> list[Problem]:
    """The findings as the label leaves them: the ones it lets through as warnings."""
    note = f" (allowed: the pull request has the label {label!r})"
    return sorted(p._replace(severity=WARNING, message=p.message + note) if p.code in OVERRIDABLE else p for p in problems)


def read_event(path: str) -> Mapping[str, object]:
    """The GitHub event that started the run (a workflow's ``GITHUB_EVENT_PATH``)."""
    try:
        with open(path, encoding="utf-8") as f:
            event = json.load(f)
    except (OSError, ValueError) as e:
        raise ConfigError(f"--event {path}: cannot read the event: {e}") from None
    return event if isinstance(event, dict) else {}


def agent_accounts() -> frozenset[str]:
    """The accounts memcheck's signatures name as an agent's, casefolded: their names and
    the logins of their GitHub noreply addresses."""
    found: set[str] = set()
    for sig in shipped_signatures():
        login = _NOREPLY_LOGIN.search(sig.email)
        found.update(v.casefold() for v in (sig.name, login.group(1) if login else "") if v)
    return frozenset(found)


def judged(event: Mapping[str, object], label: str) -> Override:
    """Whether the pull request of ``event`` carries ``label``, and whether it counts
    (why not, when it does not)."""
    pr = event.get("pull_request")
    labels = pr.get("labels", []) if isinstance(pr, dict) else []
    if label not in {str(x.get("name")) for x in labels if isinstance(x, dict)}:
        return Override(label)
    added = event.get("label")
    if event.get("action") != "labeled" or not isinstance(added, dict) or added.get("name") != label:
        return Override(label, refused=ONLY_ON_LABELED)
    sender = event.get("sender")
    sender = sender if isinstance(sender, dict) else {}
    who = str(sender.get("login") or "")
    if sender.get("type") == "User" and who and not who.casefold().endswith("[bot]") and who.casefold() not in agent_accounts():
        return Override(label, counts=True)
    if not who:
        return Override(label, refused="the event does not say who added it: it counts only when a person's account adds it")
    return Override(label, refused=f"{who} added it, an agent's or a bot's account: it counts only when a person's account adds it")
