"""What the guard reports: a finding per rule and path that changes touched (GRD001,
GRD002), a config change that loosens the guard (GRD003), and the guarded paths of a
tree for ``memcheck guard --list``. Changes come as ``Change`` values; nothing here
asks git."""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from typing import Callable, Iterable, Mapping, Sequence

from memcheck.changes import GITLINK_MODE, SYMLINK_MODE, TAGGED_BLOB, TRACKED, TREE_MODE, Change, absent
from memcheck.checks.guard.agent_guarded_path import GRD004
from memcheck.checks.guard.guard_loosened import GRD003
from memcheck.checks.guard.guarded_path import GRD001
from memcheck.checks.guard.guarded_symlink import GRD002
from memcheck.config import GuardConfig
from memcheck.guard.categories import CONFIG_CATEGORY, categories
from memcheck.guard.paths import Guard, Hit, describe, guard_for, leaves_repository, link_targets, whole_place
from memcheck.guard.tiers import AGENTS, SECRETS, Signature, shipped_tiers, tiers
from memcheck.paths import has_ignorable, through_links
from memcheck.problem import WARNING, Problem, Rule, shown, visible_name
from memcheck.records import NamedTuple

_SHOWN_CHANGES = 3  # a long range names the first few commits that touched a path


def allow_line(path: str) -> str:
    """The .memcheck.yaml line that allows exactly this path (a character that draws
    nothing written as its escape, which YAML's double-quoted strings read back)."""
    literal = re.sub(r"([\\*?\[])", r"\\\1", path)
    if literal.endswith(" "):
        literal = literal[:-1] + "\\ "  # gitignore drops unescaped trailing spaces
    return "guard: {allow: " + visible_name(json.dumps(["/" + literal], ensure_ascii=False)) + "}"


class Judge:
    """The guards that judge a change, chosen by who made it: the secrets tier for
    everyone's changes (every tier with ``guard.everyone``), every tier for an
    agent's. ``agent_of`` names the agent that made a change, None for a person."""

    def __init__(
        self, config: GuardConfig, agent_of: Callable[[Change], Signature | None] | None = None, every_tier: bool = False, root: str = ""
    ) -> None:
        """``every_tier``: judge every change by every tier, as if an agent made it
        (what ``--list`` shows). ``root``: the repository's path, which a symlink's
        absolute target is judged against (a folder above it)."""
        self.config = config
        self.root = root
        self.tier = tiers(config)
        self.agent_of = agent_of or _nobody
        self.everyone = guard_for(config, None if config.everyone or every_tier else (SECRETS,))
        self._all: Guard | None = self.everyone if config.everyone or every_tier else None
        # The tree's symlinks (path -> target as the link holds it), where the engine
        # read them; ``findings`` adds the ones the changes leave.
        self.tree_links: Mapping[str, str] = {}
        self._links: Mapping[str, str] = {}

    @property
    def every_tier(self) -> Guard:
        if self._all is None:  # built the first time an agent's change is judged
            self._all = guard_for(self.config)
        return self._all

    def guards(self, change: Change) -> tuple[tuple[Guard, ...], Signature | None]:
        """The guards to ask (see ``hit``), and the agent that made the change."""
        agent = self.agent_of(change)
        return self.guards_for(agent is None), agent

    def guards_for(self, by_person: bool) -> tuple[Guard, ...]:
        """The guards that judge a person's change, or an agent's."""
        if by_person or self._all is self.everyone:
            return (self.everyone,)
        return (self.every_tier, self.everyone)

    def hit(
        self, guards: Sequence[Guard], path: str, is_dir: bool = False, link_target: bool = False, as_folder: bool = False
    ) -> Hit | None:
        """The pattern that guards ``path`` for a change that ``guards`` judge. An
        agent's change asks every tier first, and the secrets tier only when that
        found a category of the agents tier (most paths match nothing, and are
        asked once): a secret is reported as one whoever made the change.
        ``as_folder``: the path taken as a folder, a symlink's or a submodule's."""
        if len(guards) == 1 and not as_folder:  # a person's change: most of a range
            return guards[0].hit(path, is_dir, link_target)

        def ask(guard: Guard) -> Hit | None:
            if as_folder:
                return guard.hit(path, is_dir=True) or guard.folder_hit(path)
            return guard.hit(path, is_dir, link_target)

        found = ask(guards[0])
        if found is not None and len(guards) > 1 and self.tier.get(found.category) == AGENTS:
            return ask(guards[1]) or found
        return found

    def rule(self, hit: Hit, link_target: bool) -> Rule:
        if self.tier.get(hit.category, SECRETS) == AGENTS:
            return GRD004
        return GRD002 if link_target else GRD001

    def judge(self, change: Change) -> None:
        """Judge a change's paths ahead of ``findings``, which then only looks them up:
        called while git is still writing the rest of a range."""
        self.guards(change)[0][0].judge(change)


