"""The gates that run memcheck, and what a change to them loosens (GRD003).

memcheck's hooks in ``.pre-commit-config.yaml`` and its step in a GitHub workflow are
what run the guard at all: an agent that empties the pre-commit config in the commit
that also edits a lock file runs no guard on it, and a pull request that sets
``guard: off`` on the Action's step turns the check it is judged by off. Both files
are in the agents tier (``runs-commands``), so a person edits them freely; but a
change that removes memcheck's hooks or step, or weakens them, is a loosening for
everyone, judged as one to the guard's own settings is: against the commit before
it (each parent of a merge), and landed on its own for a reviewer.

What counts as weakening a hook: it is gone, it comes from another repository, it
runs another command (``entry``, ``language``, ``pass_filenames``, ``args`` other
than the lint hooks' ``--all``), it runs at fewer of the commit, merge and push
stages (the message hook: of prepare-commit-msg and commit-msg), it may skip commits
(``always_run: false``), pre-commit.ci skips it, or the push or message hooks are no
longer installed. A workflow's memcheck step: it is gone, it comes from another
action, its guard is off, no finding fails it (``fail-on: never``, in any case, as
the Action reads it), its config, paths, range, override label or scope change, its
guard, fail-on or scope is set by an expression, its command changes, the step
or its job gains a condition or ``continue-on-error``, or the workflow stops running
on an event it ran on (or runs on fewer of them: its filters). A pull request's own workflow
runs from its own branch, so only a protected workflow (a ruleset or a required
workflow) stops one that drops the step; what is reported here is the rest.

Nothing here asks git but ``loosened_in``, which reads the files at the commits named.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from memcheck import gitrefs, lazy_regex
from memcheck.changes import Change
from memcheck.guard.findings import loosened
from memcheck.guard.trust import Step
from memcheck.problem import Problem
from memcheck.records import NamedTuple

PRE_COMMIT = ".pre-commit-config.yaml"  # the only name pre-commit reads unless told (-c)
WORKFLOWS = ".github/workflows/"  # GitHub runs the root's workflows only
HOOK_IDS = ("memcheck", "memcheck-fix", "memcheck-guard", "memcheck-guard-message")
# The stages each hook runs at by default (.pre-commit-hooks.yaml), and the stages
# that judge a change: `manual` runs only when asked.
_MESSAGE_STAGES = ("prepare-commit-msg", "commit-msg")
_DEFAULT_STAGES = {
    "memcheck": ("pre-commit", "pre-merge-commit", "manual"),
    "memcheck-fix": ("pre-commit", "pre-merge-commit", "manual"),
    "memcheck-guard": ("pre-commit", "pre-push", "manual"),
    "memcheck-guard-message": _MESSAGE_STAGES,
}
_JUDGING = ("pre-commit", "pre-merge-commit", "pre-push")
# The message hook judges at the two message stages: prepare-commit-msg is the one git
# runs for the commits its sequencer makes (revert, cherry-pick, rebase), which run no
# pre-commit hook. (Only for it: a local hook that runs `memcheck guard` and names no
# stages is not taken to judge commit messages.)
_JUDGING_OF = {"memcheck-guard-message": (*_JUDGING, *_MESSAGE_STAGES)}
# The hook types `pre-commit install` must install for a hook at these stages to run
# at all; the pre-commit type is installed whatever the list says.
_INSTALLED = ("pre-push", *_MESSAGE_STAGES)
_OLD_STAGE_NAMES = {"commit": "pre-commit", "push": "pre-push", "merge-commit": "pre-merge-commit"}
_LINT_ONLY_ARGS = frozenset({"--all"})  # asks the lint hooks for more, never less
_RUNS_MEMCHECK = lazy_regex.compile(r"\bmemcheck\s+(guard|check|fix)\b|-m\s+memcheck\b")
_MEMCHECK_ACTION = lazy_regex.compile(r"(^|/)memcheck(/|$)", re.I)
_STEP_INPUTS = ("config", "paths", "base", "head", "override-label")


def is_gate(path: str) -> bool:
    """Whether ``path`` is where memcheck's hooks or a workflow live."""
    if path == PRE_COMMIT:
        return True
    return path.startswith(WORKFLOWS) and "/" not in path[len(WORKFLOWS) :] and path.endswith((".yml", ".yaml"))


