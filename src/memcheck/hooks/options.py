"""From the command line's options to settings: the repository whose config applies,
the options check and fix share (``LintOptions``) on top of it, and what a check or fix
covers (``Scope``: the paths given, what the change touches, or the whole tree).

Imported when a command runs, never at start-up (see cli.py).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from memcheck import config
from memcheck.records import NamedTuple

if TYPE_CHECKING:
    from memcheck.config import Config
    from memcheck.engine.found import Since
    from memcheck.hooks.report import Display
    from memcheck.workspace.staged import StagedFiles


def _inside(path: str, root: Path) -> bool:
    """``path`` names ``root`` or something in it, as written or with links resolved
    (a link inside the repository may point out of it, and be checked as a link)."""
    return any(p == root or root in p.parents for p in (Path(os.path.abspath(path)), Path(path).resolve()))


def config_for(config_file: str | None, paths: Sequence[str] = ()) -> Config:
    """Settings of the repository the paths (or the working folder) are in."""
    if not paths:
        here = config.find_root(Path.cwd())
        _not_bare(here)
        return config.load(here, Path(config_file) if config_file else None)
    first, cwd = Path(paths[0]).resolve(), Path.cwd().resolve()
    # The repository the first path is in; else the one we are in (a path outside it
    # is an error below); else the working folder, if the path is in it; else the
    # path's own folder (`memcheck check ~/notes` from anywhere).
    root = config.repository_of(Path(paths[0])) or config.repository_of(cwd)  # as written: see repository_of
    if root is None:
        root = cwd if (first == cwd or cwd in first.parents) else (first if first.is_dir() else first.parent)
    outside = [p for p in paths if not _inside(p, root)]
    if outside:
        where = f"the repository at {root}" if (root / ".git").exists() else f"{root}, the folder being checked"
        raise config.ConfigError(f"{outside[0]} is outside {where}; check one repository at a time")
    _not_bare(root)
    return config.load(root, Path(config_file) if config_file else None)


def _exist(paths: Sequence[str]) -> None:
    """A path that does not exist is a usage error: a mistyped store must not pass as
    a clean one, nor be called "outside the repository". (Not for `context`, which
    answers for a file an agent is about to create.)"""
    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        raise config.ConfigError(f"{missing[0]}: no such file or folder")


def _not_bare(root: Path) -> None:
    """A bare repository (a remote's copy, no checkout) has no files to check: say so
    rather than "No problems found". Told by git's own layout, without running git."""
    if not (root / ".git").exists() and (root / "HEAD").is_file() and (root / "objects").is_dir() and (root / "refs").is_dir():
        raise config.ConfigError(f"{root} is a bare git repository: it has no work tree to check; run memcheck in a clone")


class LintOptions(NamedTuple):
    """The options check and fix share: which rules, what fails, where output goes."""

    select: tuple[str, ...]
    ignore: tuple[str, ...]
    fail_on: str | None
    baseline: str | None
    output_file: str | None
    changed: bool
    new_since: str | None = None  # report only what the change brings compared with this ref
    show_all: bool = False  # report every finding, older ones too
    quiet: bool = False  # the findings alone: no summary line, nothing on a clean run
    exit_zero: bool = False  # exit 0 whatever the findings (usage and config errors still exit 2)
    color: str = "auto"  # always, never, or auto: on a terminal, as NO_COLOR and FORCE_COLOR say
    no_cache: bool = False  # keep no findings between runs

    def display(self) -> Display:
        from memcheck.hooks.report import Display

        return Display(self.quiet, self.color)

    def verdict(self, code: int) -> int:
        """The exit code of a run that found what ``code`` says: 0 with --exit-zero."""
        return 0 if self.exit_zero and code == 1 else code


class Scope(NamedTuple):
    paths: list[str] | None  # None: the whole tree
    deleted: list[str]
    staged: StagedFiles | None = None  # judge what the commit holds, not the disk
    since: Since | None = None  # what the findings are compared with


def none_given(settings: Config, scope: Scope) -> bool:
    """The paths a run was given (or a change touches) are all files, and none could
    be an agent file (see workspace/candidates.py): there is nothing to check, and
    neither discovery, the agent data nor the rules need be imported. Never for a
    change that deletes a file (any guidance file or skill may have linked it)."""
    if not scope.paths or scope.deleted:
        return False
    from memcheck.workspace.candidates import none_among, relative_files

    files = relative_files(settings.root, scope.paths)
    return files is not None and none_among(files, settings.skills.roots, settings.root)


def resolve(config_file: str | None, paths: Sequence[str], options: LintOptions) -> tuple[Config, Scope]:
    """The settings and scope of a check or fix: the config with the command line's
    options on top, and what the run covers."""
    settings = _settings(config_file, paths, options)
    scope, touched = _scope(settings, paths, options.changed)
    if options.new_since is not None or touched is not None:
        scope = scope._replace(since=_since(settings.root, options, touched, config_file))
    return settings, scope


def _settings(config_file: str | None, paths: Sequence[str], options: LintOptions) -> Config:
    """The config with the command line's options on top; a path that does not exist
    is a usage error (a mistyped store must not pass as a clean one)."""
    _exist(paths)
    settings = on_top(config_for(config_file, paths), options)
    if settings.baseline and options.output_file and options.output_file != "-":
        if os.path.realpath(settings.root / settings.baseline) == os.path.realpath(options.output_file):
            raise config.ConfigError(f"--output-file {options.output_file} is the baseline; write the report to another file")
    return settings


def on_top(settings: Config, options: LintOptions) -> Config:
    """``settings`` with the command line's options on top (see config.with_options):
    the repository's, or those REF holds (see engine.since)."""
    settings = config.with_options(
        settings,
        select=config.selectors(options.select, "--select"),
        ignore=config.selectors(options.ignore, "--ignore"),
        fail_on=options.fail_on,
        baseline=os.path.abspath(options.baseline) if options.baseline else None,
    )
    return settings._replace(no_cache=True) if options.no_cache else settings


def _scope(settings: Config, paths: Sequence[str], changed: bool) -> tuple[Scope, list[str] | None]:
    """What a check or fix covers: the paths given, what the change touches, or all;
    and, for a change, the repository-relative paths it touches."""
    if not changed:
        return Scope(list(paths) or None, []), None
    if paths:
        raise config.ConfigError("--changed takes no PATHS: it judges what the change touches")
    from memcheck.workspace.staged import changed_paths, staged_view, with_links

    if not (settings.root / ".git").exists():
        raise config.ConfigError(f"--changed needs a git repository; {settings.root} is not one")
    try:
        touched = changed_paths(settings.root, os.environ)
    except LookupError as e:
        raise config.ConfigError(str(e)) from None
    staged = staged_view(settings.root, os.environ)
    if touched is None:
        return Scope(None, [], staged), None
    touched = with_links(settings.root, touched, staged, os.environ)
    # What the commit holds is there; what it does not (deleted, or `git rm --cached`
    # and still on disk) is gone. Judging a range of commits: what is on disk.
    if staged is not None:
        there = {p: staged.has_file(p) for p in touched}
    else:
        there = {p: os.path.lexists(settings.root / p) for p in touched}
    # Absolute, because a path is read relative to the working folder (a hook runs at
    # the root, a user anywhere) and git names them from the root.
    present = [str(settings.root / p) for p in touched if there[p]]
    gone = [str(settings.root / p) for p in touched if not there[p]]
    return Scope(present, gone, staged), touched


def _since(root: Path, options: LintOptions, touched: list[str] | None, config_file: str | None) -> Since | None:
    """What a check compares with: ``--new-since REF``, or, for ``--changed``, what the
    commit builds on (HEAD; the first of PRE_COMMIT_FROM_REF/TO_REF); None where
    there is nothing to compare with (a first commit: everything is new)."""
    from memcheck import gitrefs
    from memcheck.engine.found import Since

    ref = options.new_since
    if ref is not None:
        if not (root / ".git").exists():
            raise config.ConfigError(f"--new-since needs a git repository; {root} is not one")
        commit = gitrefs.commit_named(root, ref)
        if commit is None:
            raise config.ConfigError(f"--new-since: {_unknown(root, ref)}")
        tree = gitrefs.fork_point(root, commit)
    else:
        from_ref, to_ref = os.environ.get("PRE_COMMIT_FROM_REF", ""), os.environ.get("PRE_COMMIT_TO_REF", "")
        ref = from_ref if from_ref and to_ref else "HEAD"
        found = gitrefs.commit_named(root, ref)
        if found is None:
            return None
        commit = found
        tree = gitrefs.fork_point(root, commit, to_ref) if ref == from_ref else commit
    return Since(
        _named(ref),
        commit,
        tree,
        None if touched is None else tuple(touched),
        compare=not options.show_all,
        settings_file=config_file,
        options=functools.partial(on_top, options=options),
    )


def _unknown(root: Path, ref: str) -> str:
    """Why ``ref`` names no commit, as guard says it (git's own words are not one line)."""
    from memcheck import git

    try:
        git.resolve(root, ref)
    except config.ConfigError as e:
        return str(e)
    return f"{ref!r} names no commit"


def _named(ref: str) -> str:
    """A ref as messages name it: a commit's full name shortened."""
    return ref[:12] if len(ref) == 40 and all(c in "0123456789abcdef" for c in ref) else ref


def given_scope(config: Config, paths: Sequence[str] | None, changed: bool) -> str:
    """What a run was given, in the words of its summary line when it finds no agent
    file: the whole tree (no paths, or the repository's own folder), a change, or paths."""
    if paths is None or any(os.path.realpath(p) == os.path.realpath(config.root) for p in paths):
        return "tree"
    return "change" if changed else "paths"