def _nobody(change: Change) -> Signature | None:
    return None


class _Touch(NamedTuple):
    rule: Rule
    path: str
    hit: Hit
    what: str  # "added", "symlink added pointing to X", …
    where: str  # "1f3a9c2", "merge 1f3a9c2 (on feature)"; "" for staged changes
    agent: Signature | None = None
    status: str = ""  # the change's: "" for a path named on the command line
    real: str = ""  # the path to unstage, when the finding is about a path through a symlink
    ref: str = ""  # at pre-push, the other local branch or tag the commit was found through


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


_NOT_FILES = frozenset({SYMLINK_MODE, GITLINK_MODE, TREE_MODE})


def _is_link(mode: str) -> bool:
    return mode in (SYMLINK_MODE, GITLINK_MODE)


def _touches(change: Change, judge: Judge) -> Iterable[_Touch]:
    guards, agent = judge.guards(change)
    for path, what in describe(change):
        hit = judge.hit(guards, path, change.is_directory)
        if hit is None and path == change.path and (_is_link(change.new_mode) or _is_link(change.old_mode)):
            # A symlink or a submodule is also a folder in every checkout: named
            # .vscode, it puts what it holds at .vscode/settings.json.
            hit = judge.hit(guards, path, as_folder=True)
            if hit is not None:
                what = f"{what} ({'a submodule' if GITLINK_MODE in (change.new_mode, change.old_mode) else 'a symlink'}, a folder named like a guarded one)"
        if hit is not None:
            yield _Touch(judge.rule(hit, False), path, hit, what, where(change), agent, change.status, change.real, _other_ref(change))
    # A link is judged by its target whatever its own name; only the config's own
    # allowance of the link's path (not a template) lets it through.
    if change.is_symlink and change.target is not None and guards[0].allowed.first(change.path) is None:
        verb = "added" if change.status == "A" or absent(change.old_mode) else "changed"
        for resolved, hit in _link_hits(change.path, change.target, judge, guards):
            shown_target = shown(change.target)
            at = shown_target if resolved == change.target else f"{shown_target} ({shown(resolved)})"
            yield _Touch(
                judge.rule(hit, True),
                change.path,
                hit,
                f"symlink {verb} pointing to {at}",
                where(change),
                agent,
                change.status,
                ref=_other_ref(change),
            )
            break


