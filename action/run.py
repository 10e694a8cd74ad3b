"""The GitHub Action, a face of the command line: its inputs become `memcheck check` and `memcheck guard` lines, and
what they print goes where the runner reads it (log, SARIF file, step outputs, job summary). Standard library only, and
``python -I -m memcheck``: nothing of the checkout is imported (a ``memcheck/`` it adds, a PYTHONPATH). Check reports what
the change brings (``--new-since BASE``); guard judges it by the base's settings (a change never decides its own policy),
and the override label by the event. The findings' cache is a fresh folder of this job's: nothing an earlier job left is
believed. Exit status: 0 pass, 1 findings fail the job, 2 an error.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Mapping, TextIO

ZERO = "0" * 40  # a push's before (a new branch) or after (a deleted one)
FETCH_DEPTHS = (50, 250, 1000, 5000, 0)  # a shallow clone fetched deeper in turn until the range is whole; 0: all of it
FORMATS = ("text", "json", "github", "sarif", "gitlab", "junit", "markdown")  # check --format's (a test holds them to memcheck's)
ON, FAIL_ON = ("on", "true", "yes", "1", "off", "false", "no", "0"), ("error", "warning", "never")
SECRET_CODES = ("GRD001", "GRD002")  # no label lets a secret through
NO_RANGE = "No pull request range to compare with: every finding is listed and judged."


class UsageError(Exception):
    pass


class Unjudged(Exception):
    """A range guard does not judge: why, and its state if not error (skipped)."""


def read_inputs(env: Mapping[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The inputs, checked as the command line checks its options, and the event."""
    path = env.get("GITHUB_EVENT_PATH", "")
    try:
        event = json.loads(Path(path).read_text(encoding="utf-8")) if path else {}
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read the event file {path}: {e}") from None
    event = event if isinstance(event, dict) else {}

    def choice(name: str, choices: tuple[str, ...], default: str = "") -> str:
        value = env.get(f"INPUT_{name.upper().replace('-', '_')}", "").strip().lower() or default
        if value and value not in choices:
            raise UsageError(f"input {name} must be {'on or off' if choices is ON else 'one of ' + ', '.join(choices)}, not {value!r}")
        return value

    got: dict[str, Any] = {name: env.get(f"INPUT_{name.upper()}", "").strip() for name in ("config", "sarif", "base", "head")}
    got.update(override_label=env.get("INPUT_OVERRIDE_LABEL", "").strip(), fail_on=choice("fail-on", FAIL_ON))
    got["paths"] = [line.strip() for line in env.get("INPUT_PATHS", "").splitlines() if line.strip()] or ["."]
    if missing := [p for p in got["paths"] if not os.path.lexists(p)]:  # a mistyped store never passes as a clean one
        raise UsageError(f"input paths: {', '.join(missing)}: no such file or folder")
    if (sarif := got["sarif"]) and os.path.isdir(sarif):
        raise UsageError(f"input sarif: {sarif} is a folder; name the file to write, such as {sarif.rstrip('/')}/memcheck.sarif")
    got.update(scope=choice("scope", ("new", "all"), "new"), format=choice("format", FORMATS, "github"))
    got.update({name: choice(name, ON, "on") in ON[:4] for name in ("guard", "summary")})
    return {**got, "base": got["base"] or event_range(event)[0], "head": got["head"] or event_range(event)[1]}, event


def event_range(event: Mapping[str, Any]) -> tuple[str, str, str, str]:
    """Base and head; on a push, the default branch a new branch is judged against, or whose settings judge it too."""
    pr, group, repository = event.get("pull_request"), event.get("merge_group"), event.get("repository")
    if isinstance(pr, dict):
        return str(pr.get("base", {}).get("sha") or ""), str(pr.get("head", {}).get("sha") or ""), "", ""
    if isinstance(group, dict):  # a merge queue's group, judged as its pull requests are
        return str(group.get("base_sha") or ""), str(group.get("head_sha") or ""), "", ""
    before, after = str(event.get("before") or ""), str(event.get("after") or "")
    if after in ("", ZERO) or not before:
        return "", "", "", ""
    branch = str(repository.get("default_branch") or "") if isinstance(repository, dict) else ""
    return ("", after, branch, "") if before == ZERO else (before, after, "", "" if event.get("ref") == f"refs/heads/{branch}" else branch)


