"""The guard's engine: the change a request names (staged, a range, a push, the
whole tree, or paths named), judged by the settings that judge it.

``memcheck guard`` (hooks/guard.py) and the Action hand it what they were asked;
which commits a change is comes from ``history``, which settings judge it and what
a change to them loosens from ``trust``, paths named from ``named``, and the
findings from ``findings``.

With nothing staged under pre-commit outside ``git commit`` (``pre-commit run
--all-files``), every tracked file is judged, by the settings of the default
branch as last fetched (the strictest of every remote's, and of HEAD's), else of
HEAD; stderr says which.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

from memcheck import git, gitrefs
from memcheck.changes import SYMLINK_MODE, TRACKED, Change
from memcheck.checks.guard.guard_loosened import GRD003
from memcheck.checks.guard.secret_rules_off import GRD005
from memcheck.config import Config, ConfigError, default_config
from memcheck.engine.finish import drop_path_ignores
from memcheck.guard.findings import LAND_ON_ITS_OWN, Judge, commit_label, findings, net_label, symlink_blobs, touches_guarded
from memcheck.guard.history import History, commits_to_judge, default_branches, refuse_shallow_cuts, with_targets
from memcheck.guard.named import listed
from memcheck.guard.paths import describe, through_links
from memcheck.guard.policy import enabled_codes
from memcheck.guard.tiers import Authorship, Signature, authorship, parse_ident, parse_trailers, recogniser
from memcheck.guard.trust import (
    Settings,
    SettingsChange,
    Step,
    judged,
    loosened_beside,
    loosened_in,
    may_change_settings,
    settings_for,
    trusted,
)
from memcheck.problem import WARNING, Problem
from memcheck.safe_files import NotRegular, read_regular

NOTHING_STAGED = (
    "memcheck guard: nothing is staged, so every tracked file was judged, as `pre-commit run --all-files` asks, {judged}; "
    "the branch's commits were not (a file added and deleted again is not in the tree): "
    "run `memcheck guard --base <target branch>` for them (in CI, the pull request's base)"
)


def judge_change(
    config_file: str | None,
    cwd: Path,
    env: Mapping[str, str],
    base: str | None,
    head: str | None,
    settings_from: Sequence[str] = (),
    message_file: str | None = None,
) -> list[Problem]:
    """The findings for the change the request names (a range given as ``base``/``head``,
    a push or a range pre-commit names in ``env``, else the staged changes), judged by
    the settings of the commits it goes into; as a report shows them. ``message_file``:
    the message of the commit being made (see ``_commit_being_made``)."""
    located = git.locate(cwd)
    settings = settings_for(located.top, cwd, config_file)
    if message_file is not None:
        found = None
        message = _message(cwd, message_file)
    else:
        found, message = commits_to_judge(cwd, env, base, head, settings_from), None
    problems, config = _judge_staged(settings, cwd, env, located, message) if found is None else _judge_history(settings, cwd, found, env)
    return as_reported(problems, config)


def judge_named(config: Config, in_git: bool, names: Sequence[str], cwd: Path, env: Mapping[str, str]) -> list[Problem]:
    """The findings for paths named (relative to ``cwd``) by the working tree's
    ``config``, judged as a change made now would be: from an agent's shell (as
    ``env`` says), by every tier."""
    agent = recogniser(config.guard).of_shell(env, cwd if in_git else None)
    return judge_changes(listed(names, config.root, cwd, in_git), config, lambda change: agent)


def judge_changes(
    changes: Iterable[Change],
    config: Config,
    agent_of: Callable[[Change], Signature | None] | None = None,
    settings: Sequence[SettingsChange] = (),
) -> list[Problem]:
    """The findings for changes held in memory, by ``config`` (``agent_of``: which
    agent made a change, None for a person), as a report shows them. ``settings``:
    the changes among them to the settings, read (what GRD003 and GRD005 judge)."""
    problems = findings(changes, Judge(config.guard, agent_of, root=str(config.root)))
    if settings:  # (judging settings imports the secret rules, which paths mode never needs)
        problems += judged(settings, default_config(config.root))
    return as_reported(problems, config)


def judge_staged(
    changes: Sequence[Change],
    config: Config,
    agent: Signature | None = None,
    links: Mapping[str, str] | None = None,
    settings: Sequence[SettingsChange] = (),
) -> list[Problem]:
    """The findings for staged changes held in memory, as ``memcheck guard`` reports
    them at a commit once git has said what is staged: judged by HEAD's settings
    ``config``, the commit made by ``agent`` (None: a person), under the index's
    symlinks ``links`` (HEAD's and the staged ones, as git lists the index's);
    ``settings``, the staged change to the settings, read (GRD003, GRD005), judged as
    ``judge_changes`` judges them (``_judge_staged`` reads them from git and also asks
    whether the change loosens a gate, which a change held in memory cannot say). The
    paths' steps are ``_judge_staged``'s once git has answered: the tests' in-memory tier."""
    guard = Judge(config.guard, lambda change: agent, root=str(config.root))
    problems = staged_findings(changes, links or {}, guard)
    if settings:
        problems += judged(settings, default_config(config.root))
    return as_reported(as_committed(problems, agent), config)


