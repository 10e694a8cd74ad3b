"""Old findings never fail new work (``check --new-since REF``, and ``--changed``
against HEAD): the findings the change brings, compared with REF's tree.

The tree judged is checked once, as any check does. REF's findings are worked out
only for what the change touches (a changed memory file or index: its store; a
changed guidance file: every guidance file, since one file's findings can come of
another's text; a skill: every skill; a deleted file: also every guidance file and
skill, which may import or link it), with REF's files read from git
(``workspace.tree``). A finding there that REF's tree also has, matched as a baseline
matches findings (by file, code and what it is about, so one that merely moved to
another line is still old), is older than the change, and so is every finding in
what the change does not touch: counted, not reported.

The change never decides how its own secrets are judged: where it turns a secret
rule off (in ``.memcheck.yaml`` or ``pyproject.toml``), the secret rules of the
files it touches run with REF's settings as well, and fail under REF's
``fail-on`` (the command line's own options still apply: they are the caller's).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from memcheck.baseline import new_since
from memcheck.config import CONFIG_FILES, ConfigError, load_text, load_texts, selected
from memcheck.engine.cache import start
from memcheck.engine.collect import collect
from memcheck.engine.found import Found, Since
from memcheck.engine.targets import looked_at, targets_for
from memcheck.problem import failing
from memcheck.safe_files import within
from memcheck.workspace.agentfiles import find_agent_files
from memcheck.workspace.discover import Workspace
from memcheck.workspace.selection import skill_targets
from memcheck.workspace.targets import Targets
from memcheck.workspace.tree import TreeSource

if TYPE_CHECKING:
    from memcheck.config import Config
    from memcheck.problem import Problem
    from memcheck.workspace.source import Source


def collect_since(config: Config, source: Source, since: Since, paths: Sequence[str] | None, deleted: Sequence[str]) -> Found:
    """The findings of the tree ``source`` holds that ``since`` does not have.

    ``paths`` and ``deleted`` as for any check (with ``since.touched``, what the change
    touches: then only that is checked)."""
    ws = start(Workspace(config, source))
    ref_source = TreeSource(config.root, since.tree, since.folders)
    try:
        if since.touched is not None:
            touched = list(since.touched)
            whole = mine = touched_targets(ws, touched)
        else:
            touched = _differs(config.root, since.tree, source, ref_source)
            whole = targets_for(ws, paths, judge=False, deleted=deleted)
            mine = _among(touched_targets(ws, touched), whole)
        if since.compare:
            rest = _without(whole, mine)
            at_ref = start(Workspace(config, ref_source))
            if at_ref.tracker is not None:
                # The tree at the ref is checked first, then the change's: each memory
                # the change leaves alone has the same content in both, and its pieces
                # kept from the first serve the second, even on a first run.
                at_ref.tracker.pieces_serve_this_run = True
            # A finding of a file the change only renamed is older: REF's is matched
            # under the file's new name, as git's rename detection pairs them.
            # (A rename deletes a path: where every path the change touches is still there,
            # git is not asked; touched_targets asked the same questions.)
            moved = _renamed(config.root, since.tree, source) if not _there(ws, touched).issuperset(touched) else {}
            before = [p._replace(path=moved.get(p.path, p.path)) for p in collect(at_ref, _alike(at_ref, mine))]
            problems, older = new_since(collect(ws, mine), before, set(touched))
            older += len(collect(ws, rest)) if any(rest) else 0
        else:
            problems, older = collect(ws, whole), 0
        fails = bool(failing(problems, config.fail_on))
        secrets, fail_on = _secrets_by_ref(config, source, since, ref_source, touched)
    finally:
        ref_source.close()
    if secrets:
        problems = sorted({*problems, *secrets})
        fails = fails or bool(failing(secrets, fail_on))
    scope = "change" if since.touched is not None else "tree" if paths is None else "paths"
    return Found(problems, older, fails, [s.index for s in whole.stores if s.has_index], looked_at(ws, whole, scope))


def touched_targets(ws: Workspace, touched: Sequence[str]) -> Targets:
    """What a change to ``touched`` (repository-relative paths, on either side of it)
    can bring findings to, in the tree ``ws`` reads: the stores it touches, and every
    guidance file or skill when it touches one (see the module's docstring)."""
    there = _there(ws, touched)
    root = ws.root
    found = targets_for(ws, [str(root / p) for p in touched if p in there], deleted=[str(root / p) for p in touched if p not in there])
    if found.guidance:
        found = found._replace(guidance=list(ws.guidance))
    if found.skills:
        found = found._replace(skills=skill_targets(ws))
    if found.kind_files:
        found = found._replace(kind_files=find_agent_files(ws).paths())
    return found


def _alike(ws: Workspace, part: Targets) -> Targets:
    """In REF's tree, what ``part`` is in the tree judged: the stores of the same
    folders, and every guidance file or skill where it has them. Only what the tree
    judged has can be new; REF's findings are what they are matched against."""
    stores = ws.stores_among({s.folder for s in part.stores})
    return Targets(
        list(stores),
        list(ws.guidance) if part.guidance else [],
        skill_targets(ws) if part.skills else [],
        find_agent_files(ws).paths() if part.kind_files else [],
        [c for c in part.configs if c in ws.file_set],
    )


def _there(ws: Workspace, paths: Sequence[str]) -> set[str]:
    """Of ``paths``, those the tree holds: listed, and there (git's index lists a file
    deleted from the disk until the deletion is staged)."""
    listed = set(ws.source.listing().files)
    return {p for p in paths if p in listed and (ws.source.is_file(p) or ws.source.link_out(p) is not None)}


def _differs(root: Path, tree: str, source: Source, ref_source: TreeSource) -> list[str]:
    """The paths where the tree ``source`` holds differs from ``tree``: what git sees
    changed (in its index, with a staged source), and what either side lists alone
    (files not yet added, deleted ones)."""
    from memcheck import git

    changed = git.changed_names(root, ["--cached", tree] if source.staged is not None else [tree])
    if changed is None:
        raise ConfigError(f"cannot read what changed since {tree[:12]}")
    return sorted(set(changed) | set(source.listing().files).symmetric_difference(ref_source.listing().files))


def _renamed(root: Path, tree: str, source: Source) -> dict[str, str]:
    from memcheck import git

    return git.renamed_files(root, ["--cached", tree] if source.staged is not None else [tree])


def _among(part: Targets, whole: Targets) -> Targets:
    """The targets of ``whole`` that ``part`` names (the stores as ``whole`` found them)."""
    return _pick(whole, part, True)


def _without(whole: Targets, part: Targets) -> Targets:
    return _pick(whole, part, False)


def _pick(whole: Targets, part: Targets, named: bool) -> Targets:
    """The targets of ``whole`` that ``part`` names (``named``) or does not."""
    folders, guidance, skills, others, configs = {s.folder for s in part.stores}, set(part.guidance), set(part.skills), set(part.kind_files), set(part.configs)
    return Targets(
        [s for s in whole.stores if (s.folder in folders) == named],
        [g for g in whole.guidance if (g in guidance) == named],
        [k for k in whole.skills if (k in skills) == named],
        [a for a in whole.kind_files if (a in others) == named],
        [c for c in whole.configs if (c in configs) == named],
    )


def _secrets_by_ref(
    config: Config,
    source: Source,
    since: Since,
    ref_source: TreeSource,
    touched: Sequence[str],
) -> tuple[list[Problem], str]:
    """The secret findings REF's settings make in the files the change touches, and
    the fail-on they are judged by: none when the change turns no secret rule off."""
    ref_config = _settings_at(config, since, ref_source)
    if ref_config is None:
        return [], config.fail_on  # unreadable there: `memcheck guard` reports that (GRD003)
    if since.options is not None:
        ref_config = since.options(ref_config)
    if ref_config._replace(source=config.source) == config:
        return [], config.fail_on  # the usual commit: the settings as they were
    # Imported only now: the guard's policy brings its tiers, categories and patterns
    # (5 ms of a commit hook that compares the same settings, as nearly every one does).
    from memcheck.guard.policy import policy, secret_codes, secrets_off

    if not secrets_off(policy(ref_config), policy(config)):
        return [], config.fail_on
    codes = tuple(sorted(selected(secret_codes(), ref_config)))
    if not codes:
        return [], config.fail_on
    ws = start(Workspace(ref_config._replace(select=codes, ignore=(), baseline=None), source))
    changed = set(touched)
    found = collect(ws, targets_for(ws, [str(ws.root / p) for p in sorted(_there(ws, touched))]))
    return [p for p in found if p.path in changed], ref_config.fail_on


def _settings_at(config: Config, since: Since, ref_source: TreeSource) -> Config | None:
    """The settings REF holds (the ``--config`` file, where it is in the repository);
    None when they cannot be read, or when ``--config`` names a file outside it
    (which the change cannot edit)."""
    names: tuple[str, ...] = CONFIG_FILES
    settings_file = since.settings_file
    if settings_file is not None:
        inside = within(os.path.abspath(settings_file), config.root)
        if inside is None:
            return None
        names = (Path(inside).as_posix(),)
    texts: dict[str, str | None] = {}
    try:
        for name in names:
            data = ref_source.blob_at(since.settings, name)
            texts[name] = None if data is None else data.decode("utf-8")
        shown = since.ref
        if settings_file is None:
            return load_texts(config.root, texts, lambda name: f"{shown}:{name}")
        (name,) = names
        return load_text(config.root, name, texts[name], f"{shown}:{name}")
    except (ConfigError, UnicodeDecodeError):
        return None
