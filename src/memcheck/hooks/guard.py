"""`memcheck guard`: fail when a change touches a guarded path.

The face of the guard's engine (``memcheck.guard``): what the command line asks
for, the engine's findings reported, and the guarded paths and agent signatures
listed. Which change is judged, and by which settings, is told in
``guard/history.py`` and ``guard/trust.py``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import BinaryIO, Mapping

from memcheck import git, gitrefs
from memcheck.config import ConfigError
from memcheck.guard.engine import judge_change, judge_named
from memcheck.guard.findings import Judge, guarded_tree
from memcheck.guard.named import read_path_list
from memcheck.guard.tiers import AGENTS, OPT_OUT_KEY, shell_opt_out, signatures, sources, tiers
from memcheck.guard.trust import disk_settings
from memcheck.hooks.report import Display, destination, report
from memcheck.output import Override
from memcheck.problem import WARNING, Problem, escaped, json_text, shown
from memcheck.records import NamedTuple


class Shown(NamedTuple):
    """How the report is given, as check and fix give theirs: ``-o``, ``-q``,
    ``--exit-zero``, ``--color``."""

    output_file: str | None = None
    quiet: bool = False
    exit_zero: bool = False
    color: str = "auto"


PLAIN = Shown()


class Request(NamedTuple):
    """What the command line asked for."""

    paths: tuple[str, ...] = ()
    paths_from: str | None = None  # a file, or "-" for standard input
    base: str | None = None
    head: str | None = None
    settings_from: tuple[str, ...] = ()  # with base: more commits whose settings judge the range (the strictest)
    message_file: str | None = None  # the message of the commit being made (git's prepare-commit-msg and commit-msg hooks)


def check(
    config_file: str | None, request: Request, cwd: Path, stdin: BinaryIO | None = None, env: Mapping[str, str] | None = None
) -> list[Problem]:
    """The findings for what ``request`` names: paths, judged by the working tree's
    settings as a change made now would be, or a change (staged, a range, a push),
    judged by the settings of the commits it goes into."""
    env = os.environ if env is None else env
    if request.message_file is not None and (request.paths or request.paths_from or request.base is not None or request.head is not None):
        raise ConfigError("--message-file judges the commit being made: give no paths and no --base/--head with it")
    if request.paths or request.paths_from:
        if request.base is not None or request.head is not None:
            raise ConfigError("give paths or --base/--head, not both")
        config, in_git = disk_settings(cwd, config_file)
        names = list(request.paths)
        if request.paths_from:
            names += read_path_list(request.paths_from, stdin)
        return judge_named(config, in_git, names, cwd, env)
    return judge_change(config_file, cwd, env, request.base, request.head, request.settings_from, request.message_file)


def list_tree(config_file: str | None, cwd: Path, fmt: str) -> int:
    """What in the tree is guarded today, by category."""
    config, _ = disk_settings(cwd, config_file)
    links, submodules = gitrefs.tracked_links(cwd)
    tree = guarded_tree(git.tracked_files(cwd), Judge(config.guard, every_tier=True), links, submodules)
    tier = tiers(config.guard)
    if fmt == "json":
        doc = {
            name: [{"path": r.path, "pattern": r.pattern, **({"target": r.target} if r.target is not None else {})} for r in rows]
            for name, rows in tree.items()
        }
        sys.stdout.write(
            json_text(
                json.dumps(
                    {"categories": doc, "tiers": {name: tier[name] for name in tree}, "total": sum(map(len, tree.values()))},
                    ensure_ascii=False,
                    indent=2,
                )
            )
            + "\n"
        )
        return 0
    for name, rows in tree.items():
        who = "an agent's changes" if tier[name] == AGENTS and not config.guard.everyone else "every change"
        sys.stdout.write(f"{shown(name)} ({len(rows)}; guarded for {who})\n")
        sys.stdout.writelines(
            f"  {shown(r.path)}{'' if r.target is None else f' -> {shown(r.target)}'}  [{escaped(r.pattern)}]\n" for r in rows
        )
    total = sum(map(len, tree.values()))
    sys.stdout.write(
        f"{total} guarded path{'' if total == 1 else 's'} in {len(tree)} categor{'y' if len(tree) == 1 else 'ies'}.\n"
        if total
        else "No guarded paths in the tree.\n"
    )
    return 0


def list_signatures(config_file: str | None, cwd: Path, fmt: str) -> int:
    """How an agent's change is recognised under the working tree's settings, with
    each signature's source; and which category guards whose changes."""
    config, in_git = disk_settings(cwd, config_file)
    shipped, found = sources(), signatures(config.guard)
    ignored = sorted(shell_opt_out(cwd)) if in_git else []  # this machine's own word (git config memcheck.ignoreAgentEnv)
    if fmt == "json":
        rows = [{**sig._asdict(), **(shipped[sig.id]._asdict() if sig.id in shipped else {"url": None})} for sig in found]
        doc = {"signatures": rows, "tiers": tiers(config.guard), "everyone": config.guard.everyone, "ignored_env": ignored}
        sys.stdout.write(json_text(json.dumps(doc, ensure_ascii=False, indent=2)) + "\n")
        return 0
    for sig in found:
        source = shipped.get(sig.id)
        note = (
            f"  [{source.url}, checked {source.checked}{'' if source.confirmed else ', unconfirmed'}]" if source else "  [from the config]"
        )
        sys.stdout.write(escaped(f"{sig.id}: {sig.shown()}{note}") + "\n")  # the config's own may hold anything
    if ignored:
        sys.stdout.write(
            escaped(f"no agent's sign in this shell, by this machine's git config ({OPT_OUT_KEY}): {', '.join(ignored)}") + "\n"
        )
    tier = tiers(config.guard)
    for name in (AGENTS, "secrets"):
        members = [c for c, t in tier.items() if t == name]
        who = "every change" if name != AGENTS or config.guard.everyone else "an agent's changes"
        sys.stdout.write(f"{name} tier, guarding {who}: {', '.join(members)}\n")
    return 0


