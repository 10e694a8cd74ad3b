"""launch.py reads a hook's command line (a command and flags alone) without click:
each line it reads gives the command the parameters click's own parse gives, and
every other line is left to click."""

from __future__ import annotations

import itertools

import pytest

from memcheck import launch
from memcheck.cli import cli


def _click_parse(argv: list[str]) -> tuple[str, dict[str, object]]:
    """The command's parameters as click parses the line."""
    name, *rest = argv
    with cli.make_context("memcheck", [name]) as group:
        return name, dict(cli.commands[name].make_context(name, rest, parent=group).params)


def _lines() -> list[list[str]]:
    lines = []
    for name, flags in launch.FLAGS.items():
        lines.append([name])
        lines += [[name, flag] for flag in flags]
        lines.append([name, *flags])  # every flag at once, and each repeated
        lines.append([name, *flags, *flags])
    # The hooks' own lines (.pre-commit-hooks.yaml).
    lines += [
        ["check", "--changed"],
        ["fix", "--changed", "--exit-non-zero-on-fix"],
        ["guard"],
        ["guard", "--message-file", ".git/COMMIT_EDITMSG"],
    ]
    lines += [["guard", "--list", "--message-file", "MSG"]]
    return lines


@pytest.mark.parametrize("argv", _lines(), ids=" ".join)
def test_a_line_read_without_click_gives_what_click_gives(argv: list[str]) -> None:
    assert launch.parsed(argv) == _click_parse(argv)


def test_the_commands_take_the_parameters_click_gives_them() -> None:
    for name in launch.FLAGS:
        assert {param.name for param in cli.commands[name].params} == set(launch.DEFAULTS[name]), name


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--version"],
        ["check", "src"],
        ["check", "--format", "json"],
        ["check", "--changed=1"],
        ["check", "-qv"],
        ["check", "--chang"],
        ["check", "--"],
        ["check", "--help"],
        ["guard", "-h"],
        ["rules"],
        ["guard", "--fix"],
        ["fix", "--statistics"],
        ["check", "--diff"],
        ["guard", "--message-file"],
        ["guard", "--message-file", "a", "--message-file", "b"],
        ["guard", "--message-file=MSG"],
        ["check", "--message-file", "a"],
    ],
    ids=" ".join,
)
def test_any_other_line_is_left_to_click(argv: list[str]) -> None:
    assert launch.parsed(argv) is None


def test_click_completion_is_left_to_click(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_MEMCHECK_COMPLETE", "bash_complete")
    assert launch.parsed(["check"]) is None


def test_every_flag_pair_is_read_as_click_reads_it() -> None:
    for name, flags in launch.FLAGS.items():
        for pair in itertools.permutations(flags, 2):
            argv = [name, *pair]
            assert launch.parsed(argv) == _click_parse(argv), argv


def test_a_command_click_runs_has_the_cycle_collector_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # A hook's short run goes without the cycle collector; the language server, which
    # click runs and which lives for hours, must not.
    import gc

    import memcheck.__main__ as entry_module
    import memcheck.cli

    seen: list[bool] = []

    def main() -> int:
        seen.append(gc.isenabled())
        return 0

    def leave(code: int) -> None:
        raise SystemExit(code)

    monkeypatch.setattr(memcheck.cli, "main", main)
    monkeypatch.setattr(entry_module.os, "_exit", leave)
    monkeypatch.setattr("sys.argv", ["memcheck", "server", "--stdio"])
    was = gc.isenabled()
    try:
        with pytest.raises(SystemExit):
            entry_module.entry()
    finally:
        if was:
            gc.enable()
    assert seen == [True]