def _judge_history(settings: Settings, where: Path, history: History, env: Mapping[str, str]) -> tuple[list[Problem], Config]:
    readers = [git.CommitReader(where, revs, through_refs) for revs, through_refs in history.logs]  # git starts...
    # ...while the settings are read, and the net change
    net = git.TreeDiff(where, *history.net) if history.net is not None else None
    beside = [git.TreeDiff(where, b, history.net[1]) for b in history.beside] if history.net is not None else []
    # the links as the range leaves them (HEAD's at a push): what it changes under a
    # folder one points at is judged at the path through it too
    linked = gitrefs.TreeLinks(where, history.net[1] if history.net is not None else "HEAD")
    config, guard = trusted(settings, where, dict(history.trusted), history.defaults, "fix them there first")
    changes = [change for reader in readers for change in reader.read(while_reading=guard.judge)]
    commits = [c for reader in readers for c in reader.commits.values()]
    if history.whole:
        refuse_shallow_cuts(where, commits)
    links, _ = linked.read(also=symlink_blobs(changes))  # the links' targets and the changes' at one git call
    guard.tree_links = links
    changes = with_targets(where, changes, linked.blobs)
    shas = [c.sha for c in commits]
    # A push from an agent's shell: the commits the remote lacks are the agent's,
    # whoever they name (git's sequencer makes commits no commit hook sees: a revert,
    # a rebase's resolved conflict).
    pusher = recogniser(config.guard).of_shell(env, where) if history.pushed else None
    guard.agent_of = _commit_agents(config, where, shas, None if pusher is None else pusher._replace(kind="push"))
    # A range is read without rename detection (see git._RANGE_OPTIONS): commits
    # whose additions or deletions are findings are read again with it, so a
    # finding says "renamed from notes.txt" rather than "added".
    renamed = {c.commit for c in [*changes, *through_links(changes, links)] if c.status in ("A", "D") and touches_guarded(c, guard)}
    if renamed:
        changes = with_targets(where, git.with_renames(where, changes, renamed), linked.blobs)
    changes += through_links(changes, links)
    steps = [Step(c.sha, c.parents, commit_label(c.sha, len(c.parents) > 1, c.ref)) for c in commits]
    problems = findings([*changes, *history.tagged], guard) + loosened_in(settings, where, steps)
    gated = _gates_touched(changes)  # the commits that touch memcheck's hooks or a workflow
    if gated:
        from memcheck.guard import gates

        problems += gates.loosened_in(where, [(step, gated[step.commit]) for step in steps if step.commit in gated])
    if net is not None:
        problems += _net_change(settings, where, net, beside, changes, guard, problems)
    if pusher is not None:
        problems = for_an_agent(problems)
    elif history.pushed and all(guard.agent_of(Change("", "", commit=sha)) is None for sha in shas):
        problems = at_a_persons_hook(problems)
    return problems, config