def run(
    config_file: str | None,
    request: Request,
    fmt: str = "text",
    list_only: bool = False,
    stdin: BinaryIO | None = None,
    list_agents: bool = False,
    allow_label: str | None = None,
    shown: Shown = PLAIN,
    override_label: str | None = None,
    event: str | None = None,
) -> int:
    cwd = Path.cwd()
    if list_agents:
        return list_signatures(config_file, cwd, fmt)
    if list_only:
        return list_tree(config_file, cwd, fmt)
    override = judged_label(allow_label, override_label, event, cwd, request.head)
    problems = check(config_file, request, cwd, stdin)
    if override and override.counts:  # what the label lets through is a warning: reported, not failing
        from memcheck.guard.override import allowed

        problems = allowed(problems, override.label)
    with destination(shown.output_file, _root(cwd) if shown.output_file else None) as out:  # (no git call at a commit)
        report(
            problems, fmt, out, command="guard", display=Display(shown.quiet, shown.color), override=override, judged=judged_range(request)
        )
    return 1 if not shown.exit_zero and any(p.severity != WARNING for p in problems) else 0


def judged_label(
    allow_label: str | None, override_label: str | None, event: str | None, cwd: Path, head: str | None = None
) -> Override | None:
    """The override label the command line gives: one a maintainer's word already
    (``--allow-label``), or one the event shows who added (``--override-label``),
    for the commit it was added on: the head judged (``--head``, else HEAD)."""
    if not override_label:
        return Override(allow_label, counts=True) if allow_label else None
    if allow_label:
        raise ConfigError("give --allow-label or --override-label, not both")
    if not event:
        raise ConfigError("--override-label needs --event FILE: the GitHub event that started the run, which says who added the label")
    from memcheck.guard import override

    shown = override.read_event(event)
    found = override.judged(shown, override_label)
    if found.counts:
        return override.for_head(found, shown, git.commit_of(cwd, head or "HEAD") or "")
    return found


def judged_range(request: Request) -> str | None:
    """The range judged, in words: ``range BASE..HEAD, by the settings of BASE and of REF``."""
    if request.base is None:
        return None

    def short(ref: str) -> str:  # a commit's full name, as git shortens it for a person
        return ref[:12] if len(ref) == 40 and all(c in "0123456789abcdef" for c in ref) else ref

    base = short(request.base)
    more = "".join(f" and of {short(ref)}" for ref in dict.fromkeys(request.settings_from) if short(ref) != base)
    return f"range {base}..{short(request.head or 'HEAD')}" + (f", by the settings of {base}{more}" if more else "")


def _root(cwd: Path) -> Path | None:
    """The repository an ``--output-file`` is never written out of through a link."""
    try:
        return git.locate(cwd).top
    except ConfigError:
        return None
