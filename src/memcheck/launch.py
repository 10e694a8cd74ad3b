"""Running a command without click, for the command lines the pre-commit hooks and
most people type: ``check``, ``fix`` and ``guard`` with nothing after them but
flags (``memcheck check --changed``, ``memcheck fix --changed
--exit-non-zero-on-fix``, ``memcheck guard``).

Importing click and building memcheck's commands with it costs about 35 ms of a
50 ms ``memcheck guard`` that finds nothing staged, on every commit, for each hook;
the parse of such a line is a lookup. ``parsed`` reads a line of this shape into the
same parameters click would give the command (a test holds every flag, alone and
together, to click's own parse); any other line (an option with a value, a path,
``--help``, a typo) goes to click (cli.py), which reads and reports it. Both then run
the same functions below: ``check``, ``fix`` and ``guard`` do what the commands do.
"""

from __future__ import annotations

import errno
import os
import sys
from typing import TYPE_CHECKING, Callable, Mapping, NoReturn, Sequence

if TYPE_CHECKING:
    from memcheck.hooks.options import LintOptions


# The exit status when the reader of the output left before all of it was written
# (`memcheck check | head`): as Python's own convention has it, 1: the report was not
# delivered. Whether a reader that leaves early is noticed at all depends on whether
# the report still fitted in the pipe's buffer when it left, as for any program.
READER_LEFT = 1


def _reader_left() -> int:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return READER_LEFT


def run(fn: Callable[[], int]) -> NoReturn:
    """Run a command: configuration errors and internal errors are one line, exit 2.

    One line whatever they quote: a config value or a path with a line break in it
    is shown escaped (problem.escaped), so it cannot end the line and start a GitHub
    workflow command (`::add-mask::`, `::error::`) or a terminal sequence of its own.
    """
    from memcheck.config import ConfigError
    from memcheck.problem import escaped

    # The same tree prints the same bytes under any locale: UTF-8 always, and file
    # names that are not UTF-8 shown with backslash escapes instead of failing.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8", errors="backslashreplace")
    try:
        code = fn()
    except BrokenPipeError:  # `memcheck check | head`: the reader left; not an error of ours
        code = _reader_left()
    except ConfigError as e:
        _error(f"memcheck: error: {escaped(str(e))}")
        code = 2
    except KeyboardInterrupt:
        code = 130
    except Exception as e:  # an internal error still gets one line, never a traceback
        from memcheck.text.patterns import TooManyPatterns  # not at start-up: only on this path

        _error(f"memcheck: {'error' if isinstance(e, TooManyPatterns) else 'internal error: ' + type(e).__name__}: {escaped(str(e))}")
        code = 2
    if not sys.stdout.closed:  # (the language server's client closes it when it leaves)
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            code = _reader_left()
    raise SystemExit(code)


def _error(line: str) -> None:
    # As click.echo(line, err=True) writes it: the stream is UTF-8 by now (see run),
    # and escaped() leaves no control character for click to strip.
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def lint_options(params: dict[str, object]) -> LintOptions:
    """The options check and fix share, taken out of their parameters as click names
    them (``LintOptions``' fields are those names)."""
    from memcheck.hooks.options import LintOptions

    return LintOptions._make([params.pop(name) for name in LintOptions._fields])


def check(
    paths: tuple[str, ...],
    fmt: str,
    config_file: str | None,
    options: LintOptions,
    statistics: bool,
    write_baseline: str | None,
    user: bool,
    verbose: bool,
    then_fix: bool,
) -> NoReturn:
    from memcheck.hooks import check as command

    run(
        lambda: command.run(
            paths, fmt, config_file, options, statistics=statistics, write_baseline=write_baseline, user=user, verbose=verbose, fix=then_fix
        )
    )


def fix(
    paths: tuple[str, ...], fmt: str, config_file: str | None, options: LintOptions, diff: bool, exit_non_zero_on_fix: bool, verbose: bool
) -> NoReturn:
    from memcheck.hooks import fix as command

    run(lambda: command.run(paths, fmt, config_file, options, diff=diff, exit_non_zero_on_fix=exit_non_zero_on_fix, verbose=verbose))


def guard(
    paths: tuple[str, ...],
    base: str | None,
    head: str | None,
    paths_from: str | None,
    list_only: bool,
    list_agents: bool,
    fmt: str,
    config_file: str | None,
    settings_from: tuple[str, ...] = (),
    allow_label: str | None = None,
    output_file: str | None = None,
    quiet: bool = False,
    exit_zero: bool = False,
    color: str = "auto",
    message_file: str | None = None,
    override_label: str | None = None,
    event: str | None = None,
) -> NoReturn:
    from memcheck.hooks import guard as guarder

    request = guarder.Request(paths, paths_from, base, head, settings_from, message_file)
    shown = guarder.Shown(output_file, quiet, exit_zero, color)
    # guard reads its settings itself: from the commit that judges the change, never
    # from the working tree the change is in (see guard/trust.py)
    run(
        lambda: guarder.run(
            config_file,
            request,
            fmt,
            list_only,
            list_agents=list_agents,
            allow_label=allow_label,
            shown=shown,
            override_label=override_label,
            event=event,
        )
    )


