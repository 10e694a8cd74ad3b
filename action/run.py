"""The GitHub Action, a face of the command line: its inputs become `memcheck check` and `memcheck guard`
lines, and what they print goes where the runner reads it (log, SARIF file, step outputs, job summary).
Standard library only, and ``python -I -m memcheck``: nothing of the checkout is imported (a ``memcheck/``
it adds, a PYTHONPATH). Check reports what the change brings (``--new-since BASE``), guard judges it by
the base's settings: a change never decides its own policy. The findings' cache is a fresh folder of this
job's: nothing an earlier job left is believed. Exit status: 0 pass, 1 findings fail the job, 2 an error.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Mapping, TextIO

ZERO = "0" * 40  # a push's before (a new branch) or after (a deleted one)
FETCH_DEPTHS = (50, 250, 1000, 5000, 0)  # a shallow clone fetched deeper in turn until the range is whole; 0: all of it
FORMATS = ("text", "json", "github", "sarif", "gitlab", "junit", "markdown")  # check --format's (a test holds them to memcheck's)
ON, FAIL_ON, SECRET_CODES = ("on", "true", "yes", "1", "off", "false", "no", "0"), ("error", "warning", "never"), ("GRD001", "GRD002")  # (no label lets a secret through)
IGNORABLE = "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"  # what draws nothing: memcheck's paths.IGNORABLE (a test holds it)


class UsageError(Exception):
    pass


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
    got: dict[str, Any] = {name: env.get(f"INPUT_{name.upper()}", "").strip() for name in ("config", "sarif", "base", "head", "override_label")}
    got.update(fail_on=choice("fail-on", FAIL_ON), paths=[line.strip() for line in env.get("INPUT_PATHS", "").splitlines() if line.strip()] or ["."])
    if missing := [p for p in got["paths"] if not os.path.lexists(p)]:  # a mistyped store never passes as a clean one
        raise UsageError(f"input paths: {', '.join(missing)}: no such file or folder")
    if got["sarif"] and os.path.isdir(got["sarif"]):
        raise UsageError(f"input sarif: {got['sarif']} is a folder; name the file to write, such as {got['sarif'].rstrip('/')}/memcheck.sarif")
    got.update(scope=choice("scope", ("new", "all"), "new"), format=choice("format", FORMATS, "github"))
    got.update({name: choice(name, ON, "on") in ON[:4] for name in ("guard", "summary")})
    return {**got, "base": got["base"] or event_range(event)[0], "head": got["head"] or event_range(event)[1]}, event


def event_range(event: Mapping[str, Any]) -> tuple[str, str, str, str]:
    """The pull request's or push's base and head; for a push, the default branch a new branch is judged against
    (3rd), or whose settings judge a push to another branch too (4th: a loosening pushed first must not judge the next)."""
    pr, group, repository = event.get("pull_request"), event.get("merge_group"), event.get("repository")
    if isinstance(pr, dict) or isinstance(group, dict):  # (a merge queue's group is judged as its pull requests are)
        base, head = (pr.get("base", {}).get("sha"), pr.get("head", {}).get("sha")) if isinstance(pr, dict) else ((group or {}).get("base_sha"), (group or {}).get("head_sha"))
        return str(base or ""), str(head or ""), "", ""
    before, after = str(event.get("before") or ""), str(event.get("after") or "")
    if after in ("", ZERO) or not before:
        return "", "", "", ""
    branch = str(repository.get("default_branch") or "") if isinstance(repository, dict) else ""
    return ("", after, branch, "") if before == ZERO else (before, after, "", "" if event.get("ref") == f"refs/heads/{branch}" else branch)


def labelled_by(event: Mapping[str, Any], label: str) -> str:
    """Why the override label does not count ("" when it does): only a person's counts, and who added it is known only on the run its
    ``labeled`` event starts (the sender: not a Bot, a ``[bot]`` account or an agent's signature, read from the action's own data)."""
    if event.get("action") != "labeled" or not isinstance(event.get("label"), dict) or event["label"].get("name") != label:
        return "who added it is known only on the run its labeled event starts: a person who accepts these commits removes it and adds it again"
    sender: Mapping[str, Any] = event["sender"] if isinstance(event.get("sender"), dict) else {}
    who, data = str(sender.get("login") or ""), Path(__file__).resolve().parents[1] / "src/memcheck/resources/agent-signatures.json"
    agents = {v.casefold() for s in json.loads(data.read_text(encoding="utf-8"))["signatures"] for v in (s.get("name"), *re.findall(r"\+([^@]+)@users\.noreply\.github\.com$", s.get("email", ""))) if v}
    if sender.get("type") == "User" and who and not who.casefold().endswith("[bot]") and who.casefold() not in agents:
        return ""
    return f"{who or 'an unnamed account'} added it, an agent's or a bot's account: it counts only when a person adds it"


def git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], capture_output=True, text=True, encoding="utf-8", errors="replace")


def judged_range(inputs: Mapping[str, Any], event: Mapping[str, Any]) -> dict[str, str]:
    """The commits check compares with and guard judges (state ready, skipped or error, note why),
    fetched where the checkout lacks them: deeper in turn, until base and head are here, meet, and
    no commit of the range names parents a shallow clone lacks (the commits before it would go unjudged)."""
    def tip(branch: str) -> str:  # the branch's commit on origin, fetched
        fetched = git("fetch", "--no-tags", "--quiet", *(["--depth=1"] if shallow else []), "origin", f"+refs/heads/{branch}:refs/remotes/origin/{branch}")
        found = git("rev-parse", "--verify", "--quiet", f"refs/remotes/origin/{branch}^{{commit}}")
        return found.stdout.strip() if fetched.returncode == 0 and found.returncode == 0 else ""
    def ready() -> bool:  # base and head are here, meet, and no commit of the range names parents a shallow clone lacks
        if any(git("cat-file", "-e", f"{sha}^{{commit}}").returncode for sha in (base, head)) or git("merge-base", base, head).returncode:
            return False
        roots = git("rev-list", "--max-parents=0", head, "--not", base, "--").stdout.split() if shallow else []
        return not any(re.search("^parent ", git("cat-file", "commit", sha).stdout.partition("\n\n")[0], re.M) for sha in roots)

    base, head, pr, shallow = inputs["base"], inputs["head"], event.get("pull_request"), git("rev-parse", "--is-shallow-repository").stdout.strip() == "true"
    name = str(pr.get("base", {}).get("ref") or "") if isinstance(pr, dict) and base == event_range(event)[0] else ""
    (created, branch), not_ready = event_range(event)[2:], {"base": "", "head": head}
    settings_from = tip(branch) if inputs["guard"] and branch and base and head else ""  # fetched before the range is deepened
    if inputs["guard"] and branch and base and head and not settings_from:
        return {**not_ready, "state": "error", "note": f"cannot fetch the default branch {branch!r} from origin, whose settings judge a push to another branch too"}
    if not base and head and created:
        base, name = tip(created), created
        if not base:
            return {**not_ready, "state": "error", "note": f"the push created a branch; cannot fetch the default branch {created!r} from origin to judge it against"}
        if git("merge-base", "--is-ancestor", head, base).returncode == 0:
            return {**not_ready, "state": "skipped", "note": f"the pushed commit {head[:12]} is already on the default branch {created}"}
    if not (base and head):
        return {**not_ready, "state": "skipped", "note": "no pull request range: run on pull_request events, or set the base and head inputs"}
    for depth in (None, *(FETCH_DEPTHS if shallow else (0,))):  # None: what the checkout holds
        if depth is not None:
            how = [f"--depth={depth}"] if depth else (["--unshallow"] if shallow else [])
            print(f"memcheck: fetching {base[:12]} and {head[:12]} from origin {' '.join(how)}".rstrip(), flush=True)
            fetched = git("fetch", "--no-tags", "--quiet", *how, "origin", base, head)
            if fetched.returncode != 0:
                return {**not_ready, "state": "error", "note": f"cannot fetch {base[:12]} and {head[:12]} from origin ({fetched.stderr.strip() or 'git fetch failed'}); check out with fetch-depth: 0"}
        if ready():
            return {"base": base, "head": head, "state": "ready", "name": name, "settings_from": settings_from, "branch": branch}
    return {**not_ready, "state": "error", "note": f"{base[:12]} and {head[:12]} have no common ancestor; set the base and head inputs to commits of one history"}


def failure(proc: subprocess.CompletedProcess[str]) -> str:
    """Why a command exited 2: its one line, without its prefix."""
    lines = proc.stderr.strip().splitlines()
    return re.sub(r"^memcheck: (error: )?", "", lines[-1]) if lines else f"memcheck exited {proc.returncode}"


def memcheck(cache: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``memcheck ARGS``, isolated (-I: no working folder, no PYTHON* variable in its imports), this job's cache."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRE_COMMIT")} | {"MEMCHECK_CACHE_DIR": cache}
    return subprocess.run([sys.executable, "-I", "-m", "memcheck", *args], capture_output=True, text=True, encoding="utf-8", errors="replace", env=env)


def escape(value: str, prop: bool = False) -> str:
    """For the runner's parser (``%``, CR, LF, ``:``, ``,`` in a property; a control character or IGNORABLE's as ``%XX``)."""
    value = re.sub("[\x00-\x1f\x7f-\x9f\u2028\u2029" + IGNORABLE + "]", lambda m: "".join(f"%{b:02X}" for b in m.group().encode("latin-1" if m.group() < "\u0100" else "utf-8")), value.replace("%", "%25"))
    return value.replace(":", "%3A").replace(",", "%2C") if prop else value


def markup_free(text: str, span: bool = False) -> str:
    """Text as literal Markdown: memcheck.output.markdown's code (``span``) and cell, which this cannot import."""
    text = "".join(ch if ch.isprintable() or ch == " " else f"\\u{ord(ch):04x}" for ch in (text if span else text.replace("\n", " ")))
    if not span:
        return re.sub(r"[!-/:-@\[-`{-~]", r"\\\g<0>", text)
    text, pad = text.replace("|", "\\|"), " " if text[:1] == "`" or text[-1:] == "`" else ""
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    return f"{fence}{pad}{text}{pad}{fence}"


