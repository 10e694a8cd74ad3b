"""Which settings judge a change, and what a change to them loosens (GRD003, GRD005).

The change under review never decides its own policy: history is judged by the
settings of the commit it goes into (a range by its base, a push by the remote's
copy of the branch and its default branch, staged changes by HEAD; the Action on a
push event by the previous tip's and the default branch's), read from that commit,
never from the working tree. A commit that loosens those settings is a finding of
its own (GRD003), and so is a commit whose settings cannot be read (they do not
parse, are not UTF-8, or are a link out of the repository): what they let through
is unknown, so they fail closed. A commit that turns a secret rule off is GRD005.
Paths mode and ``--list`` judge no change: they use the working tree's settings, so
a change to them can be tried before it is committed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from memcheck import git, gitrefs
from memcheck.changes import Change
from memcheck.checks.guard.guard_loosened import GRD003
from memcheck.checks.guard.secret_rules_off import GRD005
from memcheck.config import CONFIG_FILES, Config, ConfigError, default_config, find_root, load, load_text, load_texts
from memcheck.guard.findings import Judge, loosened
from memcheck.guard.policy import loosenings, policy, secrets_off, strictest
from memcheck.paths import ancestors, parent
from memcheck.problem import Problem
from memcheck.records import NamedTuple
from memcheck.safe_files import within


class Settings(NamedTuple):
    """Where guard's settings live: files of the repository, read from the commit
    that judges a change, or a ``--config`` file outside the repository, read as it is."""

    root: Path
    files: tuple[str, ...]  # repository-relative; the first that exists holds the settings
    outside: Path | None = None

    def at(
        self,
        where: Path,
        commits: Iterable[str],
        shown_as: Mapping[str, str] | None = None,
        read: Mapping[tuple[str, str], gitrefs.Stored] | None = None,
    ) -> dict[str, Config | ConfigError]:
        """The settings each commit (or tree) holds, by commit: a ``ConfigError`` where
        they cannot be read. One git call, however many commits; none when ``read``
        holds them (``gitrefs.stored_at`` with their contents)."""
        commits = list(dict.fromkeys(commits))
        if self.outside is not None:
            outside = load(self.root, self.outside)
            return {commit: outside for commit in commits}
        stored = read if read is not None else gitrefs.stored_at(where, [(c, f) for c in commits for f in self.files], contents=True)
        configs: dict[str, Config | ConfigError] = {}
        for commit in commits:
            name = (shown_as or {}).get(commit, commit[:7])
            try:
                configs[commit] = self._config({f: stored[(commit, f)] for f in self.files}, name)
            except ConfigError as e:
                configs[commit] = e
        return configs

    def _config(self, files: Mapping[str, gitrefs.Stored], commit: str) -> Config:
        decoded: dict[str, str | None] = {}
        for name, found in files.items():
            if found.problem:
                raise ConfigError(
                    f"{commit}:{name} is {found.problem}; guard reads its settings from the commit, so it needs the file there"
                )
            if found.blob is None or found.data is None:
                decoded[name] = None
                continue
            try:
                decoded[name] = found.data.decode("utf-8")
            except UnicodeDecodeError as e:
                raise ConfigError(f"{commit}:{name}: cannot read: {e}") from None
        if self.files == CONFIG_FILES:
            return load_texts(self.root, decoded, lambda name: f"{commit}:{name}")
        (name,) = self.files
        return load_text(self.root, name, decoded[name], f"{commit}:{name}")

    def key(self, stored: Mapping[tuple[str, str], gitrefs.Stored], commit: str) -> tuple[str, gitrefs.Stored] | None:
        """Which file holds a commit's settings, and what it holds: commits with the
        same key have the same settings."""
        for name in self.files:
            found = stored[(commit, name)]
            if found.blob is not None or found.problem:
                return name, found
        return None


def settings_for(root: Path, cwd: Path, config_file: str | None) -> Settings:
    """Where the settings that judge a change live: the config files of the
    repository, or the ``--config`` file."""
    if config_file is None:
        return Settings(root, CONFIG_FILES)
    given = Path(os.path.abspath(os.path.join(cwd, config_file)))
    if not given.is_file():
        raise ConfigError(f"config file not found: {config_file}")
    # In the repository as written (no link followed: a folder that is a link out of
    # it is the repository's link, which git refuses to follow out of the commit),
    # the file is read from the judging commit like any other setting: the change
    # under review may edit it too.
    root = Path(os.path.realpath(root))
    inside = within(given, root)
    if inside is not None:
        return Settings(root, (Path(inside).as_posix(),))
    return Settings(root, (), Path(os.path.realpath(given.parent)) / given.name)


def disk_settings(cwd: Path, config_file: str | None) -> tuple[Config, bool]:
    """The working tree's settings, for paths mode and ``--list``, and whether the
    folder is in a git work tree."""
    top = git.work_tree(cwd)
    return load(top or find_root(cwd), Path(config_file) if config_file else None), top is not None


def trusted(settings: Settings, where: Path, names: Mapping[str, str], defaults: bool, how: str) -> tuple[Config, Judge]:
    """The settings that judge the change, and the guard they make: the strictest
    of those of the commits ``names`` names (commit -> how messages name it) and,
    with ``defaults`` (or no commit at all: a first commit, a push with nothing to
    build on), of the defaults. Broken settings there are an error that says how to
    get past it: the fix itself is judged by them. ``how``: how to land a fix past
    the guard."""
    configs: list[Config] = []
    if settings.outside is not None:
        configs.append(load(settings.root, settings.outside))
    else:
        if defaults or not names:
            configs.append(default_config(settings.root))
        for commit, found in settings.at(where, list(names), names).items():
            if isinstance(found, ConfigError):
                raise ConfigError(f"{found} (guard reads its settings from {names[commit]}: {how})") from None
            configs.append(found)
    config = strictest(configs)
    try:
        return config, Judge(config.guard, root=str(settings.root))
    except ConfigError as e:  # a pattern git cannot read
        if settings.outside is not None or not names:
            raise
        raise ConfigError(f"{e} (guard reads its settings from {', '.join(names.values())}: {how})") from None


def may_change_settings(settings: Settings, changes: Sequence[Change], links: Mapping[str, str]) -> bool:
    """Whether the staged tree's settings can differ from HEAD's: a change touches a
    settings file or a folder above one, or one of those is a symlink (read through
    it, the settings change with whatever it points at). Otherwise every path on the
    way to them is as HEAD has it."""
    if settings.outside is not None:
        return False
    spots = {spot for name in settings.files for spot in (name, *ancestors(parent(name))) if spot}
    touched = {change.path for change in changes} | {change.source for change in changes}
    return not spots.isdisjoint(touched) or any(spot in links for spot in spots)


# --- what a change to them loosens -----------------------------------------------


class Step(NamedTuple):
    """A commit (or the staged tree) whose settings are compared with its parents'."""

    commit: str
    parents: tuple[str, ...]
    label: str  # as findings name it


