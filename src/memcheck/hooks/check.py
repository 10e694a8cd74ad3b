"""`memcheck check`: run every enabled rule family over what the paths belong to."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from memcheck.config import ConfigError
from memcheck.hooks.options import given_scope, none_given, resolve
from memcheck.hooks.report import DEFAULT_DISPLAY, Display, destination, report, workspace
from memcheck.hooks.verbose import Timing, config_note, show
from memcheck.output import Checked, Older, resolve_format
from memcheck.problem import failing, shown

if TYPE_CHECKING:
    from memcheck.config import Config
    from memcheck.engine.found import Found, Since
    from memcheck.git import FileListing
    from memcheck.hooks.options import LintOptions
    from memcheck.problem import Problem
    from memcheck.workspace.source import Source


def run(
    paths: Sequence[str],
    fmt: str,
    config_file: str | None,
    options: LintOptions,
    *,
    statistics: bool = False,
    write_baseline: str | None = None,
    user: bool = False,
    verbose: bool = False,
    fix: bool = False,
) -> int:
    """The command as the command line gives it: settings and scope from the options,
    then ``check`` (with ``fix``: ``memcheck fix``)."""
    from memcheck import git

    timing = Timing() if verbose else None  # from here: reading the config is part of discovery
    if fix:
        given = [
            name for name, on in (("--statistics", statistics), ("--write-baseline", write_baseline is not None), ("--user", user)) if on
        ]
        if given:
            raise ConfigError(f"--fix does not combine with {given[0]}; run `memcheck check {given[0]}` on its own")
        from memcheck.hooks import fix as fixer

        return fixer.run(paths, fmt, config_file, options, timing=timing)
    if statistics and fmt not in ("text", "json", "auto"):
        raise ConfigError("--statistics prints text or json, not " + fmt)
    if write_baseline and options.output_file and os.path.realpath(write_baseline) == os.path.realpath(options.output_file):
        raise ConfigError(f"--output-file {options.output_file} is the file --write-baseline writes; write the report to another file")
    settings, scope = resolve(config_file, paths, options)
    if write_baseline is not None:
        settings = settings._replace(baseline=None)  # record everything there is now
        scope = scope._replace(since=None)
    folders = None
    # No path could be an agent file (see workspace/candidates.py): nothing is read,
    # and neither discovery, the agent data nor the rules are imported.
    nothing = timing is None and none_given(settings, scope)
    # `check .` is the whole tree (hook_folders would say so too, after reading the agent data).
    whole = scope.paths is None or (bool(scope.paths) and all(os.path.realpath(p) == os.path.realpath(settings.root) for p in scope.paths))
    if scope.paths and not scope.deleted and not nothing and not whole:  # for a hook run on memory files, only their folders are listed
        from memcheck.workspace.selection import hook_folders

        folders = hook_folders(settings, scope.paths)
    source: Source | None = None
    if not nothing:
        staged = scope.staged
        listing = git.FileListing(
            settings.root, folders, cached_only=staged is not None, indexed=None if staged is None else staged.files
        )  # git lists files while the checks are imported
        # (A tree none of whose files could be one is told from git's listing; outside
        # git, walking the folder is left to discovery.)
        nothing = whole and not scope.deleted and timing is None and _none_listed(settings, listing)
    if not nothing:
        from memcheck.workspace.disk import DiskSource, StagedSource

        source = DiskSource(settings.root, listing=listing) if scope.staged is None else StagedSource(scope.staged, listing)
    since = scope.since if scope.since is None or folders is None else scope.since._replace(folders=tuple(folders))
    code = check(
        settings,
        scope.paths,
        fmt,
        user,
        source,
        deleted=scope.deleted,
        statistics=statistics,
        output_file=options.output_file,
        write_baseline=write_baseline,
        timing=timing,
        since=since,
        display=options.display(),
        changed=options.changed,
        nothing=nothing,
    )
    return options.verdict(code)


def _collect_tree(
    config: Config,
    paths: Sequence[str] | None,
    source: Source | None,
    deleted: Sequence[str],
    since: Since | None,
    scope: str,
    timing: Timing | None,
) -> tuple[Found, list[str]]:
    """The findings, and with ``timing`` (``-v``) the lines -v prints. A function of
    its own: the workspace, and every document it holds, is freed on return, while
    check's collector is still off."""
    from memcheck.engine.collect import find
    from memcheck.engine.finish import finish_counted
    from memcheck.engine.found import Found
    from memcheck.engine.since import collect_since
    from memcheck.engine.targets import looked_at
    from memcheck.workspace.discover import Workspace

    ws = Workspace(config, source)
    if since is not None:
        found = collect_since(config, ws.source, since, paths, deleted)
        if timing is not None:
            timing.lap("config, discovery and checks")
    else:
        from memcheck.engine.cache import discovered, start
        from memcheck.engine.collect import EarlyStart

        start(ws)  # before discovery: what finding the parts reads, each part depends on
        # A whole tree's checking processes start once its stores are found (see EarlyStart).
        early = EarlyStart(ws) if paths is None and not deleted else None
        try:
            targets = discovered(ws, paths, deleted, None if early is None else early.stores_found)
            if timing is not None:
                timing.lap("config and discovery")
            finished = finish_counted(config, find(ws, targets, last=True, early=early), whole_tree=scope == "tree" and not deleted)
            problems = finished.problems  # (the workspace is freed on return)
        finally:
            if early is not None:
                early.close()
        if timing is not None:
            timing.lap("checks")
        indexes = [s.index for s in targets.stores if s.has_index]
        found = Found(
            problems,
            0,
            bool(failing(problems, config.fail_on)),
            indexes,
            looked_at(ws, targets, scope)._replace(
                accepted=finished.accepted, examples=tuple(finished.notes), stale=finished.stale, baseline=str(config.baseline or "")
            ),
        )
    if timing is None:
        return found, []
    from memcheck.hooks import verbose as notes

    return found, notes.notes(ws, paths, deleted)