def summary(markdown: str, judged: Mapping[str, str], guarded: Mapping[str, Any], inputs: Mapping[str, Any]) -> str:
    """check's Markdown page in the Action's words, with the guarded paths touched in a section of their own."""
    label, paths = inputs["override_label"], len({p["path"] for p in guarded["problems"]})
    if judged["base"]:  # check ran with --new-since BASE
        name = markup_free(judged["base"][:12], span=True)
        name = f"{markup_free(judged['name'], span=True)} ({name})" if judged.get("name") else name
        markdown = re.sub(" new since `[^`]*`", lambda _: f" new since the base {name}", markdown, count=1)
        markdown = markdown.replace("not fail: `--all` lists and judges", "not fail the job: the input `scope: all` lists and judges", 1)
    elif inputs["scope"] == "new":
        markdown = markdown.replace("\n### Findings\n", "\nNo pull request range to compare with: every finding is listed and judged.\n\n### Findings\n", 1)
    if guarded["state"] == "ran":
        markdown = markdown.replace("; fail-on: ", f"; **{paths} guarded path{'s' * (paths != 1)}** touched; fail-on: ", 1)
    out, span = [markdown + "\n### Guarded paths", ""], markup_free(label, span=True)
    if guarded["state"] != "ran" or not guarded["problems"]:
        out.append(f"Guard {guarded['state']}: {markup_free(guarded['note'])}." if guarded["state"] != "ran" else f"No guarded path touched ({guarded['note']}).")
        return "\n".join(out) + "\n"
    secrets, reviewed = [p for p in guarded["blocking"] if p["code"] in SECRET_CODES], [p for p in guarded["problems"] if p["code"] not in SECRET_CODES]
    if (guarded["overridden"] and reviewed) or not guarded["blocking"]:  # (nothing blocking and no label's doing: a secret's file deleted, a warning)
        out += [f"The pull request carries the override label {span}: an agent's change and a reviewed loosening are reported, not failing{'; a secret is never let through, and still fails' if secrets else ''}." if guarded["overridden"] and reviewed else "Reported, not failing.", ""]
    elif label and not secrets:
        out += ["These fail the job. " + (f"The pull request carries the override label {span}, which does not count here: {markup_free(guarded['refused'])}." if guarded["refused"] else f"A maintainer who accepts them adds the label {span} to the pull request, and the job passes with them reported."), ""]
    else:
        out += [f"These fail the job; {'a secret is never let through, and still fails, whatever the label' if secrets else 'no override label is set (input `override-label`)'}, so the guarded paths must leave the pull request.", ""]
    out += [f"In {guarded['note']}:", "", "| Path | Rule | Finding |", "| --- | --- | --- |"]
    return "\n".join(out + [f"| {markup_free(p['path'], span=True)} | {p['code']} | {markup_free(p['message'])} |" for p in guarded["problems"]]) + "\n"


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
    env, out, cache = os.environ if env is None else env, out or sys.stdout, tempfile.mkdtemp(prefix="memcheck-cache-")
    try:
        return run(env, out, cache)
    except UsageError as e:  # a bad input: an annotation on the run, and the CLI's one line
        out.write(f"::error title=memcheck::{escape(str(e))}\n")
        print(f"memcheck: error: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # as the CLI does: one line, never a traceback in the log
        out.write(f"::error title=memcheck::internal error: {escape(f'{type(e).__name__}: {e}')}\n")
        return 2
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def run(env: Mapping[str, str], out: TextIO, cache: str) -> int:
    inputs, event = read_inputs(env)
    judged, config = judged_range(inputs, event), ["--config", inputs["config"]] if inputs["config"] else []
    args = [*config, *(["--fail-on", inputs["fail_on"]] if inputs["fail_on"] else []), *(["--new-since", judged["base"]] if judged["base"] else [])]
    args += [*(["--all"] if judged["base"] and inputs["scope"] == "all" else []), "--", *inputs["paths"]]
    lint = {"json": memcheck(cache, "check", "--format", "json", *args)}
    if lint["json"].returncode not in (0, 1):
        raise UsageError(failure(lint["json"]))
    found, pr = json.loads(lint["json"].stdout), event.get("pull_request")
    labelled = isinstance(pr, dict) and inputs["override_label"] in {str(x.get("name")) for x in pr.get("labels", []) if isinstance(x, dict)}
    refused = labelled_by(event, inputs["override_label"]) if labelled else ""
    overridden = labelled and not refused
    gargs = ["guard", *config, "--base", judged["base"], "--head", judged["head"], *(["--settings-from", judged["settings_from"]] if judged.get("settings_from") else [])]
    gargs += ["--allow-label", inputs["override_label"]] if overridden else []
    guarded: dict[str, Any] = {"state": judged["state"], "problems": [], "note": judged.get("note", "")} if inputs["guard"] else {"state": "off", "problems": [], "note": "guard is off"}
    guards = {"json": memcheck(cache, *gargs, "--format", "json")} if inputs["guard"] and judged["state"] == "ready" else {}
    if guards and guards["json"].returncode not in (0, 1):
        guarded.update(state="error", note=failure(guards["json"]))
    elif guards:
        note = f"range {judged['base'][:12]}..{judged['head'][:12]}" + (f", by the settings of {judged['base'][:12]} and of the default branch {judged['branch']}" if judged["settings_from"] else "")
        guarded.update(state="ran", problems=json.loads(guards["json"].stdout)["problems"], note=note)
    # What fails the job: every guard finding, or with the override label the secrets alone.
    guarded.update(overridden=overridden and bool(guarded["problems"]), blocking=[p for p in guarded["problems"] if p["severity"] == "error"], refused=refused)
    fmt, ran = inputs["format"], guarded["state"] == "ran"
    if fmt == "github":
        for p in sorted(found["problems"] + guarded["problems"], key=lambda p: (p["path"], p["line"], p["col"], p["code"], p["message"])):
            props = ",".join(f"{k}={escape(str(v), prop=True)}" for k, v in (("file", p["path"]), ("line", p["line"]), ("col", p["col"]), ("title", p["code"])))
            out.write(f"::{'error' if p['severity'] == 'error' else 'warning'} {props}::{escape(p['message'])}\n")
    else:  # check's report, then guard's, as the commands print them
        lint[fmt] = lint.get(fmt) or memcheck(cache, "check", "--format", fmt, *args)
        guards.update({fmt: guards.get(fmt) or memcheck(cache, *gargs, "--format", fmt)} if ran else {})
        out.write(lint[fmt].stdout + (guards[fmt].stdout if ran else ""))
    if guarded["state"] in ("error", "skipped"):
        out.write(f"::{'error' if guarded['state'] == 'error' else 'notice'} title=memcheck guard::{escape(guarded['note'])}\n")
    elif guarded["blocking"] and inputs["fail_on"] != "never":
        count, label = len({p["path"] for p in guarded["blocking"]}), inputs["override_label"]
        hint = "a secret must leave the pull request, and be rotated: no override label lets it through" if any(p["code"] in SECRET_CODES for p in guarded["blocking"]) else f"the label {label!r} does not count: {refused}" if refused else f"a maintainer who accepts them adds the label {label!r} to the pull request" if label else "no override label is set"
        out.write(f"::error title=memcheck guard::{count} guarded path{'s' * (count != 1)} touched; {escape(hint)}\n")
    if judged["state"] == "error" and not inputs["guard"]:
        out.write(f"::warning title=memcheck::{escape(judged['note'])}; every finding was judged\n")
    counts = {"errors": found["summary"]["errors"], "warnings": found["summary"]["warnings"], "older": found["summary"].get("older", 0), "guarded": len({p["path"] for p in guarded["problems"]})}
    out.write(f"memcheck: {' '.join(f'{k}={v}' for k, v in counts.items())} (guard {guarded['state']})\n")
    if inputs["sarif"]:
        written = memcheck(cache, "check", "--format", "sarif", "--output-file", inputs["sarif"], *args)
        if written.returncode not in (0, 1):
            raise UsageError(failure(written).replace("--output-file ", "input sarif: ", 1))
        if guarded["problems"]:
            add_to_sarif(inputs["sarif"], (guards.get("sarif") or memcheck(cache, *gargs, "--format", "sarif")).stdout)
    page = summary((lint.get("markdown") or memcheck(cache, "check", "--format", "markdown", *args)).stdout, judged, guarded, inputs) if inputs["summary"] else ""
    for name, text in (("GITHUB_OUTPUT", "".join(f"{k}={v}\n" for k, v in counts.items())), ("GITHUB_STEP_SUMMARY", page)):
        if env.get(name) and text:
            with open(env[name], "a", encoding="utf-8") as f:
                f.write(text)
    # check's verdict (its exit status: the input's fail-on, else the config's); guard's fails the job unless the
    # workflow's own fail-on is never: the config's is the pull request's to change, and it never decides its own guard.
    return 2 if guarded["state"] == "error" else 1 if lint["json"].returncode == 1 or (guarded["blocking"] and inputs["fail_on"] != "never") else 0


if __name__ == "__main__":
    sys.exit(main())
