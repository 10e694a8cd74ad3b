"""The GitHub Action: its inputs mapped to `memcheck check` and `memcheck guard`, and
what they report written where the runner reads it: annotations, the SARIF file, the
step outputs and the job summary.

action.yml runs this with the Python of the virtualenv memcheck was installed into.
Nothing of the pull request's checkout is ever run: `memcheck check` and guard run in
this process (a ``python -m memcheck`` started in the checkout would import a
``memcheck/`` folder the pull request adds there). Inputs arrive only as ``INPUT_*``
environment variables (never pasted into a shell script), the pull request comes
from the event file at ``GITHUB_EVENT_PATH``.

On a pull request (or a push) the job fails only on what it brings: ``memcheck check
--new-since BASE`` reports the findings that are new since the base, and counts the
older ones for the summary; the input ``scope: all`` reports and judges every
finding. Either way the secret rules of the files it changes are judged by the
base's settings too, which the pull request cannot change for itself, and guard
judges its commits by the settings of the base.

This script only fetches what a shallow checkout lacks; what is found, and how, is
the commands' own.

Exit status: 0 pass, 1 findings that fail the job (per ``fail-on`` and the override
label), 2 memcheck could not run (bad input or config, a range that cannot be read).
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
from pathlib import Path
from typing import Any, Mapping, NamedTuple, Sequence, TextIO

from memcheck import cli as memcheck_cli
from memcheck import git as memcheck_git
from memcheck.checks import all_rules
from memcheck.checks.guard import GRD003, GRD004, GRD005
from memcheck.choices import FAIL_ON, FORMATS
from memcheck.config import ConfigError, find_root
from memcheck.hooks import guard as guarder
from memcheck.output import BASELINE_FILE, Checked, Older, ReportContext, counts, get_reporter, sarif
from memcheck.output.github import annotation, escape_data
from memcheck.problem import ERROR, WARNING, Problem
from memcheck.safe_files import Refused, replacing

ZERO_SHA = "0" * 40
# How deep to fetch a shallow clone, in turn, until base and head meet and no commit
# of the range lies past the clone's edge; then the whole history.
FETCH_DEPTHS = (50, 250, 1000, 5000, 0)
BAR_WIDTH = 20
_MARKUP = re.compile(r"[!-/:-@\[-`{-~]")  # ASCII punctuation: what CommonMark lets a backslash escape
# Findings the job summary lists one by one; GitHub shows only 10 error and 10
# warning annotations a step, so the summary is where a reviewer reads them.
SUMMARY_FINDINGS = 200


class UsageError(Exception):
    pass


SCOPES = ("new", "all")


class Inputs(NamedTuple):
    paths: list[str]
    config: str
    guard: bool
    base: str
    head: str
    fail_on: str  # "" for the config's fail-on
    sarif: str
    summary: bool
    override_label: str
    scope: str = "new"  # new: fail on what the change brings; all: on every finding
    format: str = "github"  # how the log shows the findings: memcheck check's --format


class Lint(NamedTuple):
    """What `memcheck check --format json` reported."""

    problems: list[Problem]
    usage: list[tuple[str, int, int, int, int]]  # index, lines, bytes, and their caps
    fail_on: str  # the input's, else the config's: as `memcheck check` judges it
    fails: bool = False  # a finding fails the job (check's exit status)
    older: int = 0  # findings older than the change, not reported
    since: str = ""  # what the findings are new since ("" for the whole tree)
    base: str = ""  # the commit that is, for the log's report
    checked: Checked | None = None  # what check looked at, for a text report's summary line


class Range(NamedTuple):
    """The commits a run judges: a pull request's, a push's."""

    base: str  # "" when there is none
    head: str
    state: str = "ready"  # ready | skipped | error
    note: str = ""  # why not ready
    name: str = ""  # the base's branch, where known
    settings_from: tuple[str, ...] = ()  # more commits whose settings judge it (guard)
    settings_branch: str = ""


class Guard(NamedTuple):
    state: str  # off | skipped | ran | error
    problems: list[Problem]
    note: str
    overridden: bool = False
    base: str = ""  # the commit whose settings judged the range


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    value = env.get(name, "").strip().lower()
    if not value:
        return default
    if value in ("on", "true", "yes", "1"):
        return True
    if value in ("off", "false", "no", "0"):
        return False
    raise UsageError(f"input {_input_name(name)} must be on or off, not {value!r}")


def _input_name(env_name: str) -> str:
    return env_name[len("INPUT_") :].lower().replace("_", "-")


def read_inputs(env: Mapping[str, str], event: Mapping[str, Any]) -> Inputs:
    fail_on = env.get("INPUT_FAIL_ON", "").strip().lower()
    if fail_on and fail_on not in FAIL_ON:
        raise UsageError(f"input fail-on must be one of {', '.join(FAIL_ON)}, not {fail_on!r}")
    # One path per line, so that paths may hold spaces.
    paths = [line.strip() for line in env.get("INPUT_PATHS", "").splitlines() if line.strip()]
    # Every entry must exist, as on the command line: a mistyped store must never
    # pass as a clean one (nor one line of a list be dropped unseen).
    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        raise UsageError(f"input paths: {', '.join(missing)}: no such file or folder")
    sarif_path = env.get("INPUT_SARIF", "").strip()
    if sarif_path and os.path.isdir(sarif_path):
        raise UsageError(f"input sarif: {sarif_path} is a folder; name the file to write, such as {sarif_path.rstrip('/')}/memcheck.sarif")
    scope = env.get("INPUT_SCOPE", "").strip().lower() or "new"
    if scope not in SCOPES:
        raise UsageError(f"input scope must be one of {', '.join(SCOPES)}, not {scope!r}")
    fmt = env.get("INPUT_FORMAT", "").strip().lower() or "github"
    if fmt not in FORMATS:
        raise UsageError(f"input format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    event_base, event_head = event_range(event)
    return Inputs(
        paths=paths or ["."],
        config=env.get("INPUT_CONFIG", "").strip(),
        guard=_flag(env, "INPUT_GUARD", True),
        base=env.get("INPUT_BASE", "").strip() or event_base,
        head=env.get("INPUT_HEAD", "").strip() or event_head,
        fail_on=fail_on,
        sarif=sarif_path,
        summary=_flag(env, "INPUT_SUMMARY", True),
        override_label=env.get("INPUT_OVERRIDE_LABEL", "").strip(),
        scope=scope,
        format=fmt,
    )


def read_event(env: Mapping[str, str]) -> dict[str, Any]:
    path = env.get("GITHUB_EVENT_PATH", "")
    if not path:
        return {}
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read the event file {path}: {e}") from None
    return data if isinstance(data, dict) else {}


def event_range(event: Mapping[str, Any]) -> tuple[str, str]:
    """The pull request's base and head commits; for a push, what it added (a push
    that created a branch has no base: see ``event_default_branch``)."""
    pr = event.get("pull_request")
    if isinstance(pr, dict):
        return str(pr.get("base", {}).get("sha") or ""), str(pr.get("head", {}).get("sha") or "")
    before, after = str(event.get("before") or ""), str(event.get("after") or "")
    if before and after and before != ZERO_SHA and after != ZERO_SHA:
        return before, after
    if before == ZERO_SHA and after and after != ZERO_SHA:
        return "", after  # a new branch: judged against the default branch
    return "", ""


def event_default_branch(event: Mapping[str, Any]) -> str:
    """For a push that created a branch (``before`` is all zeros): the repository's
    default branch, which the new branch is judged against."""
    before, after = str(event.get("before") or ""), str(event.get("after") or "")
    repository = event.get("repository")
    if "pull_request" in event or before != ZERO_SHA or not after or after == ZERO_SHA or not isinstance(repository, dict):
        return ""
    return str(repository.get("default_branch") or "")


def event_settings_branch(event: Mapping[str, Any]) -> str:
    """For a push that moved a branch other than the default one: the repository's
    default branch, whose settings judge the push too (the strictest of them and
    ``before``'s). A push event reports findings after the push: a loosening pushed
    first to a branch is there all the same, and must not judge the next push."""
    before, after = str(event.get("before") or ""), str(event.get("after") or "")
    repository = event.get("repository")
    if "pull_request" in event or before in ("", ZERO_SHA) or after in ("", ZERO_SHA) or not isinstance(repository, dict):
        return ""
    branch = str(repository.get("default_branch") or "")
    return "" if event.get("ref") == f"refs/heads/{branch}" else branch


def event_labels(event: Mapping[str, Any]) -> set[str]:
    pr = event.get("pull_request")
    labels = pr.get("labels", []) if isinstance(pr, dict) else []
    return {str(label.get("name")) for label in labels if isinstance(label, dict)}


# --- lint -------------------------------------------------------------------------


def memcheck(args: Sequence[str]) -> tuple[int, str, str]:
    """``memcheck ARGS`` run as the command line runs it, in this process: its exit
    status, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = memcheck_cli.main(list(args))
    return code, out.getvalue(), err.getvalue()


def lint(inputs: Inputs, base: str, since: str = "") -> Lint:
    """`memcheck check`, new since ``base`` (with ``scope: all``, every finding; the
    secret rules of what the change touches judged by the base's settings all the
    same); ``since`` names the base in the summary."""
    # --no-cache: a job never believes findings kept by an earlier job on the same
    # runner (a self-hosted one keeps its .git), which a pull request's run could have
    # written; within one job nothing is checked twice.
    args = ["check", "--format", "json", "--no-cache"]
    if inputs.config:
        args += ["--config", inputs.config]
    if inputs.fail_on:
        args += ["--fail-on", inputs.fail_on]
    if base:
        args += ["--new-since", base, *(["--all"] if inputs.scope == "all" else [])]
    code, out, err = memcheck([*args, "--", *inputs.paths])
    if code not in (0, 1):
        lines = err.strip().splitlines()
        raise UsageError((lines[-1] if lines else f"memcheck check exited {code}").removeprefix("memcheck: error: "))
    doc = json.loads(out)
    found = doc["summary"]
    usage = [(i["path"], i["lines"], i["bytes"], i["max_lines"], i["max_bytes"]) for i in doc["indexes"]]
    checked = Checked(**found["checked"], scope="tree" if inputs.paths == ["."] else "paths") if "checked" in found else None
    new_since = found.get("new_since", "")
    return Lint([Problem(**p) for p in doc["problems"]], usage, found["fail_on"], code == 1, found.get("older", 0), since if new_since else "", new_since, checked)


# --- guard ------------------------------------------------------------------------


def _has_commit(sha: str) -> bool:
    return memcheck_git.as_user("cat-file", "-e", f"{sha}^{{commit}}").returncode == 0


def _shallow() -> bool:
    return memcheck_git.as_user("rev-parse", "--is-shallow-repository").stdout.strip() == "true"


def _range_ready(base: str, head: str) -> bool:
    """Base and head are here, they meet, and (in a shallow clone) no commit of the
    range lies at the clone's edge, where the commits before it would go unjudged."""
    if not (_has_commit(base) and _has_commit(head) and memcheck_git.as_user("merge-base", base, head).returncode == 0):
        return False
    return not _shallow() or not memcheck_git.range_cut(Path.cwd(), base, head)


def prepare_range(base: str, head: str) -> str | None:
    """Fetch what a shallow or partial checkout lacks, deeper in turn, until the
    whole range is here (a merge base alone is not enough: a branch can reach past
    the clone's edge below it); None when ready, else why not."""
    if _range_ready(base, head):
        return None
    shallow = _shallow()
    if memcheck_git.as_user("remote", "get-url", "origin").returncode != 0:
        return f"commits {base[:12]}..{head[:12]} are not all in this clone and it has no origin remote to fetch them from; check out with fetch-depth: 0"
    for depth in FETCH_DEPTHS if shallow else (0,):
        how = [f"--depth={depth}"] if depth else (["--unshallow"] if shallow else [])
        print(f"memcheck: fetching {base[:12]} and {head[:12]} from origin {' '.join(how)}".rstrip(), flush=True)
        fetched = memcheck_git.as_user("fetch", "--no-tags", "--quiet", *how, "origin", base, head)
        if fetched.returncode != 0:
            return f"cannot fetch {base[:12]} and {head[:12]} from origin ({fetched.stderr.strip() or 'git fetch failed'}); check out with fetch-depth: 0"
        if _range_ready(base, head):
            return None
    return f"{base[:12]} and {head[:12]} have no common ancestor; set the base and head inputs to commits of one history"


def _default_branch_tip(branch: str) -> str | None:
    """The default branch's commit on origin, fetched: what a new branch is judged against."""
    how = ["--depth=1"] if _shallow() else []
    fetched = memcheck_git.as_user("fetch", "--no-tags", "--quiet", *how, "origin", f"+refs/heads/{branch}:refs/remotes/origin/{branch}")
    found = memcheck_git.as_user("rev-parse", "--verify", "--quiet", f"refs/remotes/origin/{branch}^{{commit}}")
    return found.stdout.strip() if fetched.returncode == 0 and found.returncode == 0 else None


def judged_range(inputs: Inputs, event: Mapping[str, Any]) -> Range:
    """The pull request's or the push's commits, fetched where a shallow checkout
    lacks them: what lint compares with and guard judges."""
    base, head = inputs.base, inputs.head
    pr = event.get("pull_request")
    name = str(pr.get("base", {}).get("ref") or "") if isinstance(pr, dict) and base == event_range(event)[0] else ""
    settings_branch, default_branch = event_settings_branch(event), event_default_branch(event)
    settings_from: tuple[str, ...] = ()
    if inputs.guard and settings_branch and base and head:
        # Fetched before the range is prepared: in a shallow clone this fetch is
        # shallow too, and the range is then deepened as far as it needs.
        tip = _default_branch_tip(settings_branch)
        if tip is None:
            return Range("", head, "error", f"cannot fetch the default branch {settings_branch!r} from origin, whose settings judge a push to another branch too")
        settings_from = (tip,)
    if not base and head and default_branch:
        # A push that created a branch: judged against the default branch.
        base, name = _default_branch_tip(default_branch) or "", default_branch
        if not base:
            return Range("", head, "error", f"the push created a branch; cannot fetch the default branch {default_branch!r} from origin to judge it against")
        if memcheck_git.as_user("merge-base", "--is-ancestor", head, base).returncode == 0:
            return Range("", head, "skipped", f"the pushed commit {head[:12]} is already on the default branch {default_branch}")
    if not (base and head):
        return Range("", head, "skipped", "no pull request range: run on pull_request events, or set the base and head inputs")
    why = prepare_range(base, head)
    if why is not None:
        return Range("", head, "error", why)
    return Range(base, head, name=name, settings_from=settings_from, settings_branch=settings_branch)


def guard(inputs: Inputs, judged: Range, labels: set[str]) -> Guard:
    if not inputs.guard:
        return Guard("off", [], "guard is off")
    if judged.state != "ready":
        return Guard(judged.state, [], judged.note)
    base, head = judged.base, judged.head
    try:
        request = guarder.Request(base=base, head=head, settings_from=judged.settings_from)
        found = guarder.check(inputs.config or None, request, Path.cwd(), env={})
    except ConfigError as e:
        return Guard("error", [], str(e))
    except Exception as e:  # as the CLI does: one line, never a traceback in the log
        return Guard("error", [], f"internal error: {type(e).__name__}: {e}")
    note = f"range {base[:12]}..{head[:12]}"
    if judged.settings_from:
        note += f", by the settings of {base[:12]} and of the default branch {judged.settings_branch}"
    overridden = bool(found and inputs.override_label and inputs.override_label in labels)
    if overridden:
        # The label accepts an agent's change and a reviewed loosening; a secret stays an error.
        allowed = f" (allowed: the pull request has the label {inputs.override_label!r})"
        found = [p._replace(severity=WARNING, message=p.message + allowed) if p.code in OVERRIDABLE else p for p in found]
    return Guard("ran", sorted(found), note, overridden, base)


# What the override label lets through: an agent's change to a path guarded from
# agents, and a change to the settings (reviewed by the maintainer who adds it).
OVERRIDABLE = frozenset(rule.code for rule in (GRD003, GRD004, GRD005))


def blocking(guarded: Guard) -> list[Problem]:
    """The guard findings that fail the job: all of them, or with the override label,
    the secrets (which no label lets through)."""
    return [p for p in guarded.problems if p.severity == ERROR]


# --- results ----------------------------------------------------------------------


def bar(value: int, cap: int, width: int = BAR_WIDTH) -> str:
    filled = width if cap <= 0 else min(width, round(width * value / cap))
    return "█" * filled + "░" * (width - filled)


def _visible(text: str) -> str:
    """Control characters (a raw ESC, a newline in a file name) as escapes one can read."""
    return "".join(ch if ch.isprintable() or ch == " " else f"\\u{ord(ch):04x}" for ch in text)


def _code(text: str) -> str:
    """A Markdown code span that holds any text (table cells too): nothing in it is
    markup, so a file name cannot add a link or HTML to the summary."""
    text = _visible(text).replace("|", "\\|")
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _cell(text: str) -> str:
    """Text from findings (file names, keys, whatever the pull request chose) as
    literal Markdown: every ASCII punctuation character is backslash-escaped, so
    nothing becomes a link (``[x](https://...)``, a bare URL), HTML, emphasis or a
    break out of the table cell; GitHub's renderer reads an escaped character as
    text, and a URL split by escapes is no longer linked."""
    return _MARKUP.sub(r"\\\g<0>", _visible(text.replace("\n", " ")))


def _usage(value: int, cap: int, unit: str) -> str:
    pct = round(100 * value / cap) if cap > 0 else 100
    mark = " ⛔" if value > cap else ""
    return f"`{bar(value, cap)}` {value:,} / {cap:,} {unit} ({pct}%){mark}"


def summary(result: Lint, guarded: Guard, override_label: str = "", scope: str = "new") -> str:
    errors, warnings, fixable = counts(result.problems)
    paths = sorted({p.path for p in guarded.problems})
    head = f"**{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}**"
    if result.since:
        head += f" new since {result.since}"
    if fixable:
        head += f" ({fixable} fixable with `memcheck fix`)"
    if guarded.state == "ran":
        head += f"; **{len(paths)} guarded path{'s' * (len(paths) != 1)}** touched"
    out = ["## memcheck", "", head + f"; fail-on: {result.fail_on}", ""]
    if result.older:
        n = result.older
        out += [
            f"{n:,} older finding{'s' * (n != 1)} (in files the change does not touch, or there before it) "
            f"{'are' if n != 1 else 'is'} not listed and do{'es' * (n == 1)} not fail the job: the input `scope: all` lists and judges "
            f"{'them' if n != 1 else 'it'}. To adopt them as they are, record them in a baseline, which every run then leaves out: "
            f"`memcheck check --write-baseline {BASELINE_FILE}`, commit the file, and add `baseline: {BASELINE_FILE}` to `.memcheck.yaml`.",
            "",
        ]
    elif scope == "new" and not result.since:
        out += ["No pull request range to compare with: every finding is listed and judged.", ""]

    out += ["### Findings", ""]
    if result.problems:
        out += _findings(result.problems)
    else:
        out.append("No findings.")
    out.append("")

    out += ["### Findings by rule", ""]
    by_rule: dict[str, int] = {}
    for p in result.problems:
        by_rule[p.code] = by_rule.get(p.code, 0) + 1
    if by_rule:
        rules = all_rules()
        out += ["| Rule | Name | Severity | Findings |", "| --- | --- | --- | ---: |"]
        for code, n in sorted(by_rule.items()):
            rule = rules.get(code)
            out.append(f"| {code} | {rule.name if rule else ''} | {rule.severity if rule else ''} | {n} |")
    else:
        out.append("No findings.")
    out.append("")

    out += ["### Index caps", ""]
    if result.usage:
        out += ["| Index | Lines | Bytes |", "| --- | --- | --- |"]
        for index, lines, size, max_lines, max_bytes in result.usage:
            out.append(f"| {_code(index)} | {_usage(lines, max_lines, 'lines')} | {_usage(size, max_bytes, 'bytes')} |")
    else:
        out.append("No MEMORY.md index checked.")
    out.append("")

    out += ["### Guarded paths", ""]
    if guarded.state != "ran":
        out.append(f"Guard {guarded.state}: {_cell(guarded.note)}.")
    elif not guarded.problems:
        out.append(f"No guarded path touched ({guarded.note}).")
    else:
        if guarded.overridden:
            still = "; a secret is never let through, and still fails" if blocking(guarded) else ""
            out += [f"The pull request carries the override label {_code(override_label)}: an agent's change and a reviewed loosening are reported, not failing{still}.", ""]
        else:
            out += [_override_hint(override_label), ""]
        out += [f"In {guarded.note}:", "", "| Path | Rule | Finding |", "| --- | --- | --- |"]
        out += [f"| {_code(p.path)} | {p.code} | {_cell(p.message)} |" for p in guarded.problems]
    return "\n".join(out) + "\n"


def _override_hint(label: str) -> str:
    if not label:
        return "These fail the job; no override label is set (input `override-label`), so the guarded paths must leave the pull request."
    return f"These fail the job. A maintainer who accepts them adds the label {_code(label)} to the pull request, and the job passes with them reported."


def _findings(problems: list[Problem], limit: int = SUMMARY_FINDINGS) -> list[str]:
    """The findings one by one, grouped by file in line order; past ``limit`` (in the
    report's order) a count of the rest."""
    out: list[str] = []
    shown = problems[:limit]
    for path in sorted({p.path for p in shown}):
        out += [f"#### {_code(path)}", "", "| Line | Rule | Severity | Message |", "| ---: | --- | --- | --- |"]
        out += [f"| {p.line} | {p.code} | {p.severity} | {_cell(p.message)} |" for p in shown if p.path == path]
        out.append("")
    rest = len(problems) - len(shown)
    if rest:
        out += [f"… and {rest:,} more finding{'s' * (rest != 1)} (all are in the SARIF file and in `memcheck check`'s output)."]
    elif out:
        out.pop()
    return out


def log_report(result: Lint, guarded: Guard, fmt: str, out: TextIO) -> None:
    """The findings, lint's and guard's, in the log as ``memcheck check --format FMT``
    prints them: annotations by default, else that report, through memcheck's own reporter."""
    problems = sorted(result.problems + guarded.problems)
    if fmt == "github":
        for p in problems:
            out.write(annotation(p) + "\n")
        return
    older = Older(result.base, result.older, None) if result.base else None
    get_reporter(fmt)(problems, out, ReportContext(fail_on=result.fail_on, older=older, checked=result.checked))


def _append(path: str, text: str) -> None:
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(text)


def _usage_error(out: TextIO, message: str) -> int:
    """A bad input: an annotation on the run, and the CLI's one line, exit 2."""
    out.write(f"::error title=memcheck::{escape_data(message)}\n")
    print(f"memcheck: error: {message}", file=sys.stderr)
    return 2


def main(env: Mapping[str, str] | None = None, out: TextIO | None = None) -> int:
    env = os.environ if env is None else env
    out = out or sys.stdout
    try:
        event = read_event(env)
        inputs = read_inputs(env, event)
        judged = judged_range(inputs, event)
        since = (f"the base {_code(judged.name)} ({_code(judged.base[:12])})" if judged.name else f"the base {_code(judged.base[:12])}") if judged.base else ""
        result = lint(inputs, judged.base, since)
    except (UsageError, ConfigError) as e:
        return _usage_error(out, str(e))
    except Exception as e:  # as the CLI does: one line, never a traceback in the log
        out.write(f"::error title=memcheck::internal error: {escape_data(f'{type(e).__name__}: {e}')}\n")
        return 2
    guarded = guard(inputs, judged, event_labels(event))

    log_report(result, guarded, inputs.format, out)
    if guarded.state == "error":
        out.write(f"::error title=memcheck guard::{escape_data(guarded.note)}\n")
    elif guarded.state == "skipped":
        out.write(f"::notice title=memcheck guard::{escape_data(guarded.note)}\n")
    elif blocking(guarded) and inputs.fail_on != "never":
        count = len({p.path for p in blocking(guarded)})
        hint = f"a maintainer who accepts them adds the label {inputs.override_label!r} to the pull request" if inputs.override_label else "no override label is set"
        out.write(f"::error title=memcheck guard::{count} guarded path{'s' * (count != 1)} touched; {escape_data(hint)}\n")
    if judged.state == "error" and not inputs.guard:
        out.write(f"::warning title=memcheck::{escape_data(judged.note)}; every finding was judged\n")

    errors, warnings, _ = counts(result.problems)
    guarded_paths = len({p.path for p in guarded.problems})
    out.write(f"memcheck: errors={errors} warnings={warnings} older={result.older} guarded={guarded_paths} (guard {guarded.state})\n")

    if inputs.sarif:
        # Never through a symlink the pull request commits (`reports -> ~/.ssh`):
        # written whole, in a real folder of the checkout (see memcheck.safe_files).
        try:
            with replacing(inputs.sarif, find_root(Path.cwd())) as f:
                sarif.report(sorted(result.problems + guarded.problems), f, ReportContext())
        except Refused as e:
            return _usage_error(out, f"input sarif: {e}")
        except OSError as e:
            return _usage_error(out, f"input sarif: cannot write {inputs.sarif}: {e.strerror or e}")
    _append(env.get("GITHUB_OUTPUT", ""), f"errors={errors}\nwarnings={warnings}\nolder={result.older}\nguarded={guarded_paths}\n")
    if inputs.summary:
        _append(env.get("GITHUB_STEP_SUMMARY", ""), summary(result, guarded, inputs.override_label, inputs.scope))

    if guarded.state == "error":
        return 2
    # check's verdict: its fail-on (the input's, else the config's), and for a secret
    # the base's settings find, the base's fail-on unless the input says otherwise.
    # Only the workflow's own fail-on: never keeps guard findings from failing; the
    # config's is the pull request's to change, and a change never decides its own guard.
    guard_fails = bool(blocking(guarded)) and inputs.fail_on != "never"
    return 1 if result.fails or guard_fails else 0


if __name__ == "__main__":
    sys.exit(main())