def git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], capture_output=True, text=True, encoding="utf-8", errors="replace")


def judged_range(inputs: Mapping[str, Any], event: Mapping[str, Any]) -> dict[str, str]:
    """The commits check compares with and guard judges, fetched where the checkout lacks them: deeper in turn, until base and
    head are here, meet, and no commit of the range names parents a shallow clone lacks (those before it would go unjudged)."""

    def tip(branch: str) -> str:  # the branch's commit on origin, fetched
        ref = f"refs/remotes/origin/{branch}"
        fetched = git("fetch", "--no-tags", "--quiet", *(["--depth=1"] if shallow else []), "origin", f"+refs/heads/{branch}:{ref}")
        found = git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
        return found.stdout.strip() if fetched.returncode == 0 and found.returncode == 0 else ""

    def ready() -> bool:  # base and head are here, meet, and no commit of the range names parents a shallow clone lacks
        if any(git("cat-file", "-e", f"{sha}^{{commit}}").returncode for sha in (base, head)) or git("merge-base", base, head).returncode:
            return False
        roots = git("rev-list", "--max-parents=0", head, "--not", base, "--").stdout.split() if shallow else []
        return not any(re.search("^parent ", git("cat-file", "commit", sha).stdout.partition("\n\n")[0], re.M) for sha in roots)

    base, head, pr = inputs["base"], inputs["head"], event.get("pull_request")
    shallow = git("rev-parse", "--is-shallow-repository").stdout.strip() == "true"
    name = str(pr.get("base", {}).get("ref") or "") if isinstance(pr, dict) and base == event_range(event)[0] else ""
    created, branch = event_range(event)[2:]
    settings_from = tip(branch) if inputs["guard"] and branch and base and head else ""  # fetched before the range is deepened
    if inputs["guard"] and branch and base and head and not settings_from:
        raise Unjudged(f"cannot fetch the default branch {branch!r} from origin, whose settings judge a push to another branch too")
    if not base and head and created:
        base, name = tip(created), created
        if not base:
            raise Unjudged(f"the push created a branch; cannot fetch the default branch {created!r} from origin to judge it against")
        if git("merge-base", "--is-ancestor", head, base).returncode == 0:
            raise Unjudged(f"the pushed commit {head[:12]} is already on the default branch {created}", "skipped")
    if not (base and head):
        raise Unjudged("no pull request range: run on pull_request events, or set the base and head inputs", "skipped")
    for depth in (None, *(FETCH_DEPTHS if shallow else (0,))):  # None: what the checkout holds
        if depth is not None:
            how = [f"--depth={depth}"] if depth else (["--unshallow"] if shallow else [])
            print(f"memcheck: fetching {base[:12]} and {head[:12]} from origin {' '.join(how)}".rstrip(), flush=True)
            fetched = git("fetch", "--no-tags", "--quiet", *how, "origin", base, head)
            if fetched.returncode != 0:
                why = fetched.stderr.strip() or "git fetch failed"
                raise Unjudged(f"cannot fetch {base[:12]} and {head[:12]} from origin ({why}); check out with fetch-depth: 0")
        if ready():
            return {"base": base, "head": head, "name": name, "settings_from": settings_from}
    raise Unjudged(f"{base[:12]} and {head[:12]} have no common ancestor; set the base and head inputs to commits of one history")


def failure(proc: subprocess.CompletedProcess[str]) -> str:
    """Why a command exited 2: its one line, without its prefix."""
    lines = proc.stderr.strip().splitlines()
    return re.sub(r"^memcheck: (error: )?", "", lines[-1]) if lines else f"memcheck exited {proc.returncode}"


