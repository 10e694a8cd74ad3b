"""What the guard reports: a finding per rule and path that changes touched (GRD001,
GRD002), a config change that loosens the guard (GRD003), and the guarded paths of a
tree for ``memcheck guard --list``. Changes come as ``Change`` values; nothing here
asks git."""
from __future__ import annotations

import json
import re
from typing import Iterable, Mapping, NamedTuple, Sequence

from memcheck.changes import SYMLINK_MODE, Change, absent
from memcheck.checks.guard import GRD001, GRD002, GRD003
from memcheck.guard.categories import CONFIG_CATEGORY, categories
from memcheck.guard.paths import Guard, Hit, describe, link_targets
from memcheck.problem import Problem, Rule, shown

_SHOWN_CHANGES = 3  # a long range names the first few commits that touched a path


def allow_line(path: str) -> str:
    """The .memcheck.yaml line that allows exactly this path."""
    literal = re.sub(r"([\\*?\[])", r"\\\1", path)
    if literal.endswith(" "):
        literal = literal[:-1] + "\\ "  # gitignore drops unescaped trailing spaces
    return "guard: {allow: " + json.dumps(["/" + literal], ensure_ascii=False) + "}"


class _Touch(NamedTuple):
    rule: Rule
    path: str
    hit: Hit
    what: str  # "added", "symlink added pointing to X", …
    where: str  # "1f3a9c2", "merge 1f3a9c2 (on feature)"; "" for staged changes


def commit_label(commit: str, merge: bool = False, ref: str = "") -> str:
    """A commit as findings name it: ``1f3a9c2``, ``merge 1f3a9c2 (on feature)``; ""
    for the staged changes, which have no commit yet."""
    if not commit:
        return ""
    label = f"merge {commit[:7]}" if merge else commit[:7]
    return f"{label} (on {ref})" if ref else label


def where(change: Change) -> str:
    if change.net:
        return net_label(change.commit)
    if not change.commit:
        return change.ref  # a tag on a tree ("tag t"); nothing for the staged changes
    return commit_label(change.commit, change.merge, change.ref)


def net_label(head: str) -> str:
    """How findings name a range's net change that no commit of it shows: a merge
    took the path from history outside the range (a parent the range does not hold)."""
    return f"the range's result {head[:7]} (a merge brought it from history outside the range)"


def _touches(change: Change, guard: Guard) -> Iterable[_Touch]:
    for path, what in describe(change):
        hit = guard.hit(path, change.is_directory)
        if hit is not None:
            yield _Touch(GRD001, path, hit, what, where(change))
    # A link is judged by its target whatever its own name; only the config's own
    # allowance of the link's path (not a template) lets it through.
    if change.is_symlink and change.target is not None and guard.allowed.first(change.path) is None:
        for resolved in link_targets(change.path, change.target):
            hit = guard.hit(resolved, is_dir=True, link_target=True)
            if hit is not None:
                shown_target = shown(change.target)
                at = shown_target if resolved == change.target else f"{shown_target} ({shown(resolved)})"
                verb = "added" if change.status == "A" or absent(change.old_mode) else "changed"
                yield _Touch(GRD002, change.path, hit, f"symlink {verb} pointing to {at}", where(change))
                break


def touches_guarded(change: Change, guard: Guard) -> bool:
    return any(True for _ in _touches(change, guard))


def symlink_blobs(changes: Iterable[Change]) -> set[str]:
    """The blobs holding the targets of the symlinks the changes leave behind."""
    return {c.new_blob for c in changes if c.is_symlink and c.status != "D"}


def _what(touches: Sequence[_Touch]) -> str:
    parts = [f"{t.what} in {t.where}" if t.where else t.what for t in touches[:_SHOWN_CHANGES]]
    if len(touches) > _SHOWN_CHANGES:
        parts.append(f"and in {len(touches) - _SHOWN_CHANGES} more commits")
    return ", ".join(dict.fromkeys(parts))


def findings(changes: Iterable[Change], guard: Guard) -> list[Problem]:
    """One finding per rule and path, naming every way the changes touched it.

    A symlink is judged by its ``target``, where the change carries one.
    """
    grouped: dict[tuple[Rule, str], list[_Touch]] = {}
    for change in changes:
        for touch in _touches(change, guard):
            grouped.setdefault((touch.rule, touch.path), []).append(touch)
    problems = []
    for (rule, path), touches in grouped.items():
        hit = touches[0].hit
        message = (
            f"{_what(touches)}: guarded by category {hit.category} (pattern {hit.pattern}); "
            f"to allow it, put in .memcheck.yaml: {allow_line(path)}"
        )
        problems.append(rule.at(path, 1, 1, message))
    return sorted(problems)


def loosened(path: str, changes: Sequence[tuple[str, Sequence[str]]]) -> Problem:
    """The finding for a config file whose changes loosen the guard: ``changes`` are
    (where, what each loosens) in commit order, ``where`` as ``commit_label`` gives it."""
    commits = [w for w, _ in changes if w]
    what = list(dict.fromkeys(item for _, items in changes for item in items))
    at = ""
    if commits:
        shown_commits = ", ".join(commits[:_SHOWN_CHANGES])
        more = f" and {len(commits) - _SHOWN_CHANGES} more" if len(commits) > _SHOWN_CHANGES else ""
        at = f" in {shown_commits}{more}"
    return GRD003.at(
        path, 1, 1,
        f"loosens the guard{at}: {', '.join(what)}; a change is judged by the settings before it, "
        "so land this on its own and have it reviewed",
    )


class Listed(NamedTuple):
    """A guarded path of the tree, for ``--list``."""

    path: str
    pattern: str
    target: str | None = None  # a symlink guarded for what it points at: its target


def guarded_tree(paths: Iterable[str], guard: Guard, links: Mapping[str, str] | None = None) -> dict[str, list[Listed]]:
    """Category -> every guarded path, in category order. ``links``: the tracked
    symlinks' targets; a link is guarded by its own name or by what it points at."""
    links = links or {}
    found: dict[str, list[Listed]] = {}
    for path in paths:
        change = Change("", path, new_mode=SYMLINK_MODE, target=links[path]) if path in links else Change("", path)
        touch = next(iter(_touches(change, guard)), None)
        if touch is not None:
            target = change.target if touch.rule is GRD002 else None
            found.setdefault(touch.hit.category, []).append(Listed(path, touch.hit.pattern, target))
    order = [*categories(), CONFIG_CATEGORY]
    return {name: sorted(found[name]) for name in order if name in found}