def _commit_agents(
    config: Config, where: Path, commits: Sequence[str], pusher: Signature | None = None
) -> Callable[[Change], Signature | None]:
    """Which agent made a change of a range, by its commit's author, committer and
    trailers, read from the commit objects (one ``git cat-file`` call; a range has
    far fewer commits than changed paths). A range's net change (what a merge brought
    from outside it) is an agent's when any commit of the range is. ``pusher``: the
    agent whose shell pushes, whose every change is then (a commit's own agent first)."""
    recognise = recogniser(config.guard)
    found = {sha: recognise.of_commit(authorship(raw)) for sha, raw in git.read_blobs(where, commits).items()}
    any_agent = next(filter(None, found.values()), pusher)

    def agent_of(change: Change) -> Signature | None:
        return any_agent if change.net else found.get(change.commit) or pusher

    return agent_of


def _net_change(
    settings: Settings,
    where: Path,
    net: git.TreeDiff,
    beside: Sequence[git.TreeDiff],
    changes: Sequence[Change],
    guard: Judge,
    found: Sequence[Problem],
) -> list[Problem]:
    """What a range (or a push) brings as a whole that none of its commits shows:
    a merge takes a file from its other parent as it is there, so a merge of an old
    commit of the base (outside the range) can restore a ``.env`` the base deleted
    since, or settings it tightened since, and git's combined diff shows neither
    (the merge's content equals that parent's); a merge of a branch the remote has
    brings that branch's files, whose commits are not judged again at a push.
    Judged as the net change from the merge base (for a push, from the remote's old
    value), as a pull request page shows it: a branch that is only behind its base
    changes nothing there, and merging the base in brings nothing. Without merges
    every path of it is one a commit touched, and is left out here. ``beside``:
    the head's differences from commits whose content it may take as it is (at a
    push, the remotes' default branches): only paths that differ from each count."""
    touched = {path for change in changes for path, _ in describe(change)}
    brought = [c for c in net.read() if not any(p in touched for p, _ in describe(c))]
    for other in beside:
        differs = {path for change in other.read() for path, _ in describe(change)}
        brought = [c for c in brought if any(p in differs for p, _ in describe(c))]
    parents = (net.old, *(other.old for other in beside))
    step = Step(net.new, parents, net_label(net.new))
    problems = findings(with_targets(where, brought), guard) + loosened_beside(settings, where, step, found)
    gated = _gates_touched(brought)  # memcheck's hooks or workflow as an old commit had them
    if gated:
        from memcheck.guard import gates

        problems += gates.loosened_in(where, [(step, set().union(*gated.values()))])
    return problems


_FIX_AT_HEAD = "commit the fix past this hook, SKIP=memcheck-guard git commit"


# Where `git commit -v` puts the diff below the message: nothing under it is the message.
_SCISSORS = "\n# ------------------------ >8 ------------------------\n"


def _message(cwd: Path, path: str) -> str:
    """The message of the commit being made, as git's prepare-commit-msg and
    commit-msg hooks are given it (a file), without the diff ``git commit -v`` adds."""
    # Read only when a regular file: a FIFO named here would otherwise hang the hook
    # (found by an outside attacker).
    try:
        text = read_regular(cwd / path).decode("utf-8", "replace")
    except NotRegular:
        raise ConfigError(f"--message-file {path}: not a regular file") from None
    except OSError as e:
        raise ConfigError(f"--message-file {path}: cannot read it ({e.strerror or e})") from None
    return ("\n" + text).partition(_SCISSORS)[0]


def _commit_being_made(where: Path, message: str) -> Authorship:
    """Who the commit being made names: its author and committer as git works them
    out now (the environment, then the config), and the trailers of its message."""
    author, committer = (parse_ident(git.identity(where, f"GIT_{who}_IDENT")) for who in ("AUTHOR", "COMMITTER"))
    return Authorship(author, committer, parse_trailers(message))