def touched(changes: Iterable[Change]) -> dict[str, set[str]]:
    """Commit ("" for the staged changes) -> the gates its changes touch, either
    side of a rename; a change seen through a symlink to a folder is the real path's,
    one through a symlink to the file itself (``.pre-commit-config.yaml -> tools/t``)
    the link's: git reads the gate through the link, as every checkout does."""
    found: dict[str, set[str]] = {}
    for change in changes:
        if change.via and change.via != change.path:
            continue
        for path in (change.path, change.source):
            if path and is_gate(path):
                found.setdefault(change.commit, set()).add(path)
    return found


def loosened_in(where: Path, steps: Sequence[tuple[Step, Iterable[str]]]) -> list[Problem]:
    """GRD003 for each gate (of the paths given with each step) that the step loosens
    against every one of its parents (a root commit has nothing to loosen), read from
    git in one call."""
    wanted = [(rev, path) for step, paths in steps for rev in (step.commit, *step.parents) for path in paths]
    if not wanted:
        return []
    stored = gitrefs.stored_at(where, wanted, contents=True)
    by_path: dict[str, list[tuple[str, list[str]]]] = {}
    for step, paths in steps:
        for path in sorted(paths):
            judge = pre_commit_loosenings if path == PRE_COMMIT else workflow_loosenings
            after = _text(stored[(step.commit, path)])
            found = [judge(_text(stored[(parent, path)]), after) for parent in step.parents]
            items = [item for item in found[0] if all(item in f for f in found[1:])] if found else []
            if items:
                by_path.setdefault(path, []).append((step.label, items))
    return [loosened(path, found_at) for path, found_at in sorted(by_path.items())]


class _Unreadable(NamedTuple):
    why: str


def _text(found: gitrefs.Stored) -> str | None | _Unreadable:
    """What a commit holds at a gate: its text, None for no file, or why it cannot be read."""
    if found.problem:
        return _Unreadable(found.problem)
    if found.data is None:
        return None
    try:
        return found.data.decode("utf-8")
    except UnicodeDecodeError:
        return _Unreadable("not UTF-8")


def _parsed(text: str | None | _Unreadable) -> object | _Unreadable:
    if text is None or isinstance(text, _Unreadable):
        return text
    from memcheck.text import yamlload  # only when a gate changed: a commit hook's usual run never parses YAML here

    try:
        return yamlload.load_data(text)
    except Exception as e:  # noqa: BLE001 (yaml's errors, and what PyYAML's constructor raises on a bad value)
        return _Unreadable(f"invalid YAML: {str(e).splitlines()[0] if str(e) else type(e).__name__}")


def _unreadable(after: _Unreadable, what: str) -> list[str]:
    return [f"leaves it unreadable ({after.why}), so {what} cannot be told"]


# --- .pre-commit-config.yaml ----------------------------------------------------------


class _Hook(NamedTuple):
    repo: str
    runs: tuple[str, ...]  # entry, language, pass_filenames as given ("" when not)
    args: tuple[str, ...]
    stages: frozenset[str]  # the stages that judge a change it runs at
    always_run: bool


def _hooks(data: object) -> tuple[dict[str, _Hook], frozenset[str], frozenset[str]]:
    """memcheck's hooks by id, the hook types ``pre-commit install`` installs (empty:
    its default), and the hook ids pre-commit.ci skips."""
    if not isinstance(data, dict):
        return {}, frozenset(), frozenset()
    default_stages = data.get("default_stages")
    found: dict[str, _Hook] = {}
    repos = data.get("repos")
    for repo in repos if isinstance(repos, list) else ():
        if not isinstance(repo, dict) or not isinstance(repo.get("hooks"), list):
            continue
        url = str(repo.get("repo", ""))
        for hook in repo["hooks"]:
            if not isinstance(hook, dict):
                continue
            hook_id = str(hook.get("id", ""))
            local = url in ("local", "meta")
            if not (hook_id in HOOK_IDS and not local) and not (local and _RUNS_MEMCHECK.search(str(hook.get("entry", "")))):
                continue
            stages = hook.get("stages", default_stages)
            if not isinstance(stages, list):
                stages = _DEFAULT_STAGES.get(hook_id, _JUDGING) if not local else _JUDGING
            args = hook.get("args")
            found.setdefault(hook_id, _Hook(
                _repo_name(url),
                tuple(str(hook.get(key, "")) for key in ("entry", "language", "pass_filenames")) if not local else (str(hook.get("entry", "")), str(hook.get("language", "")), ""),
                tuple(map(str, args)) if isinstance(args, list) else (),
                frozenset(_OLD_STAGE_NAMES.get(str(s), str(s)) for s in stages) & frozenset(_JUDGING_OF.get(hook_id, _JUDGING)),
                hook.get("always_run", True) is not False,
            ))  # fmt: skip
    types = data.get("default_install_hook_types")
    ci = data.get("ci")
    skipped = ci.get("skip") if isinstance(ci, dict) else None
    return (
        found,
        frozenset(map(str, types)) if isinstance(types, list) else frozenset(),
        frozenset(map(str, skipped)) if isinstance(skipped, list) else frozenset(),
    )