def collect_user(config: Config) -> tuple[list[Problem], Checked]:
    """Findings in the user-level locations (``~/.config/amp/AGENTS.md``,
    ``~/.agh/memory``, ``~/.claude/skills``, ...), with ``~/`` paths, and what was
    looked at there (a repository with no agent file has checked the user's files all
    the same: not "nothing to check")."""
    from memcheck.engine.collect import collect
    from memcheck.engine.targets import looked_at, targets_for
    from memcheck.workspace.discover import USER_PREFIX, user_workspace

    ws = user_workspace(config)
    show(ws.cut_short)
    targets = targets_for(ws, None)
    return [p._replace(path=USER_PREFIX + p.path) for p in collect(ws, targets)], looked_at(ws, targets, "tree")


def check(
    config: Config,
    paths: Sequence[str] | None,
    fmt: str = "text",
    user: bool = False,
    source: Source | None = None,
    *,
    deleted: Sequence[str] = (),
    statistics: bool = False,
    output_file: str | None = None,
    write_baseline: str | None = None,
    timing: Timing | None = None,
    since: Since | None = None,
    display: Display = DEFAULT_DISPLAY,
    changed: bool = False,
    nothing: bool = False,
) -> int:
    """Check, report and say whether the run fails (exit 1) under ``fail-on``.

    ``paths`` None: the whole tree; an empty list (a change that touches nothing,
    see ``staged.changed_paths``): nothing. ``since``: report only what the change
    brings (see engine.since). ``changed``: the paths are what a change touches
    (said so when none is an agent file). ``timing`` (``-v``): say on standard
    error what was read, and how long each step took. ``nothing``: no path of the
    run could be an agent file (see run): none is looked for."""
    from memcheck.engine.finish import finish
    from memcheck.engine.found import Found

    scope = given_scope(config, paths, changed)
    found = Found([], 0, False, [], Checked(0, 0, 0, 0, scope))
    if (paths is None or paths or deleted) and not nothing:
        from memcheck.engine.cache import warm
        from memcheck.engine.collect import family_checks, no_cycle_collection

        # Imported while git lists the files (see run), rather than after: the checks. Not
        # where a cache is warm: its parts may all be kept, and then none is imported
        # (engine/collect.kept_run). PyYAML is imported where it is needed (see
        # collect.find): a warm run whose parts are all kept never imports it (on bench/'s
        # M tree with nothing changed, it was a seventh of the run).
        if not warm(config):
            family_checks()
        # The collector is back on only once the run's documents are freed: turned on
        # while they live (as at the end of ``collect.find``), its first pass walks every one
        # of them (a fiftieth of a check on bench/'s trees), only to find them alive.
        with no_cycle_collection():
            found, said = _collect_tree(config, paths, source, deleted, since, scope, timing)
        show(said)
    elif timing is not None:
        show(config_note(config))
    elif nothing:
        # No finding, but what a baseline that cannot be read brings, as when the checks run.
        found = found._replace(problems=finish(config, set()))
    problems = found.problems
    if user:
        mine, at_home = collect_user(config)
        problems = sorted([*problems, *mine])
        found = found._replace(checked=_together(found.checked, at_home))
    if write_baseline is not None:
        from memcheck import baseline
        from memcheck.engine.signals import stopped_by_signals

        with stopped_by_signals():  # SIGTERM ends the write through its cleanup: no temporary file is left
            kept, secrets_left = baseline.write(Path(write_baseline), problems, workspace(config.root))
        note = (
            f"; {secrets_left} secret finding{'s' * (secrets_left != 1)} left out: a secret is removed and rotated, never accepted"
            if secrets_left
            else ""
        )
        print(f"memcheck: wrote {kept} finding{'s' * (kept != 1)} to {shown(write_baseline)}{note}", file=sys.stderr)
        return 0
    older = None if since is None or not since.compare else Older(since.ref, found.older, config.baseline)
    checked = found.checked
    if changed and since is None and paths is None and not config.baseline and checked is not None and failing(problems, config.fail_on):
        # `pre-commit run --all-files` (nothing staged: the whole tree) on day one
        checked = checked._replace(adopt=True)
    indexes = cap_usage(config, source, found.indexes) if resolve_format(fmt) in ("json", "markdown") else None
    with destination(output_file, config.root) as out:
        report(
            problems,
            fmt,
            out,
            statistics=statistics,
            older=older,
            indexes=indexes,
            fail_on=config.fail_on,
            display=display,
            checked=checked,
        )
    if timing is not None:
        timing.lap("output")
        show(timing.lines())
    return 1 if found.fails or failing(problems, config.fail_on) else 0