def _judge_staged(
    settings: Settings, where: Path, env: Mapping[str, str], located: git.Located, message: str | None = None
) -> tuple[list[Problem], Config]:
    """The staged changes, as the commit being made. ``message``: its message, at
    git's prepare-commit-msg and commit-msg hooks, which git runs for the commits its
    sequencer makes (a revert, a cherry-pick, a rebase's picks and resolved conflicts)
    and for ``git commit --no-verify`` too, where no pre-commit hook ran: the
    commit is judged there when it is an agent's (by its shell, or by what it names:
    a person's commit was judged at the pre-commit hook)."""
    head = located.head
    # Under pre-commit outside `git commit` (which sets GIT_INDEX_FILE for its hooks),
    # nothing staged is `pre-commit run --all-files`, as CI and pre-commit.ci run it,
    # where a "Passed" for an empty diff would read as a verdict on the branch.
    whole_tree = env.get("PRE_COMMIT") == "1" and "GIT_INDEX_FILE" not in env and message is None
    diff = git.StagedDiff(where)
    linked = gitrefs.TreeLinks(where, None)  # the index's links
    with contextlib.closing(diff), contextlib.closing(linked):
        # HEAD's settings are read and the patterns compiled while git writes the
        # diff and the listing, unless the diff decides which settings judge.
        judging = None if whole_tree else trusted(settings, where, {head: "HEAD"} if head else {}, False, _FIX_AT_HEAD)
        changes = diff.read()
        if not changes and whole_tree:
            return _judge_tree(settings, where, head, linked)
        config, guard = judging or trusted(settings, where, {head: "HEAD"} if head else {}, False, _FIX_AT_HEAD)
        recognise = recogniser(config.guard)
        agent = recognise.of_shell(env, where)  # the commit being made: from an agent's shell?
        if message is not None and agent is None:
            agent = recognise.of_commit(_commit_being_made(where, message))
            if agent is None:  # a person's commit: the pre-commit hook judged it
                return [], config
        guard.agent_of = lambda change: agent
        if not changes:
            return [], config
        links, _ = linked.read(also=symlink_blobs(changes))
        merging = git.merge_heads_in(located.merge_head) if head else []
        # The tree the commit will record, its settings read as HEAD's are: written
        # only when they can differ from HEAD's, or to conclude a merge.
        # (a gate may be a link to another file of the repository: the change to that file is the gate's)
        gated = _gates_touched([*changes, *through_links(changes, links)]).get("", set())  # memcheck's hooks or a workflow, staged
        tree = git.staged_tree(where) if merging or gated or may_change_settings(settings, changes, links) else None
        parents: tuple[str, ...] = (head,) if head else ()
        if merging and tree is not None:
            # Concluding a merge: judged by what it brings that no parent had, as a
            # merge commit in a range is, not blamed for the other branch's commits.
            parents = (*parents, *merging)
            changes = git.merged_changes(where, tree, parents)
        changes = with_targets(where, changes, linked.blobs)
        problems = staged_findings(changes, links, guard)
        if tree is not None:
            problems += loosened_in(settings, where, [Step(tree, parents, "")])
            if gated:
                from memcheck.guard import gates

                problems += gates.loosened_in(where, [(Step(tree, parents, ""), gated)])
        return as_committed(problems, agent), config


def staged_findings(changes: Sequence[Change], links: Mapping[str, str], guard: Judge) -> list[Problem]:
    """The findings for the paths the staged ``changes`` touch (each symlink's target
    read), and for those they touch through the index's symlinks ``links`` (path ->
    target: an edit under a folder a link names is an edit at the link's path too).
    Nothing here asks git: what git said is staged comes in as data."""
    guard.tree_links = links
    return findings([*changes, *through_links(changes, links)], guard)


def as_committed(problems: Sequence[Problem], agent: Signature | None) -> list[Problem]:
    """The findings of a commit being made as its maker reads them: an agent (``agent``,
    by its shell or what the commit names) is never told how to pass the guard, a
    person's first settings pass at their own hook (see ``at_a_persons_hook``)."""
    return for_an_agent(problems) if agent is not None else at_a_persons_hook(problems)


