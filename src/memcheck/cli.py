"""The command line: parse, then hand over to a hooks.X.run() that returns the exit code.

Only click is imported at start-up; each command imports what it needs when it
runs, so `memcheck --version` loads neither yaml, pathspec nor git. The lines the
hooks run (a command and flags alone) are read without click: see launch.py.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Callable, Sequence

import click

from memcheck import __version__, choices, launch

if TYPE_CHECKING:
    from click.decorators import FC

    from memcheck.hooks.options import LintOptions

FORMATS = (*choices.FORMATS, "auto")
VERBOSE_HELP = (
    "Say on standard error which config was read, which stores (memories, index mode), guidance files and skills were checked,"
    " what was passed over and why, and how long each step took; the report itself is unchanged."
)


config_option = click.option(
    "--config",
    "config_file",
    type=click.Path(dir_okay=False),
    help="Config file (default: .memcheck.yaml or pyproject.toml at the repository root).",
)


def format_option(formats: Sequence[str] = FORMATS) -> Callable[[FC], FC]:
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(list(formats)),
        default="text",
        show_default=True,
        help="Output format; auto picks github under GitHub Actions.",
    )


def lint_options(fn: Callable[..., None]) -> Callable[..., None]:
    """Add the LintOptions to a command, handed to it as one ``options`` argument."""

    @functools.wraps(fn)
    def command(*args: object, **params: object) -> None:
        options = launch.lint_options(params)
        fn(*args, options=options, **params)

    for option in reversed(
        (
            click.option(
                "--select",
                multiple=True,
                metavar="CODES",
                help="Only these rule codes or prefixes (comma-separated, repeatable); replaces the config's select and ignore.",
            ),
            click.option(
                "--ignore",
                multiple=True,
                metavar="CODES",
                help="Rule codes or prefixes not to report (comma-separated, repeatable), besides the config's.",
            ),
            click.option(
                "--fail-on",
                type=click.Choice(choices.FAIL_ON),
                help="Exit 1 on findings of this severity or worse (default: the config's fail-on, else error).",
            ),
            click.option(
                "--baseline",
                metavar="FILE",
                help="Report only findings not recorded in FILE (see --write-baseline); default: the config's baseline.",
            ),
            click.option("--output-file", "-o", metavar="FILE", help="Write the report to FILE instead of standard output."),
            click.option(
                "--changed",
                is_flag=True,
                help="What the change touches, deletions and renames included: the staged change, or PRE_COMMIT_FROM_REF...PRE_COMMIT_TO_REF,"
                " and only what it brings (as --new-since HEAD); with nothing staged outside `git commit`, the whole tree. The pre-commit hooks use it.",
            ),
            click.option(
                "--new-since",
                metavar="REF",
                help="Report only the findings the change brings compared with REF's tree (where HEAD's history left REF):"
                " findings that merely moved, and those in files the change does not touch, are older and only counted.",
            ),
            click.option(
                "--all",
                "show_all",
                is_flag=True,
                help="Report every finding, older ones too, where --new-since or --changed would show only new ones.",
            ),
            click.option("-q", "--quiet", is_flag=True, help="Print the findings alone: no summary line, nothing on a clean run."),
            click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings fail; usage and config errors still exit 2."),
            click.option(
                "--color",
                type=click.Choice(["auto", "always", "never"]),
                default="auto",
                show_default=True,
                help="Colour the text report: auto is on a terminal only, off with NO_COLOR, on with FORCE_COLOR or CLICOLOR_FORCE. Never in an --output-file.",
            ),
            click.option(
                "--no-cache",
                is_flag=True,
                help="Check every file afresh: neither read nor write the findings kept between runs (see `memcheck clean`).",
            ),
        )
    ):
        command = option(command)
    return command


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
@click.option(
    "--write-baseline",
    metavar="FILE",
    help="Record the current findings in FILE (sorted JSON) and exit 0; --baseline FILE then reports only new ones.",
)
@click.option(
    "--user",
    is_flag=True,
    help="Also check the user-level files: ~/.config/amp/AGENTS.md, ~/.claude/CLAUDE.md, ~/.agh/memory, ~/.nano_claude/memory, ~/.claude/skills, ...",
)
@click.option("-v", "--verbose", is_flag=True, help=VERBOSE_HELP)
@click.option("--fix", "then_fix", is_flag=True, help="Rebuild MEMORY.md indexes first, then report what is left, as `memcheck fix` does.")
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
) -> None:
    """Report problems in memory stores, indexes, guidance files and skills.

    With PATHS (as pre-commit passes them), check what those files belong to: a
    changed memory file brings in its whole store.

    Exit status: 0 when nothing fails (or with --exit-zero), 1 when a finding fails
    (by default an error; see --fail-on), 2 for a usage or configuration error.
    """
    launch.check(paths, fmt, config_file, options, statistics, write_baseline, user, verbose, then_fix)


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@format_option()
@config_option
@lint_options
@click.option(
    "--diff", is_flag=True, help="Print a unified diff of what fix would write, and write nothing; exit 1 when there is something to fix."
)
@click.option("--exit-non-zero-on-fix", is_flag=True, help="Exit 1 when fix changed a file, even if nothing is left to report.")
@click.option("-v", "--verbose", is_flag=True, help=VERBOSE_HELP)
def fix(
    paths: tuple[str, ...], fmt: str, config_file: str | None, options: LintOptions, diff: bool, exit_non_zero_on_fix: bool, verbose: bool
) -> None:
    """Rebuild MEMORY.md indexes, then report what is left.

    Exit status: 0 when nothing left fails, 1 when findings it cannot fix are left
    (see --fail-on) or, with --exit-non-zero-on-fix, when it changed a file; with
    --diff, 1 when there is something to fix; 0 for all of these with --exit-zero;
    2 for a usage or configuration error.
    """
    launch.fix(paths, fmt, config_file, options, diff, exit_non_zero_on_fix, verbose)


@cli.command()
@click.argument("store", type=click.Path())
@click.option("--explain", is_flag=True, help="Say which mode and style were chosen, and why.")
@config_option
def index(store: str, explain: bool, config_file: str | None) -> None:
    """Print the MEMORY.md that `fix` would write for STORE, without writing it."""
    from memcheck.hooks import index as command

    launch.run(lambda: command.run(store, explain, config_file))


@cli.command()
@click.argument("path", type=click.Path())
@click.option(
    "--agent", type=click.Choice(choices.AGENTS), help="Only this agent (default: one section per agent in the config's agents:)."
)
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
    from memcheck.hooks import context as command

    launch.run(lambda: command.run(path, fmt, agent, config_file))


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--base", metavar="REF", help="Judge every commit of --head that REF lacks (a pull request's range), by the settings of REF.")
@click.option("--head", metavar="REF", help="Last commit of the range (default: HEAD); needs --base.")
@click.option("--paths-from", metavar="FILE", help="Read paths to judge from FILE ('-': standard input), newline- or NUL-separated.")
@click.option("--list", "list_only", is_flag=True, help="Show what in the tree is guarded today, by category, and exit 0.")
@click.option(
    "--signatures",
    "list_agents",
    is_flag=True,
    help="Show how a change an agent made is recognised (with each signature's source) and which categories guard whose changes, and exit 0.",
)
@format_option()
@config_option
@click.option(
    "--settings-from",
    multiple=True,
    metavar="REF",
    help="With --base: judge the range by the strictest of REF's guard settings and --base's (repeatable); the GitHub Action adds the default branch for a push to another branch.",
)
@click.option(
    "--allow-label",
    metavar="NAME",
    help="The change carries this override label (a pull request's, which a maintainer adds): an agent's change to a path guarded from agents"
    " and a change to the guard's settings are reported as warnings and pass; a secret still fails.",
)
@click.option(
    "--override-label",
    metavar="NAME",
    help="As --allow-label when the pull request of --event carries this label and a person added it: on the run its labeled event"
    " starts, by a sender that is no bot's or agent's account; otherwise the label does not count, and the report says why.",
)
@click.option(
    "--event",
    metavar="FILE",
    help="The GitHub event that started the run (GITHUB_EVENT_PATH), which --override-label reads: the pull request's labels and who added one.",
)
@click.option(
    "--message-file",
    metavar="FILE",
    help="Judge the staged changes as the commit being made with the message in FILE (git's prepare-commit-msg and commit-msg hooks"
    " pass it: the memcheck-guard-message hook), when it is an agent's by its shell, its trailers, author or committer; a person's passes.",
)
# The report's own options, as check and fix have them (never their rule selection or
# fail-on: the guard's policy comes from the settings that judge the change).
@click.option("--output-file", "-o", metavar="FILE", help="Write the report to FILE instead of standard output.")
@click.option("-q", "--quiet", is_flag=True, help="Print the findings alone: no summary line, nothing on a clean run.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings fail; usage and config errors still exit 2.")
@click.option(
    "--color",
    type=click.Choice(["auto", "always", "never"]),
    default="auto",
    show_default=True,
    help="Colour the text report: auto is on a terminal only, off with NO_COLOR, on with FORCE_COLOR or CLICOLOR_FORCE. Never in an --output-file.",
)
def guard(**params: object) -> None:
    """Fail when a change touches a guarded path: secrets (.env, keys, ...) whoever
    made the change; lock files, editor settings, build outputs (...) when an agent made it.

    Judges the staged changes by default (the pre-commit hook); with --base/--head,
    every commit of head that base lacks; at pre-push (pre-commit's
    PRE_COMMIT_REMOTE_NAME), every commit the remote lacks; with PATHS or
    --paths-from, those paths. A change is judged by the guard settings of the
    commit it goes into (HEAD, --base, the remote's branch and default branch), and a change
    that loosens them is a finding of its own.
    """
    launch.guard(**params)  # type: ignore[arg-type]  # click's parameters, named as launch.guard's (tests/unit/test_launch.py holds them)


@cli.command()
@click.option(
    "--explain", "explain_path", metavar="PATH", help="For one file: which agents read it, when, and from which source that is known."
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@config_option
def agents(explain_path: str | None, fmt: str, config_file: str | None) -> None:
    """List the agents memcheck knows: the release their facts describe, the date
    checked, and the files and folders each reads, with sources."""
    from memcheck.hooks import agents as command

    launch.run(lambda: command.run(fmt, explain_path, config_file))


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
def rules(fmt: str) -> None:
    """List every rule: code, severity, fixable, summary."""
    from memcheck.hooks import rules as command

    launch.run(lambda: command.list_rules(fmt))


@cli.command()
@config_option
def clean(config_file: str | None) -> None:
    """Remove the findings memcheck keeps between runs (its cache), so the next check reads every file afresh."""
    from memcheck.hooks import clean as command

    launch.run(lambda: command.run(config_file))


@cli.command()
def schema() -> None:
    """Print the config's JSON Schema, for editors: `memcheck schema > .memcheck.schema.json`."""
    from memcheck.hooks import schema as command

    launch.run(command.run)


@cli.command()
def server() -> None:
    """Run the language server over standard input and output, for editors.

    Needs the server extra: pip install '.[server]' in memcheck's clone. See the editor set-up
    in docs/language-server.md.
    """
    from memcheck import server as command

    launch.run(command.run)


@cli.command()
@click.argument("code")
def rule(code: str) -> None:
    """Explain one rule: what it does, why, an example, and how to fix it."""
    from memcheck.hooks import rules as command

    launch.run(lambda: command.show_rule(code))


def main(argv: Sequence[str] | None = None) -> int:
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="memcheck", standalone_mode=True)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    return 0