def _repo_name(url: str) -> str:
    """A repository URL as compared: ``https://github.com/memcheck/memcheck.git/`` is
    ``github.com/memcheck/memcheck``."""
    name = re.sub(r"^[a-z+]+://|^git@", "", url.strip().lower()).replace(":", "/")
    return name.rstrip("/").removesuffix(".git")


def pre_commit_loosenings(before_text: str | None | _Unreadable, after_text: str | None | _Unreadable) -> list[str]:
    before_data = _parsed(before_text)
    if isinstance(before_data, _Unreadable):
        return []  # nothing could be told of it before: its hooks were not running either
    before, before_types, before_skipped = _hooks(before_data)
    if not before:
        return []
    after_data = _parsed(after_text)
    if isinstance(after_data, _Unreadable):
        return _unreadable(after_data, "whether memcheck's hooks still run")
    after, after_types, after_skipped = _hooks(after_data)
    found = []
    for hook_id, was in before.items():
        now = after.get(hook_id)
        if now is None:
            found.append(f"removes the {hook_id} hook")
            continue
        if now.repo != was.repo:
            found.append(f"takes the {hook_id} hook from another repository ({now.repo or 'none'})")
        if now.runs != was.runs:
            found.append(f"changes the command the {hook_id} hook runs (entry, language or pass_filenames)")
        if now.args != was.args and not (
            set(was.args) <= set(now.args) and set(now.args) - set(was.args) <= _LINT_ONLY_ARGS and hook_id != "memcheck-guard"
        ):
            found.append(f"changes the {hook_id} hook's args ({' '.join(now.args) or 'none'})")
        found += [f"stops running the {hook_id} hook at {stage} (stages)" for stage in sorted(was.stages - now.stages)]
        if was.always_run and not now.always_run:
            found.append(f"lets the {hook_id} hook skip commits (always_run: false)")
        if hook_id in after_skipped - before_skipped:
            found.append(f"skips the {hook_id} hook on pre-commit.ci (ci.skip)")
    found += [
        f"stops installing the {kind} hook (default_install_hook_types)"
        for kind in _INSTALLED
        if kind in before_types and kind not in after_types and any(kind in h.stages for h in after.values())
    ]
    return found


# --- .github/workflows/*.yml ----------------------------------------------------------


class _Step(NamedTuple):
    uses: str  # the action, without its version
    inputs: Mapping[str, str]
    run: str
    condition: str  # the step's `if` and its job's
    may_fail: bool  # continue-on-error, on the step or its job


def _steps(data: object) -> tuple[dict[tuple[str, int], _Step], dict[str, object]]:
    """The memcheck steps of a workflow by (job, their order in it), and its triggers."""
    if not isinstance(data, dict):
        return {}, {}
    found: dict[tuple[str, int], _Step] = {}
    jobs = data.get("jobs")
    for job_id, job in jobs.items() if isinstance(jobs, dict) else ():
        if not isinstance(job, dict) or not isinstance(job.get("steps"), list):
            continue
        mine = 0
        for step in job["steps"]:
            if not isinstance(step, dict):
                continue
            uses = str(step.get("uses", "")).partition("@")[0].lower()
            run = str(step.get("run", ""))
            if not (_MEMCHECK_ACTION.search(uses) or _RUNS_MEMCHECK.search(run)):
                continue
            inputs = step.get("with")
            found[(str(job_id), mine)] = _Step(
                uses,
                # (YAML 1.1 reads off and no as false; GitHub passes the text)
                {str(k): "false" if v is False else "true" if v is True else str(v) for k, v in inputs.items()}
                if isinstance(inputs, dict)
                else {},
                run,
                f"{job.get('if', '')}|{step.get('if', '')}",
                _truthy(job.get("continue-on-error")) or _truthy(step.get("continue-on-error")),
            )
            mine += 1
    # YAML 1.1 reads the key `on` as true
    triggers = data.get("on", data.get(True))
    if isinstance(triggers, str):
        triggers = {triggers: None}
    elif isinstance(triggers, list):
        triggers = {str(t): None for t in triggers}
    return found, ({str(k): v for k, v in triggers.items()} if isinstance(triggers, dict) else {})