# Where the gates live (guard/gates.py's PRE_COMMIT and WORKFLOWS, held to them by a
# test): asked here first, so a change that touches neither, nearly every commit,
# never imports that module (half a millisecond of a commit hook's 67).
GATE_PREFIXES = (".pre-commit-config.yaml", ".github/workflows/")


def _gates_touched(changes: Sequence[Change]) -> dict[str, set[str]]:
    if not any(c.path.startswith(GATE_PREFIXES) or c.source.startswith(GATE_PREFIXES) for c in changes):
        return {}
    from memcheck.guard import gates

    return gates.touched(changes)


def _judge_tree(settings: Settings, where: Path, head: str | None, linked: gitrefs.TreeLinks) -> tuple[list[Problem], Config]:
    """Every tracked file, as the lint hooks judge the tree there, by the settings of
    the default branch (the strictest of every remote's, and of HEAD's): in CI the
    checkout is the pull request's own, whose settings must not judge it. Stderr
    says which settings judged and what was not judged (pre-commit shows it with
    --verbose or when the hook fails)."""
    branches = list(dict.fromkeys(default_branches(where).values()))
    names = {commit: name for name, commit in reversed(branches)}
    if head:
        names.setdefault(head, "HEAD")
    config, guard = trusted(settings, where, names, False, "fix them there first" if branches else _FIX_AT_HEAD)
    if branches:
        judged = (
            f"by the settings of {', '.join(f'{name} ({commit[:7]})' for name, commit in branches)}, and HEAD's where they are stricter"
        )
    else:
        judged = "by HEAD's settings: no remote-tracking copy of the default branch"
    sys.stderr.write(NOTHING_STAGED.format(judged=judged) + "\n")
    return findings(_tracked_tree(where, linked), guard), config


def _tracked_tree(where: Path, linked: gitrefs.TreeLinks) -> list[Change]:
    """Every tracked file as a change with no commit; a symlink with its target."""
    links, _ = linked.read()
    return [
        Change(TRACKED, p, new_mode=SYMLINK_MODE, target=links[p]) if p in links else Change(TRACKED, p) for p in git.tracked_files(where)
    ]


_REVIEWED = frozenset({GRD003.code, GRD005.code})
_FOR_AN_AGENT = "have a person review this and land it on its own. "


def for_an_agent(problems: Sequence[Problem]) -> list[Problem]:
    """A change made from an agent's shell (at its commit or push): the agent reads the
    findings, so a settings change is not told how to pass the guard (SKIP, the
    override label), only that a person must land it."""
    return [
        p._replace(message=_FOR_AN_AGENT + p.message.removeprefix(LAND_ON_ITS_OWN)) if p.message.startswith(LAND_ON_ITS_OWN) else p
        for p in problems
    ]


_REVIEWED_IN_CI = "a person's change passes at their own commit and push (the pull request fails until a maintainer reviews it and adds the override label). "


def at_a_persons_hook(problems: Sequence[Problem]) -> list[Problem]:
    """A person's change to the guard's settings (GRD003, GRD005: a team's first
    config, with its ``guard.allow`` and ``exclude``) at their own commit or push: a
    warning, as a person's lock-file bump passes there. The review happens where a
    change cannot decide its own policy: the pull request, judged by the base's
    settings (``--base``, the Action), where it fails until a maintainer adds the
    override label. Settings that cannot be read still fail: what they would let
    through is unknown. A change that removes or weakens memcheck's own hooks or its
    workflow step (guard/gates.py) is no adoption step and still fails, whoever makes it."""
    return [
        p._replace(severity=WARNING, message=_REVIEWED_IN_CI + p.message.removeprefix(LAND_ON_ITS_OWN))
        if p.code in _REVIEWED
        and p.message.startswith(LAND_ON_ITS_OWN)
        and not p.path.startswith(GATE_PREFIXES)  # (not settings that cannot be read)
        else p
        for p in problems
    ]


def as_reported(problems: Iterable[Problem], config: Config) -> list[Problem]:
    enabled = enabled_codes(config)
    return sorted(drop_path_ignores({p for p in problems if p.code in enabled}, config))
