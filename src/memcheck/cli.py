"""The command line: parse, then hand over to a run() that returns the exit code.

Only click is imported at start-up; each command imports what it needs when it
runs, so `memcheck --version` loads neither yaml, pathspec nor git.
"""
from __future__ import annotations

import functools
import os
import sys
from typing import Any, Callable, NamedTuple, NoReturn, Sequence

import click

from memcheck import __version__

FORMATS = ("text", "json", "github", "sarif", "auto")
FAIL_ON = ("error", "warning", "never")  # as memcheck.problem.FAIL_ON, without importing it at start-up


def _inside(path: str, root: Any) -> bool:
    """``path`` names ``root`` or something in it, as written or with links resolved
    (a link inside the repository may point out of it, and be checked as a link)."""
    from pathlib import Path

    return any(p == root or root in p.parents for p in (Path(os.path.abspath(path)), Path(path).resolve()))


def _config(config_file: str | None, paths: Sequence[str] = ()) -> Any:
    """Settings of the repository the paths (or the working folder) are in."""
    from pathlib import Path  # not at the top: pathlib costs `--version` a sixth of its start-up

    from memcheck import config

    if not paths:
        here = config.find_root(Path.cwd())
        _not_bare(here)
        return config.load(here, Path(config_file) if config_file else None)
    first, cwd = Path(paths[0]).resolve(), Path.cwd().resolve()
    # The repository the first path is in; else the one we are in (a path outside it
    # is an error below); else the working folder, if the path is in it; else the
    # path's own folder (`memcheck check ~/notes` from anywhere).
    root = config.repository_of(first) or config.repository_of(cwd)
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
        raise _usage(f"{missing[0]}: no such file or folder")


def _not_bare(root: Any) -> None:
    """A bare repository (a remote's copy, no checkout) has no files to check: say so
    rather than "No problems found". Told by git's own layout, without running git."""
    if not (root / ".git").exists() and (root / "HEAD").is_file() and (root / "objects").is_dir() and (root / "refs").is_dir():
        from memcheck.config import ConfigError

        raise ConfigError(f"{root} is a bare git repository: it has no work tree to check; run memcheck in a clone")


def _run(fn: Callable[[], int]) -> None:
    """Run a command: configuration errors and internal errors are one line, exit 2."""
    from memcheck.config import ConfigError

    # The same tree prints the same bytes under any locale: UTF-8 always, and file
    # names that are not UTF-8 shown with backslash escapes instead of failing.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8", errors="backslashreplace")
    try:
        code = fn()
    except BrokenPipeError:  # `memcheck check | head`: the reader left; not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        code = 1
    except ConfigError as e:
        click.echo(f"memcheck: error: {e}", err=True)
        code = 2
    except KeyboardInterrupt:
        code = 130
    except Exception as e:  # an internal error still gets one line, never a traceback
        click.echo(f"memcheck: internal error: {type(e).__name__}: {e}", err=True)
        code = 2
    sys.stdout.flush()
    raise SystemExit(code)


config_option = click.option(
    "--config", "config_file", type=click.Path(dir_okay=False), help="Config file (default: .memcheck.yaml or pyproject.toml at the repository root)."
)


def format_option(formats: Sequence[str] = FORMATS) -> Callable[[Any], Any]:
    return click.option(
        "--format", "fmt", type=click.Choice(list(formats)), default="text", show_default=True, help="Output format; auto picks github under GitHub Actions."
    )


class LintOptions(NamedTuple):
    """The options check and fix share: which rules, what fails, where output goes."""

    select: tuple[str, ...]
    ignore: tuple[str, ...]
    fail_on: str | None
    baseline: str | None
    output_file: str | None
    changed: bool


