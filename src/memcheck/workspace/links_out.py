"""Agent files that are symlinks out of the repository, as the rules describe them:
where the link leads, and whether that is a place where secrets are kept (one the
guard stops a symlink pointing at: GRD002, judged by the same patterns).

memcheck never follows such a link (``Source.read``); the agent that loads the file
does, on every machine, and reads whatever is there: ``/proc/self/environ`` puts the
machine's environment, tokens and all, into its context."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from memcheck.config import ConfigError
from memcheck.paths import basename, through_links
from memcheck.problem import shown

if TYPE_CHECKING:
    from memcheck.guard.paths import Guard
    from memcheck.workspace.discover import Workspace


def leads_to(ws: Workspace, path: str, target: str) -> str:
    """``{target}, outside the repository``, and what the guard says of the place:
    " and a secret location (guarded by category env, pattern /proc/*/environ)"."""
    return f"{shown(target)}, outside the repository{_secret(ws, path, target)}"


def unfollowed(ws: Workspace, path: str, reader: str, remedy: str) -> str:
    """What a finding on an agent file that is a symlink out of the repository says:
    where it leads, that ``reader`` (an agent that loads it) reads that file, that
    memcheck checks nothing in it, and ``remedy``."""
    target = ws.link_out(path) or "a file"
    return f"{basename(path)} is a symlink to {leads_to(ws, path, target)}: {reader} reads that file; memcheck does not follow it, so nothing in it is checked; {remedy}"


def _secret(ws: Workspace, path: str, target: str) -> str:
    # The guard's paths (its categories, tiers and patterns) imported only here, when a
    # link leads out: not by every check of a store (4 ms of a commit hook's imports).
    from memcheck.guard.paths import link_targets

    guard = ws.once(_guard)
    # As GRD002 judges a link: by its target, unless the config allows the link's own path.
    if guard is None or guard.allowed.first(path) is not None:
        return ""
    for resolved in link_targets(path, target):
        hit = guard.hit(resolved, is_dir=True, link_target=True)
        if hit is not None:
            return f" and a secret location (guarded by category {hit.category}, pattern {hit.pattern})"
    return ""


def _guard(ws: Workspace) -> Guard | None:
    """The guard of the run's settings, built once and only when a link leads out.
    Settings the guard cannot use (an unknown category) are ``memcheck guard``'s to
    report: here the note is only left out."""
    from memcheck.guard.paths import guard_for

    try:
        return guard_for(ws.config.guard)
    except ConfigError:
        return None


# --- Where a path an agent opens leads ------------------------------------------------


def secret_location(ws: Workspace, path: str, target: str) -> str | None:
    """Where the guard's secrets tier keeps ``target`` from (``category env, pattern
    /proc/*/environ``), or None: ``target`` is what the file at ``path`` names, an
    absolute path, one from the home folder (``~/.aws/credentials``, judged as the
    folder's own), or one from ``path``'s folder (read through the tree's links)."""
    if not target:
        return None
    relative = not (target == "~" or target.startswith(("~/", "/")))
    if relative:
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
        if joined in ws.file_set and ws.link_target(joined) is None:
            # A file of the repository's own, no link: where it is a secret, the guard
            # says so when it is committed. Asked first, so that a tree whose guidance
            # names only its own files never builds the guard's patterns (their import
            # and sets were a sixth of a first check of bench/'s M tree).
            return None
    from memcheck.guard.paths import link_targets

    guard = ws.once(_secrets_guard)
    if guard is None:
        return None
    if target == "~" or target.startswith("~/"):
        home = target[2:]
        candidates = [target, home] if home else [target]
    elif target.startswith("/"):
        candidates = [target]
    else:
        candidates = [joined]
        if not joined.startswith("../") and joined != ".." and not ws.is_inside_root(joined):
            candidates.append(through_links(joined, ws.link_target))
    for candidate in candidates:
        for resolved in link_targets("", candidate):
            hit = guard.hit(resolved, is_dir=True, link_target=True)
            if hit is not None:
                return f"category {hit.category}, pattern {hit.pattern}"
    return None


def _secrets_guard(ws: Workspace) -> Guard | None:
    """The guard of the run's settings, its secrets tier alone."""
    from memcheck.guard.paths import guard_for
    from memcheck.guard.tiers import SECRETS

    try:
        return guard_for(ws.config.guard, (SECRETS,))
    except ConfigError:
        return None
