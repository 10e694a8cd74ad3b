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
from memcheck.paths import basename
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
    from memcheck.guard.paths import Guard

    try:
        return Guard(ws.config.guard)
    except ConfigError:
        return None


# --- Where a path an agent opens leads ------------------------------------------------

_MAX_HOPS = 40  # as the kernel's own limit on links followed in one lookup (ELOOP)


def through_links(ws: Workspace, path: str) -> str:
    """``path`` (from the root) with every symlink along it replaced by what it names,
    as the agent's open() follows them, each link's target itself read through the
    tree's other links (``c -> e/shadow`` with ``e -> /etc`` is ``/etc/shadow``): a
    path from the root, one that climbs out of it (``../x``) or an absolute one.
    Only the tree's own links are read; a link out of it ends the walk."""
    parts = [p for p in path.split("/") if p not in ("", ".")]
    hops = 0
    at = 0
    while at < len(parts) and hops < _MAX_HOPS:
        prefix = "/".join(parts[: at + 1])
        if parts[0] in ("..", "/"):
            break  # out of the tree: nothing more of it to read
        target = ws.link_target(prefix)
        if target is None:
            at += 1
            continue
        hops += 1
        base = posixpath.dirname(prefix)
        joined = posixpath.normpath(target if target.startswith("/") or not base else posixpath.join(base, target))
        rest = parts[at + 1 :]
        parts = (["/"] + [p for p in joined.split("/") if p]) if joined.startswith("/") else [p for p in joined.split("/") if p not in ("", ".")]
        parts += rest
        at = 0
    if parts and parts[0] == "/":
        return posixpath.normpath("/" + "/".join(parts[1:]))
    return posixpath.normpath("/".join(parts)) if parts else "."


def secret_location(ws: Workspace, path: str, target: str) -> str | None:
    """Where the guard's secrets tier keeps ``target`` from (``category env, pattern
    /proc/*/environ``), or None: ``target`` is what the file at ``path`` names, an
    absolute path, one from the home folder (``~/.aws/credentials``, judged as the
    folder's own), or one from ``path``'s folder (read through the tree's links)."""
    from memcheck.guard.paths import link_targets

    guard = ws.once(_secrets_guard)
    if guard is None or not target:
        return None
    if target == "~" or target.startswith("~/"):
        home = target[2:]
        candidates = [target, home] if home else [target]
    elif target.startswith("/"):
        candidates = [target]
    else:
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
        candidates = [joined]
        if not joined.startswith("../") and joined != ".." and not ws.is_inside_root(joined):
            candidates.append(through_links(ws, joined))
    for candidate in candidates:
        for resolved in link_targets("", candidate):
            hit = guard.hit(resolved, is_dir=True, link_target=True)
            if hit is not None:
                return f"category {hit.category}, pattern {hit.pattern}"
    return None


def _secrets_guard(ws: Workspace) -> Guard | None:
    """The guard of the run's settings, its secrets tier alone."""
    from memcheck.guard.paths import Guard
    from memcheck.guard.tiers import SECRETS

    try:
        return Guard(ws.config.guard, (SECRETS,))
    except ConfigError:
        return None