def lint_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Add the LintOptions to a command, handed to it as one ``options`` argument."""

    @functools.wraps(fn)
    def command(*args: Any, select: tuple[str, ...], ignore: tuple[str, ...], fail_on: str | None, baseline: str | None, output_file: str | None, changed: bool, **kwargs: Any) -> Any:
        return fn(*args, options=LintOptions(select, ignore, fail_on, baseline, output_file, changed), **kwargs)

    for option in reversed(
        (
            click.option("--select", multiple=True, metavar="CODES", help="Only these rule codes or prefixes (comma-separated, repeatable); replaces the config's select and ignore."),
            click.option("--ignore", multiple=True, metavar="CODES", help="Rule codes or prefixes not to report (comma-separated, repeatable), besides the config's."),
            click.option("--fail-on", type=click.Choice(FAIL_ON), help="Exit 1 on findings of this severity or worse (default: the config's fail-on, else error)."),
            click.option("--baseline", metavar="FILE", help="Report only findings not recorded in FILE (see --write-baseline); default: the config's baseline."),
            click.option("--output-file", "-o", metavar="FILE", help="Write the report to FILE instead of standard output."),
            click.option(
                "--changed",
                is_flag=True,
                help="What the change touches, deletions and renames included: the staged change, or PRE_COMMIT_FROM_REF...PRE_COMMIT_TO_REF;"
                " with nothing staged outside `git commit`, the whole tree. The pre-commit hooks use it.",
            ),
        )
    ):
        command = option(command)
    return command


class Scope(NamedTuple):
    paths: list[str] | None  # None: the whole tree
    deleted: list[str]
    staged: Any = None  # staged.StagedFiles: judge what the commit holds, not the disk


def _scope(settings: Any, paths: Sequence[str], changed: bool) -> Scope:
    """What a check or fix covers: the paths given, what the change touches, or all."""
    if not changed:
        return Scope(list(paths) or None, [])
    if paths:
        raise _usage("--changed takes no PATHS: it judges what the change touches")
    from memcheck.workspace.staged import changed_paths, staged_view

    if not (settings.root / ".git").exists():
        raise _usage(f"--changed needs a git repository; {settings.root} is not one")
    try:
        touched = changed_paths(settings.root, os.environ)
    except LookupError as e:
        raise _usage(str(e)) from None
    staged = staged_view(settings.root, os.environ)
    if touched is None:
        return Scope(None, [], staged)
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
    return Scope(present, gone, staged)


def _usage(message: str) -> Exception:
    from memcheck.config import ConfigError

    return ConfigError(message)


def _settings(config_file: str | None, paths: Sequence[str], options: LintOptions) -> Any:
    """The config with the command line's options on top; a path that does not exist
    is a usage error (a mistyped store must not pass as a clean one)."""
    from memcheck import config

    _exist(paths)
    settings = _config(config_file, paths)
    settings = config.with_options(
        settings,
        select=config.selectors(options.select, "--select"),
        ignore=config.selectors(options.ignore, "--ignore"),
        fail_on=options.fail_on,
        baseline=os.path.abspath(options.baseline) if options.baseline else None,
    )
    if settings.baseline and options.output_file and options.output_file != "-":
        if os.path.realpath(settings.root / settings.baseline) == os.path.realpath(options.output_file):
            raise config.ConfigError(f"--output-file {options.output_file} is the baseline; write the report to another file")
    return settings


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="memcheck", message="%(prog)s %(version)s")
def cli() -> None:
    """Lint, rebuild and guard AI-agent memory, guidance and skill files."""


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@format_option()
@config_option
@lint_options
@click.option("--statistics", is_flag=True, help="Count the findings per rule code instead of listing them (text or json).")
@click.option("--write-baseline", metavar="FILE", help="Record the current findings in FILE (sorted JSON) and exit 0; --baseline FILE then reports only new ones.")
@click.option("--user", is_flag=True, help="Also check the user-level files: ~/.config/amp/AGENTS.md, ~/.claude/CLAUDE.md, ~/.agh/memory, ~/.nano_claude/memory, ~/.claude/skills, ...")
def check(paths: tuple[str, ...], fmt: str, config_file: str | None, options: LintOptions, statistics: bool, write_baseline: str | None, user: bool) -> None:
    """Report problems in memory stores, indexes, guidance files and skills.

    With PATHS (as pre-commit passes them), check what those files belong to: a
    changed memory file brings in its whole store.

    Exit status: 0 when nothing fails, 1 when a finding fails (by default an error;
    see --fail-on), 2 for a usage or configuration error.
    """
    def run() -> int:
        from memcheck import git

        if statistics and fmt not in ("text", "json", "auto"):
            raise _usage("--statistics prints text or json, not " + fmt)
        if write_baseline and options.output_file and os.path.realpath(write_baseline) == os.path.realpath(options.output_file):
            raise _usage(f"--output-file {options.output_file} is the file --write-baseline writes; write the report to another file")
        settings = _settings(config_file, paths, options)
        if write_baseline is not None:
            from dataclasses import replace

            settings = replace(settings, baseline=None)  # record everything there is now
        scope = _scope(settings, paths, options.changed)
        folders = None
        if scope.paths and not scope.deleted:  # for a hook run on memory files, only their folders are listed
            from memcheck.workspace.discover import hook_folders

            folders = hook_folders(settings, scope.paths)
        listing = git.FileListing(settings.root, folders, cached_only=scope.staged is not None)  # git lists files while the checks are imported
        from memcheck.workspace.disk import DiskSource, StagedSource

        source = DiskSource(settings.root, listing=listing) if scope.staged is None else StagedSource(scope.staged, listing)
        from memcheck.hooks import check as command

        return command.run(
            settings,
            scope.paths,
            fmt,
            user,
            source,
            deleted=scope.deleted,
            statistics=statistics,
            output_file=options.output_file,
            write_baseline=write_baseline,
        )

    _run(run)


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@format_option()
@config_option
@lint_options
@click.option("--diff", is_flag=True, help="Print a unified diff of what fix would write, and write nothing; exit 1 when there is something to fix.")
@click.option("--exit-non-zero-on-fix", is_flag=True, help="Exit 1 when fix changed a file, even if nothing is left to report.")
def fix(paths: tuple[str, ...], fmt: str, config_file: str | None, options: LintOptions, diff: bool, exit_non_zero_on_fix: bool) -> None:
    """Rebuild MEMORY.md indexes, then report what is left.

    Exit status: 0 when nothing left fails, 1 when findings it cannot fix are left
    (see --fail-on) or, with --exit-non-zero-on-fix, when it changed a file; with
    --diff, 1 when there is something to fix; 2 for a usage or configuration error.
    """
    def run() -> int:
        from memcheck.hooks import fix as fixer

        settings = _settings(config_file, paths, options)
        scope = _scope(settings, paths, options.changed)
        return fixer.run(settings, scope.paths, fmt, exit_non_zero_on_fix, deleted=scope.deleted, diff=diff, output_file=options.output_file, staged=scope.staged)

    _run(run)


@cli.command()
@click.argument("store", type=click.Path())
@click.option("--explain", is_flag=True, help="Say which mode and style were chosen, and why.")
@config_option
def index(store: str, explain: bool, config_file: str | None) -> None:
    """Print the MEMORY.md that `fix` would write for STORE, without writing it."""
    from memcheck.hooks import index as command

    def run() -> int:
        # A store that does not exist is said so, with the stores there are (see hooks/index.py).
        settings = _config(config_file, (store,) if os.path.lexists(store) else ())
        return command.run(settings, store, explain)

    _run(run)


AGENT_NAMES = ("claude-code", "codex", "amp", "cursor", "copilot", "gemini")  # memcheck.agents.ALL, without importing it


@cli.command()
@click.argument("path", type=click.Path())
@click.option("--agent", type=click.Choice(AGENT_NAMES), help="Only this agent (default: one section per agent in the config's agents:).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@config_option
def context(path: str, agent: str | None, fmt: str, config_file: str | None) -> None:
    """Show what each agent working on PATH loads, and what it costs.

    Per agent: its user-level file, the guidance files it reads from the repository
    root down to PATH (and the rules or path instructions that apply to PATH), the
    @-imports it follows, its limits applied (Codex's 32 KiB project budget, import
    depth), then the MEMORY.md indexes loaded at start-up with their caps, the
    skills, and the approximate tokens against context.max-tokens. Exits 1 when an
    agent is over that budget.
    """
    from memcheck.hooks import context as ctx

    _run(lambda: ctx.run(_config(config_file, (path,)), path, fmt, agent))


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--base", metavar="REF", help="Judge every commit of --head that REF lacks (a pull request's range), by the settings of REF.")
@click.option("--head", metavar="REF", help="Last commit of the range (default: HEAD); needs --base.")
@click.option("--paths-from", metavar="FILE", help="Read paths to judge from FILE ('-': standard input), newline- or NUL-separated.")
@click.option("--list", "list_only", is_flag=True, help="Show what in the tree is guarded today, by category, and exit 0.")
@format_option()
@config_option
def guard(paths: tuple[str, ...], base: str | None, head: str | None, paths_from: str | None, list_only: bool, fmt: str, config_file: str | None) -> None:
    """Fail when a change touches a guarded path (.env, keys, lock files, ...).

    Judges the staged changes by default (the pre-commit hook); with --base/--head,
    every commit of head that base lacks; at pre-push (pre-commit's
    PRE_COMMIT_REMOTE_NAME), every commit the remote lacks; with PATHS or
    --paths-from, those paths. A change is judged by the guard settings of the
    commit it goes into (HEAD, --base, the remote's branch and default branch), and a change
    that loosens them is a finding of its own.
    """
    from memcheck.hooks import guard as guarder

    request = guarder.Request(paths, paths_from, base, head)
    # guard reads its settings itself: from the commit that judges the change, never
    # from the working tree the change is in (see hooks/guard.py)
    _run(lambda: guarder.run(config_file, request, fmt, list_only))


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
def rules(fmt: str) -> None:
    """List every rule: code, severity, fixable, summary."""
    from memcheck.hooks import rules as command

    _run(lambda: command.list_rules(fmt))


@cli.command()
@click.argument("code")
def rule(code: str) -> None:
    """Explain one rule: what it does, why, an example, and how to fix it."""
    from memcheck.hooks import rules as command

    _run(lambda: command.show_rule(code))


def main(argv: Sequence[str] | None = None) -> int:
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="memcheck", standalone_mode=True)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    return 0


def entry() -> NoReturn:
    """The `memcheck` command (and `python -m memcheck`): main(), then exit at once.

    Tearing the interpreter down (every module, PyYAML and click included) costs a
    hook run a sixth of its time, and memcheck has nothing left to clean up by then:
    files are closed, child processes waited for. So the output is flushed and the
    process ends without it, as mypy does. (Tools that rely on atexit, such as
    coverage in a subprocess, see nothing of these runs; main() is unaffected.)
    """
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # the reader left (`memcheck check | head`): nothing more to say
        pass
    os._exit(code)