class SettingsChange(NamedTuple):
    """A step whose settings differ from every parent's, read: the file that holds
    them, how findings name the step, its settings (or why they cannot be read) and
    its parents'."""

    path: str
    label: str  # "" for the staged changes
    after: Config | str  # a text: why the step's settings cannot be read
    before: tuple[Config | ConfigError, ...] = ()


_READ_WHOLE = 16  # commits whose settings are read with their blobs' ids


def loosened_in(settings: Settings, where: Path, steps: Sequence[Step]) -> list[Problem]:
    """GRD003 and GRD005 for the steps (see ``judged``), their settings read from git.

    Settings are compared by the blob that holds them, followed through symlinks, so
    a commit that edits the file ``.memcheck.yaml`` links to is seen too; only the
    steps whose blob differs from every parent's are parsed."""
    if settings.outside is not None or not steps:
        return []
    revs = {s.commit for s in steps} | {p for s in steps for p in s.parents}
    # A few commits (the staged tree and HEAD) are read whole at once; a range's
    # hundreds, by their blobs first: few of them differ from their parents'.
    whole = len(revs) <= _READ_WHOLE
    stored = gitrefs.stored_at(where, [(r, f) for r in revs for f in settings.files], contents=whole)

    def differs(step: Step) -> bool:
        mine = settings.key(stored, step.commit)
        return all(settings.key(stored, p) != mine for p in step.parents) if step.parents else mine is not None

    changed = [s for s in steps if differs(s)]
    if not changed:
        return []
    configs = settings.at(where, [r for s in changed for r in (s.commit, *s.parents)], read=stored if whole else None)
    compared = []
    for step in changed:
        after = configs[step.commit]
        key = settings.key(stored, step.commit) or (settings.key(stored, step.parents[0]) if step.parents else None)
        path = key[0] if key else settings.files[0]
        why = str(after).removeprefix(f"{step.commit[:7]}:") if isinstance(after, ConfigError) else after
        compared.append(SettingsChange(path, step.label, why, tuple(configs[p] for p in step.parents)))
    return judged(compared, default_config(settings.root))