def _together(repo: Checked | None, home: Checked) -> Checked:
    """What the run looked at in the repository and in the user's home, counted together."""
    if repo is None:
        return home
    return repo._replace(
        guidance=repo.guidance + home.guidance,
        stores=repo.stores + home.stores,
        memories=repo.memories + home.memories,
        skills=repo.skills + home.skills,
        others=repo.others + home.others,
    )


def _none_listed(config: Config, listing: FileListing) -> bool:
    """git lists the tree's files, and none of them could be an agent file. Where a
    tracked file could be one, the walk for untracked files is not waited for: it
    runs on while the checks are imported (on bench/'s M tree 35 ms of wall time,
    which the run used to wait here)."""
    from memcheck.workspace.candidates import may_be_agent_file, none_among

    if any(True for _ in config.skills.roots) or listing.any_first(lambda path: may_be_agent_file(path, config.root)):
        return False
    files = listing.files()
    return files is not None and none_among(files, config.skills.roots, config.root)


def cap_usage(config: Config, source: Source | None, indexes: Sequence[str]) -> list[dict[str, object]]:
    """Each index's lines and bytes against its caps, for the JSON and Markdown reports
    (the Action's job summary shows them): read again, from the source the check read."""
    if not indexes:
        return []
    from memcheck.index.caps import cap_usage as usage
    from memcheck.workspace.disk import DiskSource

    reader = source if source is not None else DiskSource(config.root, files=[])
    found: list[dict[str, object]] = []
    for index in indexes:
        doc = reader.read(index)
        if doc.error is None:
            lines, size = usage(doc)
            found.append(
                {"path": index, "lines": lines, "bytes": size, "max_lines": config.index.max_lines, "max_bytes": config.index.max_bytes}
            )
    return found