def memcheck(cache: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``memcheck ARGS``, isolated (-I: no working folder, no PYTHON* variable in its imports), this job's cache."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRE_COMMIT")} | {"MEMCHECK_CACHE_DIR": cache}
    run = [sys.executable, "-I", "-m", "memcheck", *args]
    return subprocess.run(run, capture_output=True, text=True, encoding="utf-8", errors="replace", env=env)


def flag(name: str, value: str) -> list[str]:
    return [name, value] if value else []


def escape(value: str) -> str:
    """For the runner: ``%`` and all but printable ASCII (CR, LF, what draws nothing) as ``%XX`` bytes, shown as they are."""
    return re.sub("%|[^ -~]", lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), value)


def markup_free(text: str) -> str:  # literal Markdown, as memcheck.output.markdown's cell (which this cannot import)
    text = "".join(ch if ch.isprintable() or ch == " " else f"\\u{ord(ch):04x}" for ch in text.replace("\n", " "))
    return re.sub(r"[!-/:-@\[-`{-~]", r"\\\g<0>", text)


def summary(page: str, judged: Mapping[str, str], scope: str, paths: int | None) -> str:
    """check's Markdown page in the Action's words, with the guarded paths guard found (when it ran)."""
    if judged["base"]:  # check ran with --new-since BASE
        name = f"{markup_free(judged['name'])} (`{judged['base'][:12]}`)" if judged["name"] else f"`{judged['base'][:12]}`"
        page = re.sub(" new since `[^`]*`", lambda _: f" new since the base {name}", page, count=1)
        page = page.replace("not fail: `--all` lists and judges", "not fail the job: the input `scope: all` lists and judges", 1)
    elif scope == "new":
        page = re.sub("\n(?=### Findings\n)", f"\n{NO_RANGE}\n\n", page, count=1)
    return page if paths is None else page.replace("; fail-on: ", f"; **{paths} guarded path{'s' * (paths != 1)}** touched; fail-on: ", 1)


def add_to_sarif(path: str, extra: str) -> None:
    """Guard's results added to check's SARIF (which refused any symlink at ``path``): one run, rules by code."""
    run, more = (doc := json.loads(Path(path).read_text(encoding="utf-8")))["runs"][0], json.loads(extra)["runs"][0]
    rules = {r["id"]: r for r in (*run["tool"]["driver"]["rules"], *more["tool"]["driver"]["rules"])}
    run["tool"]["driver"]["rules"] = [rules[c] for c in sorted(rules)]
    run["results"] = [dict(r, ruleIndex=sorted(rules).index(r["ruleId"])) for r in (*run["results"], *more["results"])]
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=os.path.dirname(os.path.realpath(path)), delete=False) as f:
        f.write(json.dumps(doc, indent=2) + "\n")
    os.chmod(f.name, os.stat(path).st_mode & 0o7777)
    os.replace(f.name, os.path.realpath(path))


def main(env: Mapping[str, str] | None = None, out: TextIO | None = None) -> int:
    env, out = os.environ if env is None else env, out or sys.stdout
    with tempfile.TemporaryDirectory(prefix="memcheck-cache-", ignore_cleanup_errors=True) as cache:
        try:
            return run(env, out, cache)
        except Exception as e:  # a bad input (a UsageError) or a bug: an annotation, and the CLI's one line, never a traceback
            why = str(e) if isinstance(e, UsageError) else f"internal error: {type(e).__name__}: {e}"
            out.write(f"::error title=memcheck::{escape(why)}\n")
            print(f"memcheck: error: {why}", file=sys.stderr)
            return 2