def _link_hits(link: str, target: str, judge: Judge, guards: Sequence[Guard]) -> Iterable[tuple[str, Hit]]:
    """What a symlink's target is guarded by: as it is written, then read through the
    tree's other links (``c -> e/shadow`` with ``e -> /etc``; ``p -> /proc/self``),
    whether it names a whole place secrets are kept in (``/``, a home folder, a folder
    above the repository, a process's folder), and last, outside the repository, a
    folder a pattern names a file inside."""
    for resolved in link_targets(link, target):
        hit = judge.hit(guards, resolved, is_dir=True, link_target=True)
        if hit is not None:
            yield resolved, hit
            return
    joined = target if target.startswith("/") else f"{link.rpartition('/')[0]}/{target}".lstrip("/")
    followed = through_links(joined, judge._links.get) if judge._links else joined
    if followed != joined:
        for resolved in link_targets("", followed):
            hit = judge.hit(guards, resolved, is_dir=True, link_target=True)
            if hit is not None:
                yield followed, hit
                return
    places = [followed]
    if target.startswith("/") or "\\" in target or target[1:2] == ":":  # absolute, as POSIX or Windows reads it
        places += ["/" + resolved for resolved in link_targets(link, target)]
    elif judge.root and leaves_repository(link, target):  # ../../work: where it climbs to, from the repository's own path
        places.append(posixpath.normpath(posixpath.join(judge.root, posixpath.dirname(link), target)))
    for place in dict.fromkeys(places):
        hit = whole_place(place, judge.root)
        if hit is not None:
            yield place, hit
            return
    if leaves_repository(link, target):
        # Last, a folder outside that a pattern names a file inside (``~/.config/gh`` for
        # ``**/.config/gh/hosts.yml``): an agent that lists the repository reads
        # ``d/hosts.yml`` through the link as any other file.
        for resolved in link_targets(link, target):
            for guard in guards:
                hit = guard.holding_folder_hit(resolved)
                if hit is not None:
                    yield resolved, hit
                    return


def touches_guarded(change: Change, judge: Judge) -> bool:
    return any(True for _ in _touches(change, judge))


def symlink_blobs(changes: Iterable[Change]) -> set[str]:
    """The blobs holding the targets of the symlinks the changes leave behind."""
    # (the mode compared here rather than through is_symlink: a third of the time, on 10,000 changes)
    return {c.new_blob for c in changes if c.new_mode == SYMLINK_MODE and c.status != "D"}


def _what(touches: Sequence[_Touch]) -> str:
    parts = [f"{t.what} in {t.where}" if t.where else t.what for t in touches[:_SHOWN_CHANGES]]
    if len(touches) > _SHOWN_CHANGES:
        parts.append(f"and in {len(touches) - _SHOWN_CHANGES} more commits")
    return ", ".join(dict.fromkeys(parts))


def _remedy(touch: _Touch) -> str:
    """What to do first, and why this change is stopped: the message's opening words,
    before what happened (``added: guarded by category ...``)."""
    # as a shell takes it; a name no shell line can hold (a newline in it) as JSON writes it
    real = touch.real or touch.path
    path = shlex.quote(real) if real.isprintable() and not has_ignorable(real) else shown(real)
    staged, listed = touch.where == "" and touch.status not in ("", TRACKED), touch.status == ""
    if touch.rule is GRD004:
        if touch.agent is None:  # guard.everyone
            first = f"unstage it (git restore --staged -- {path})" if staged else "keep it out of the change"
            return f"{first}, or land it on its own past the guard (SKIP=memcheck-guard at the hook; the override label in a pull request) (guard.everyone guards it in every change)"
        who = f"{touch.agent.agent} {'pushes' if touch.agent.kind == 'push' else 'made'} it: {touch.agent.evidence()}"
        if staged and _agents_shell(touch):
            return f"unstage it (git restore --staged -- {path}) and have a person make this change ({who}; this file is guarded from agents' changes)"
        if staged:
            # Known by the message's trailers, the author or the committer: a person may be
            # committing an agent's work, and is told how to land it once reviewed.
            return (
                f"unstage it (git restore --staged -- {path}) and have a person make this change, or land it past the guard once a "
                f"person has reviewed it (SKIP=memcheck-guard,memcheck-guard-message at the hook) ({who}; this file is guarded from agents' changes)"
            )
        if _agents_shell(touch):
            return f"drop it from the agent's commit and have a person review it and make this change ({who}; this file is guarded from agents' changes)"
        return (
            "drop it from the agent's commit and have a person make this change, or land it past the guard once a person has reviewed it "
            f"(SKIP=memcheck-guard at the hook; the override label in a pull request) ({who}; this file is guarded from agents' changes)"
        )
    tag = _tag_of(touch)
    if tag is not None:
        return f"delete the tag before pushing (git tag -d {shlex.quote(tag) if tag.isprintable() else shown(tag)}) and rotate any secret it holds (guarded in every change, whoever makes it)"
    if listed:
        return "keep it out of the repository (add it to .gitignore) and rotate any secret it holds (guarded in every change, whoever makes it)"
    if touch.status == TRACKED:  # the tree holds it: committed on this branch, or long ago
        return (
            f"stop tracking it (git rm --cached -- {path}, add it to .gitignore, and commit: the guard lets a deletion through) "
            "and rotate any secret it holds: it stays in the history (guarded in every change, whoever makes it)"
        )
    if staged:
        return f"unstage it (git restore --staged -- {path}) and rotate any secret it holds (guarded in every change, whoever makes it)"
    return "rotate any secret it holds, and rewrite the branch to drop it before pushing, git rebase -i (guarded in every change, whoever makes it; no override label lets it through)"