def judged(changes: Iterable[SettingsChange], defaults: Config) -> list[Problem]:
    """GRD003 for each change whose settings let through what none of its parents'
    did (a root commit's, what ``defaults`` did not), GRD005 for each that turns off
    a secret rule none of its parents had off, and GRD003 for each whose settings
    cannot be read: what they let through is unknown, so they fail closed. Parents
    whose settings cannot be read are left out of the comparison (with none left,
    the defaults stand in, as for a root commit). One finding per settings file."""
    default_policy = policy(defaults)
    by_path: dict[str, list[tuple[str, list[str]]]] = {}
    secrets_by_path: dict[str, list[tuple[str, list[str]]]] = {}
    unreadable: dict[str, list[tuple[str, str]]] = {}
    for change in changes:
        if isinstance(change.after, str):
            unreadable.setdefault(change.path, []).append((change.label, change.after))
            continue
        before_policies = [policy(b) for b in change.before if isinstance(b, Config)] or [default_policy]
        after_policy = policy(change.after)
        # A merge loosens only what none of its parents already let through.
        for judge, into in ((loosenings, by_path), (secrets_off, secrets_by_path)):
            found = [set(judge(b, after_policy)) for b in before_policies]
            items = [i for i in judge(before_policies[0], after_policy) if all(i in f for f in found)]
            if items:
                into.setdefault(change.path, []).append((change.label, items))
    return (
        [loosened(path, found_at) for path, found_at in by_path.items()]
        + [loosened(path, found_at, GRD005) for path, found_at in secrets_by_path.items()]
        + [unreadable_settings(path, found_at) for path, found_at in unreadable.items()]
    )


def loosened_beside(settings: Settings, where: Path, step: Step, found: Sequence[Problem]) -> list[Problem]:
    """GRD003 and GRD005 for a range's net change (``step``: its head, against where
    it starts and the commits beside it), but for the settings files ``found``
    already reports them on: a merge that restores lax settings from old history is
    a loosening no commit of the range shows."""
    reported = {(p.path, p.code) for p in found if p.code in (GRD003.code, GRD005.code)}
    return [p for p in loosened_in(settings, where, [step]) if (p.path, p.code) not in reported]


_SHOWN_ERROR = 160  # characters of why settings cannot be read: the error may quote the file


def unreadable_settings(path: str, found_at: Sequence[tuple[str, str]]) -> Problem:
    """GRD003 for settings that cannot be read in the steps ``found_at`` names
    (label, why; label "" for the staged changes): the guard cannot tell what they
    loosen. Only the first reason is quoted, cut short: it may hold the file's text."""
    labels = [label for label, _ in found_at if label]
    why = " ".join(found_at[0][1].split())  # one line
    why = why if len(why) <= _SHOWN_ERROR else why[: _SHOWN_ERROR - 3] + "..."
    unknown = "(the guard cannot tell what settings it cannot read let through)"
    if not labels:
        return GRD003.at(path, 1, 1, f"make it readable and stage it again {unknown}. cannot be read ({why})")
    more = f" and {len(labels) - 3} more" if len(labels) > 3 else ""
    return GRD003.at(
        path, 1, 1,
        f"rewrite the branch so that no commit holds it unreadable, or land it on its own and have it reviewed {unknown}. "
        f"cannot be read in {', '.join(labels[:3])}{more} ({why})",
    )  # fmt: skip