# What click gives each command when no option is on the line, and the flags (options
# that take no value) ``parsed`` reads itself, each with the parameter it sets.
_LINT_DEFAULTS: Mapping[str, object] = {
    "select": (), "ignore": (), "fail_on": None, "baseline": None, "output_file": None, "changed": False,
    "new_since": None, "show_all": False, "quiet": False, "exit_zero": False, "color": "auto", "no_cache": False,
}  # fmt: skip
_LINT_FLAGS = {
    "--changed": "changed",
    "--all": "show_all",
    "-q": "quiet",
    "--quiet": "quiet",
    "--exit-zero": "exit_zero",
    "--no-cache": "no_cache",
    "-v": "verbose",
    "--verbose": "verbose",
}
DEFAULTS: Mapping[str, Mapping[str, object]] = {
    "check": {
        "paths": (),
        "fmt": "text",
        "config_file": None,
        **_LINT_DEFAULTS,
        "statistics": False,
        "write_baseline": None,
        "user": False,
        "verbose": False,
        "then_fix": False,
    },
    "fix": {
        "paths": (),
        "fmt": "text",
        "config_file": None,
        **_LINT_DEFAULTS,
        "diff": False,
        "exit_non_zero_on_fix": False,
        "verbose": False,
    },
    "guard": {
        "paths": (),
        "base": None,
        "head": None,
        "paths_from": None,
        "list_only": False,
        "list_agents": False,
        "fmt": "text",
        "config_file": None,
        "settings_from": (),
        "allow_label": None,
        "output_file": None,
        "quiet": False,
        "exit_zero": False,
        "color": "auto",
        "message_file": None,
        "override_label": None,
        "event": None,
    },
}
FLAGS: Mapping[str, Mapping[str, str]] = {
    "check": {**_LINT_FLAGS, "--statistics": "statistics", "--user": "user", "--fix": "then_fix"},
    "fix": {**_LINT_FLAGS, "--diff": "diff", "--exit-non-zero-on-fix": "exit_non_zero_on_fix"},
    "guard": {"--list": "list_only", "--signatures": "list_agents", "-q": "quiet", "--quiet": "quiet", "--exit-zero": "exit_zero"},
}
# Options with a value that ``parsed`` reads too: the hooks that pass one (the
# message stage: ``guard --message-file .git/COMMIT_EDITMSG``).
VALUED: Mapping[str, Mapping[str, str]] = {"guard": {"--message-file": "message_file"}}


def parsed(argv: Sequence[str]) -> tuple[str, dict[str, object]] | None:
    """The command and its parameters, as click would give them, for a line of a
    command and flags alone; None for any other line (click reads it)."""
    if not argv or argv[0] not in FLAGS or "_MEMCHECK_COMPLETE" in os.environ:  # (click's shell completion)
        return None
    name, flags, valued = argv[0], FLAGS[argv[0]], VALUED.get(argv[0], {})
    params = dict(DEFAULTS[name])
    tokens = iter(argv[1:])
    for token in tokens:
        if token in valued:
            value = next(tokens, None)
            if value is None or value.startswith("-") or params[valued[token]] is not None:
                return None  # click says what is wrong
            params[valued[token]] = value
        elif token in flags:
            params[flags[token]] = True
        else:
            return None
    return name, params


def _ask_git_ahead(name: str, params: Mapping[str, object]) -> bool:
    """A commit hook's first questions to git (see git.ask_ahead), started before the
    hook is imported, where the hook surely asks them: ``--changed`` on the staged
    change, in the top folder of a repository (pre-commit runs hooks there). Whether
    any was asked (those left unread are ended with the run: git.drop_asked_ahead)."""
    if name == "guard" or not params["changed"] or params["paths"] or os.environ.get("PRE_COMMIT_FROM_REF"):
        return False
    here = os.getcwd()
    if not os.path.exists(os.path.join(here, ".git")):
        return False
    from pathlib import Path

    from memcheck import git

    questions = [git.STAGED_CHANGE, git.INDEX_RECORDS, git.head_commit_question("HEAD")]
    if not params["no_cache"]:
        questions.append(git.CONVERSIONS)  # asked for the cache's keys (engine/content_keys)
    git.ask_ahead(Path(here).resolve(), questions)
    return True


def invoke(name: str, params: Mapping[str, object]) -> None:
    """Run a command with its parameters as click names them (see ``parsed``): it
    ends in SystemExit with its exit code."""
    rest = dict(params)
    if name == "guard":
        guard(**rest)  # type: ignore[arg-type]  # the parameters of DEFAULTS["guard"], checked by the test
    options = lint_options(rest)
    (check if name == "check" else fix)(options=options, **rest)  # type: ignore[operator]


def fast(argv: Sequence[str]) -> int | None:
    """The exit code of the command ``argv`` names, run without click when ``parsed``
    reads it; None when it does not (nothing has run)."""
    found = parsed(argv)
    if found is None:
        return None
    asked = _ask_git_ahead(*found)
    try:
        invoke(*found)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    # What click's main does with what gets past run(): an interrupt while the
    # command is imported, and the reader of the output leaving while it is flushed.
    except KeyboardInterrupt:
        _error("\nAborted!")
    except OSError as e:
        if e.errno != errno.EPIPE:
            raise
    finally:
        if asked:
            from memcheck import git

            git.drop_asked_ahead()
    return 1