def _other_ref(change: Change) -> str:
    """The local branch or tag other than the pushed one that a commit was found
    through (a tag on a tree has its own remedy)."""
    return change.ref if change.commit and change.ref and not change.ref.startswith("tag ") else ""


def _elsewhere(touch: _Touch, remedy: str) -> str:
    """A person pushing main is stopped by a commit on another local branch: say so
    first, since the remedy is about that branch, not about what they push."""
    if not touch.ref:
        return remedy
    ref = shlex.quote(touch.ref) if touch.ref.isprintable() and not has_ignorable(touch.ref) else shown(touch.ref)
    return (
        f"the commit is on {ref}, which this push does not name (at a push every local branch and tag is judged: pre-commit "
        f"names only the first ref it pushes); delete {ref} if it is not wanted, or else {remedy}"
    )


def _agents_shell(touch: _Touch) -> bool:
    """Whether the agent was known by the shell that runs memcheck (its variables, at a
    commit or a push): the message is then the agent's to read."""
    return touch.agent is not None and touch.agent.kind in ("env", "push")


def _tag_of(touch: _Touch) -> str | None:
    """The tag a touch was found in: one on a blob is named by the path, one on a
    tree by where (``tag t``)."""
    if touch.status == TAGGED_BLOB:
        return touch.path
    return touch.where.removeprefix("tag ") if touch.where.startswith("tag ") else None


def findings(changes: Iterable[Change], judge: Judge) -> list[Problem]:
    """One finding per rule and path, naming every way the changes touched it, led by
    the safe remedy. A symlink is judged by its ``target``, where the change carries one.
    """
    changes = list(changes)
    left = {c.path: c.target for c in changes if c.is_symlink and c.target is not None and c.status != "D"}
    judge._links = {**judge.tree_links, **left} if left else judge.tree_links
    quiet = _unguarded(changes, judge)
    grouped: dict[tuple[Rule, str], list[_Touch]] = {}
    for change in changes:
        # A file (no link, folder or submodule) at paths no pattern guards: nothing to say.
        if (
            change.path in quiet
            and (not change.source or change.source in quiet)
            and change.new_mode not in _NOT_FILES
            and change.old_mode not in _NOT_FILES
        ):
            continue
        for touch in _touches(change, judge):
            grouped.setdefault((touch.rule, touch.path), []).append(touch)
    problems = []
    for (rule, path), touches in grouped.items():
        first = touches[0]
        if rule is GRD001 and _only_deleted(touches):
            problems.append(_untracked(path, touches))
            continue
        # Run from an agent's shell, the agent reads the message, and would follow it: it is
        # told to have a person make the change, never how to let it through (the allow
        # line, a SKIP). A person who finds an agent's commit at push is told both.
        allow = "" if _agents_shell(first) else f"; to allow it, put in .memcheck.yaml: {allow_line(path)}"
        message = f"{_elsewhere(first, _remedy(first))}. {_what(touches)}: guarded by category {first.hit.category} (pattern {first.hit.pattern}){allow}"
        problems.append(rule.at(path, 1, 1, message))
    return sorted(problems)