def _truthy(value: object) -> bool:
    return value is True or str(value).strip().lower() in ("true", "${{ true }}")


def _off(value: str | None) -> bool:
    return value is not None and value.strip().lower() in ("off", "false", "no", "0")


# The inputs the Action reads as one of a few words, stripped and in any case
# (action/run.py's ``choice``): compared as it reads them, so ``fail-on: NEVER`` is
# ``never``. (The others are compared as they are: any change to them is one.)
_CHOICES = ("guard", "fail-on", "scope")
_EXPRESSION = "${{"


def _choice(step: _Step, key: str, default: str = "") -> str:
    return step.inputs.get(key, "").strip().lower() or default


def workflow_loosenings(before_text: str | None | _Unreadable, after_text: str | None | _Unreadable) -> list[str]:
    before_data = _parsed(before_text)
    if isinstance(before_data, _Unreadable):
        return []
    before, before_on = _steps(before_data)
    if not before:
        return []
    after_data = _parsed(after_text)
    if isinstance(after_data, _Unreadable):
        return _unreadable(after_data, "whether memcheck's step still runs")
    after, after_on = _steps(after_data)
    found = []
    for (job, n), was in before.items():
        name = f"the memcheck step of job {job}" if n == 0 else f"memcheck step {n + 1} of job {job}"
        now = after.get((job, n))
        if now is None:
            found.append(f"removes {name}")
            continue
        if now.uses != was.uses:
            found.append(f"takes {name} from another action ({now.uses or 'a run line'})")
        if _off(now.inputs.get("guard")) and not _off(was.inputs.get("guard")):
            found.append(f"turns the guard off in {name} (its guard input)")
        if _choice(now, "fail-on") == "never" and _choice(was, "fail-on") != "never":
            found.append(f"makes no finding fail {name} (fail-on: never)")
        if _choice(was, "scope", "new") == "all" and _choice(now, "scope", "new") != "all":
            found.append(f"narrows {name} to new findings (scope)")
        # An expression is worked out on the runner, where its value may be any of
        # them (``${{ github.actor == 'x' && 'off' || 'on' }}``): what it stands for
        # cannot be told here, so one put in place of what was there is a change.
        found += [
            f"sets the {key} of {name} by an expression"
            for key in _CHOICES
            if _EXPRESSION in now.inputs.get(key, "") and now.inputs.get(key) != was.inputs.get(key)
        ]
        found += [f"changes the {key} of {name}" for key in _STEP_INPUTS if now.inputs.get(key) != was.inputs.get(key)]
        if now.run != was.run:
            found.append(f"changes the command {name} runs")
        if now.condition != was.condition:
            found.append(f"changes when {name} runs (if)")
        if now.may_fail and not was.may_fail:
            found.append(f"lets {name} fail without failing the job (continue-on-error)")
    for event, filters in before_on.items():
        if event not in after_on:
            found.append(f"stops running the workflow on {event}")
        elif _narrower(filters, after_on[event]):
            found.append(f"runs the workflow on fewer {event} events (its filters)")
    return found


def _narrower(before: object, after: object) -> bool:
    """Whether an event's filters (``types``, ``branches``, ``paths``, their
    ``-ignore`` forms) let fewer events through after than before: a filter added, an
    item taken from a list of what runs it, or one added to a list of what does not.
    Filters this cannot read are compared as they are."""
    if before == after or not after:
        return False
    before = before if isinstance(before, dict) else {}
    if not isinstance(after, dict):
        return True
    for key, now in after.items():
        was = before.get(key)
        if was is None:
            return True  # a new filter: only what it names runs it (or what it ignores no longer does)
        if not (isinstance(was, list) and isinstance(now, list)):
            if was != now:
                return True
            continue
        dropped, added = {str(v) for v in was} - {str(v) for v in now}, {str(v) for v in now} - {str(v) for v in was}
        if added if str(key).endswith("-ignore") else dropped:
            return True
    return False