def run(env: Mapping[str, str], out: TextIO, cache: str) -> int:
    inputs, event = read_inputs(env)
    judged, state, note, label = {"base": "", "head": "", "name": "", "settings_from": ""}, "ready", "", inputs["override_label"]
    try:
        judged = judged_range(inputs, event)
    except Unjudged as e:
        note, state = (*e.args, "error")[:2]
    if not inputs["guard"]:
        out.write(f"::warning title=memcheck::{escape(note)}; every finding was judged\n" if state == "error" else "")
        state, note = "off", "guard is off"
    base, config = judged["base"], flag("--config", inputs["config"])
    new_since = [*flag("--new-since", base), *(["--all"] if base and inputs["scope"] == "all" else [])]
    lines = {"check": [*config, *flag("--fail-on", inputs["fail_on"]), *new_since, "--", *inputs["paths"]]}
    lines["guard"] = [*config, "--base", base, "--head", judged["head"], *flag("--settings-from", judged["settings_from"])]
    lines["guard"] += ["--override-label", label, "--event", env["GITHUB_EVENT_PATH"]] if label and env.get("GITHUB_EVENT_PATH") else []
    runs: dict[tuple[str, str], subprocess.CompletedProcess[str]] = {}

    def report(command: str, fmt: str) -> str:  # what check or guard prints in fmt, each run once
        proc = runs[command, fmt] = runs.get((command, fmt)) or memcheck(cache, command, "--format", fmt, *lines[command])
        if proc.returncode not in (0, 1):
            raise UsageError(failure(proc))
        return proc.stdout

    found = json.loads(report("check", "json"))["summary"]
    guarded: dict[str, Any] = {"problems": [], "summary": {}}
    if state == "ready":
        try:
            state, guarded = "ran", json.loads(report("guard", "json"))
        except UsageError as e:
            state, note = "error", str(e)
    problems, refused = guarded["problems"], guarded["summary"].get("override", {}).get("refused")
    blocking = [p for p in problems if p["severity"] == "error"]
    out.write(report("check", inputs["format"]) + (report("guard", inputs["format"]) if state == "ran" else ""))
    if state in ("error", "skipped"):
        out.write(f"::{'error' if state == 'error' else 'notice'} title=memcheck guard::{escape(note)}\n")
    elif blocking and inputs["fail_on"] != "never":  # and how to get past it
        secret, count = any(p["code"] in SECRET_CODES for p in blocking), len({p["path"] for p in blocking})
        hint = f"a maintainer who accepts them adds the label {label!r} to the pull request" if label else "no override label is set"
        hint = f"the label {label!r} does not count: {refused}" if refused else hint
        hint = "a secret must leave the pull request, and be rotated: no override label lets it through" if secret else hint
        out.write(f"::error title=memcheck guard::{count} guarded path{'s' * (count != 1)} touched; {escape(hint)}\n")
    counts = {k: found.get(k, 0) for k in ("errors", "warnings", "older")} | {"guarded": len({p["path"] for p in problems})}
    out.write(f"memcheck: {' '.join(f'{k}={v}' for k, v in counts.items())} (guard {state})\n")
    if inputs["sarif"]:
        written = memcheck(cache, "check", "--format", "sarif", "--output-file", inputs["sarif"], *lines["check"])
        if written.returncode not in (0, 1):
            raise UsageError(failure(written).replace("--output-file ", "input sarif: ", 1))
        if problems:
            add_to_sarif(inputs["sarif"], report("guard", "sarif"))
    page = ""
    if inputs["summary"]:  # check's page in the Action's words, then guard's section (or why guard did not run)
        page = summary(report("check", "markdown"), judged, inputs["scope"], counts["guarded"] if state == "ran" else None) + "\n"
        page += report("guard", "markdown") if state == "ran" else f"### Guarded paths\n\nGuard {state}: {markup_free(note)}.\n"
    for name, text in (("GITHUB_OUTPUT", "".join(f"{k}={v}\n" for k, v in counts.items())), ("GITHUB_STEP_SUMMARY", page)):
        if env.get(name) and text:
            with open(env[name], "a", encoding="utf-8") as f:
                f.write(text)
    # check's verdict (its exit status: the input's fail-on, else the config's); guard's fails the job unless the
    # workflow's own fail-on is never: the config's is the pull request's to change, and it never decides its own guard.
    return 2 if state == "error" else 1 if runs["check", "json"].returncode == 1 or (blocking and inputs["fail_on"] != "never") else 0


if __name__ == "__main__":
    sys.exit(main())