def _only_deleted(touches: Sequence[_Touch]) -> bool:
    """Whether every touch of a secret's path deletes it, as ``git rm --cached .env``
    does: the remedy the guard asks for, never a way to publish the secret. A rename's
    source is not a deletion (the secret goes on under the new name), nor is a path
    one commit of a range adds and another deletes (the first publishes it). A
    category a team moved into the secrets tier (a lock file) holds no secret: its
    deletion is still a change to it."""
    return all(t.status == "D" for t in touches) and shipped_tiers().get(touches[0].hit.category, SECRETS) == SECRETS


def _untracked(path: str, touches: Sequence[_Touch]) -> Problem:
    """A secret's file deleted from the tree: reported as a warning, which passes."""
    first = touches[0]
    message = (
        "rotate any secret it holds (deleting it stops tracking it, but it stays in the history, in every clone: "
        "to purge it, rewrite the history; add it to .gitignore so it is not added again). "
        f"{_what(touches)}: guarded by category {first.hit.category} (pattern {first.hit.pattern})"
    )
    return GRD001.at(path, 1, 1, message)._replace(severity=WARNING)


def _unguarded(changes: Sequence[Change], judge: Judge) -> set[str]:
    """The paths of the changes that the first guard each change asks (see
    ``Judge.hit``) surely finds no pattern for, as files: found at once."""
    made_by = {agent is None for agent in set(map(judge.agent_of, changes))}
    guards = {id(guard): guard for by_person in made_by for guard in judge.guards_for(by_person)[:1]}
    paths = [change.path for change in changes] + [change.source for change in changes if change.source]
    quiet: set[str] | None = None
    for guard in guards.values():
        found = guard.unguarded(paths)
        quiet = found if quiet is None else quiet & found
    return quiet or set()


LAND_ON_ITS_OWN = "land this on its own and have it reviewed (SKIP=memcheck-guard at the hook; the override label in a pull request). "


def loosened(path: str, changes: Sequence[tuple[str, Sequence[str]]], rule: Rule = GRD003) -> Problem:
    """The finding for a config file whose changes loosen the guard (GRD003) or turn
    the secret rules off (GRD005): ``changes`` are (where, what each does) in commit
    order, ``where`` as ``commit_label`` gives it."""
    commits = [w for w, _ in changes if w]
    what = list(dict.fromkeys(item for _, items in changes for item in items))
    at = ""
    if commits:
        shown_commits = ", ".join(commits[:_SHOWN_CHANGES])
        more = f" and {len(commits) - _SHOWN_CHANGES} more" if len(commits) > _SHOWN_CHANGES else ""
        at = f" in {shown_commits}{more}"
    does = "loosens the guard" if rule is GRD003 else "changes what the secret and hidden-text rules check"
    return rule.at(
        path,
        1,
        1,
        f"{LAND_ON_ITS_OWN}{does}{at}: {', '.join(what)}; a change is judged by the settings before it",
    )


class Listed(NamedTuple):
    """A guarded path of the tree, for ``--list``."""

    path: str
    pattern: str
    target: str | None = None  # a symlink guarded for what it points at: its target


def guarded_tree(
    paths: Iterable[str], judge: Judge, links: Mapping[str, str] | None = None, submodules: Iterable[str] = ()
) -> dict[str, list[Listed]]:
    """Category -> every guarded path, in category order, whoever would change it
    (``judge`` made with ``every_tier``). ``links``: the tracked symlinks' targets; a
    link is guarded by its own name, as a file and as a folder, or by what it points
    at. ``submodules``: their paths, judged as folders."""
    links, submodules = links or {}, frozenset(submodules)
    found: dict[str, list[Listed]] = {}
    for path in paths:
        if path in links:
            change = Change("", path, new_mode=SYMLINK_MODE, target=links[path])
        else:
            change = Change("", path, new_mode=GITLINK_MODE if path in submodules else "")
        touch = next(iter(_touches(change, judge)), None)
        if touch is not None:
            target = change.target if touch.rule is GRD002 else None
            found.setdefault(touch.hit.category, []).append(Listed(path, touch.hit.pattern, target))
    order = [*categories(), CONFIG_CATEGORY]
    return {name: sorted(found[name]) for name in order if name in found}
