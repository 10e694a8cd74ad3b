"""`memcheck guard`: fail when a change touches a guarded path (SPEC §6).

The changes come from the first of these that applies:

- paths named on the command line or read with ``--paths-from`` (a folder: the
  files under it);
- a range, ``--base``/``--head``: every commit of head that base lacks, and, when
  the range holds a merge, its net change from the merge base (what a merge took
  from outside the range); a range cut by a shallow clone is refused;
- a push: pre-commit sets ``PRE_COMMIT_REMOTE_NAME`` at pre-push. Every commit that
  the pushed refs hold and no remote-tracking ref does: pre-commit names only the
  first pushed ref (``PRE_COMMIT_FROM_REF``/``PRE_COMMIT_TO_REF``), and none at all
  when that ref starts with a root commit, so the local branches and tags are
  judged too;
- a range from ``PRE_COMMIT_FROM_REF``/``PRE_COMMIT_TO_REF`` outside a push
  (``pre-commit run --from-ref X --to-ref Y``);
- the staged changes. Deletions and rename sources never reach a hook's file list,
  so the default mode reads the staged diff itself.

At a push, a commit that any remote-tracking ref holds is not the pusher's change
(in a fork, a branch rebased on ``upstream/main`` and pushed to ``origin`` brings
upstream's commits, which ``origin`` lacks). What a push sends that no commit
holds is judged too: every path of a local tag on a tree, as ``added in tag t``,
and a local tag on a blob by the tag's own name as a file name (a tag named
``deploy.pem`` on a key's content publishes that key, with no commit for anyone to
review), reported as ``a tag on a file's content (tag deploy.pem)`` whatever the
name says, never as an added file. Git keeps no record of which tags a remote has,
so each such tag is judged at every push. (pre-commit itself runs no hook for a
push of such tags alone: it finds no commit to push.)

With nothing staged under pre-commit outside ``git commit`` (``pre-commit run
--all-files``), every tracked file is judged, by the settings of the default
branch as last fetched (the strictest of every remote's, and of HEAD's), else of
HEAD; stderr says which.

The change under review never decides its own policy: history is judged by the
settings of the commit it goes into (a range by its base, a push by the remote's
copy of the branch and its default branch, staged changes by HEAD; the Action on a
push event by the previous tip's and the default branch's), read from that commit,
never from the working tree. A commit that loosens those settings is a finding of
its own (GRD003), and so is a commit whose settings cannot be read (they do not
parse, are not UTF-8, or are a link out of the repository): what they let through
is unknown, so they fail closed. Paths mode and ``--list`` judge no change: they
use the working tree's settings, so a change to them can be tried before it is
committed.
"""
from __future__ import annotations

import codecs
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import BinaryIO, Callable, Iterable, Mapping, Sequence

from memcheck import git, gitrefs
from memcheck.changes import NO_MODE, SYMLINK_MODE, TAGGED_BLOB, TREE_MODE, Change
from memcheck.checks.guard import GRD003, GRD005
from memcheck.config import CONFIG_FILES, Config, ConfigError, default_config, find_root, load, load_text, load_texts
from memcheck.engine.finish import drop_path_ignores
from memcheck.guard.findings import (
    Judge,
    commit_label,
    findings,
    guarded_tree,
    loosened,
    net_label,
    symlink_blobs,
    touches_guarded,
)
from memcheck.guard.paths import describe, through_links
from memcheck.guard.policy import enabled_codes, loosenings, policy, secrets_off, strictest
from memcheck.guard.tiers import AGENTS, Signature, authorship, recogniser, signatures, sources, tiers
from memcheck.hooks.report import report
from memcheck.paths import ancestors, parent
from memcheck.problem import WARNING, Problem, escaped, json_text, shown
from memcheck.records import NamedTuple
from memcheck.safe_files import within

NOTHING_STAGED = (
    "memcheck guard: nothing is staged, so every tracked file was judged, as `pre-commit run --all-files` asks, {judged}; "
    "the branch's commits were not (a file added and deleted again is not in the tree): "
    "run `memcheck guard --base <target branch>` for them (in CI, the pull request's base)"
)


class Request(NamedTuple):
    """What the command line asked for."""

    paths: tuple[str, ...] = ()
    paths_from: str | None = None  # a file, or "-" for standard input
    base: str | None = None
    head: str | None = None
    settings_from: tuple[str, ...] = ()  # with base: more commits whose settings judge the range (the strictest)


def split_path_list(data: bytes, source: str = "-") -> list[str]:
    """A list of paths, NUL-separated when it holds a NUL, else one per line; UTF-8,
    or UTF-16 with a byte-order mark (what PowerShell's ``>`` writes)."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            data = data.decode("utf-16").encode("utf-8", "surrogatepass")
        except UnicodeDecodeError as e:
            raise ConfigError(f"--paths-from {source}: cannot read it as UTF-16: {e.reason}") from None
    elif _looks_like_utf16(data):
        # Read as UTF-8, it would be a list of one-letter names: nothing guarded.
        raise ConfigError(f"--paths-from {source}: looks like UTF-16 without a byte-order mark; write the list as UTF-8 (or UTF-16 with a BOM)")
    data = data.removeprefix(codecs.BOM_UTF8)
    if b"\0" in data:
        names = data.split(b"\0")
    else:
        names = [line.rstrip(b"\r") for line in data.split(b"\n")]
    return [git.decode_name(name) for name in names if name]


def _looks_like_utf16(data: bytes) -> bool:
    """UTF-16 text of ASCII names has a NUL in every other byte; a NUL-separated list
    of real paths (two bytes and more each) never does."""
    half = len(data) // 2
    return half >= 2 and max(data[0::2].count(0), data[1::2].count(0)) >= 0.9 * half


def _read_path_list(source: str, stdin: BinaryIO | None) -> list[str]:
    if source == "-":
        return split_path_list((stdin or sys.stdin.buffer).read())
    try:
        return split_path_list(Path(source).read_bytes(), source)
    except OSError as e:
        raise ConfigError(f"--paths-from {source}: cannot read: {e.strerror}") from None


def _listed(names: Sequence[str], root: Path, cwd: Path, in_git: bool) -> list[Change]:
    """Named paths as changes, relative to the repository root: a folder with the
    files under it (those git would commit, in a repository), a symlink with its
    target, and a path through a linked folder (``awsl/credentials``, ``awsl`` a
    link to ``.aws``) also as a link to the file it reaches."""
    changes: list[Change] = []
    real_root = os.path.realpath(root)
    real_folders: dict[str, str] = {}  # a long list names the same folders again and again
    # Where the working folder is in the repository, worked out once: a relative name
    # is then joined to it as text (os.path.relpath per name was a third of the run on
    # a 14,000-path list).
    here = os.path.relpath(os.path.normpath(cwd), root)
    for name in names:
        full = os.path.normpath(os.path.join(cwd, name))
        if os.path.isabs(name) or os.sep != "/":
            rel = Path(os.path.relpath(full, root)).as_posix()
        else:
            rel = os.path.normpath(os.path.join(here, name))
        changes.append(_on_disk(full, rel))
        if os.path.isdir(full) and not os.path.islink(full):
            changes += [_on_disk(os.path.join(root, path), path) for path in _files_under(root, full, rel, in_git)]
        if rel == "." or rel.startswith("../"):
            continue
        # Through a linked folder: the link is the folder, the target the path it reaches.
        folder = os.path.dirname(full)
        if folder not in real_folders:
            real_folders[folder] = os.path.realpath(folder)
        real, expected = real_folders[folder], os.path.join(real_root, os.path.dirname(rel))
        if real != os.path.normpath(expected):
            reached = os.path.join(real, os.path.basename(full))
            inside = not os.path.relpath(reached, real_root).startswith("..")
            # written as a link would hold it: from the link's folder, or absolute out of the tree
            target = os.path.relpath(reached, expected) if inside else reached
            changes.append(Change("", rel, new_mode=SYMLINK_MODE, target=Path(target).as_posix()))
    return changes


def _on_disk(full: str, rel: str) -> Change:
    if os.path.islink(full):
        return Change("", rel, new_mode=SYMLINK_MODE, target=os.readlink(full))
    return Change("", rel, new_mode=TREE_MODE if os.path.isdir(full) else "")


def _files_under(root: Path, full: str, rel: str, in_git: bool) -> list[str]:
    """What a folder named on the command line holds: in a repository, the files git
    would commit (tracked, and untracked but not ignored); elsewhere every file. A
    linked folder is not descended: it is judged as a link, by its target."""
    found = git.files_under(root, "" if rel == "." else rel) if in_git else None
    if found is not None:
        return found
    walked = []
    for top, dirs, files in os.walk(full):
        dirs.sort()
        entries = sorted(files) + [d for d in dirs if os.path.islink(os.path.join(top, d))]
        walked += [Path(os.path.relpath(os.path.join(top, e), root)).as_posix() for e in entries]
    return walked


# --- where the settings come from ------------------------------------------------


class Settings(NamedTuple):
    """Where guard's settings live: files of the repository, read from the commit
    that judges a change, or a ``--config`` file outside the repository, read as it is."""

    root: Path
    files: tuple[str, ...]  # repository-relative; the first that exists holds the settings
    outside: Path | None = None

    def at(
        self, where: Path, commits: Iterable[str], shown_as: Mapping[str, str] | None = None, read: Mapping[tuple[str, str], gitrefs.Stored] | None = None
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
                raise ConfigError(f"{commit}:{name} is {found.problem}; guard reads its settings from the commit, so it needs the file there")
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


def _settings(root: Path, cwd: Path, config_file: str | None) -> Settings:
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


def settings_at(config_file: str | None, cwd: Path, commit: str) -> Config:
    """The settings a commit holds (``--config`` as guard reads it): what judges the
    secret rules of a range, which the range's own settings cannot turn off."""
    root = git.toplevel(cwd)
    found = _settings(root, cwd, config_file).at(cwd, [git.resolve(cwd, f"{commit}^{{commit}}")], {})
    (config,) = found.values()
    if isinstance(config, ConfigError):
        raise config
    return config


def _trusted(settings: Settings, where: Path, names: Mapping[str, str], defaults: bool, how: str) -> tuple[Config, Judge]:
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
        return config, Judge(config.guard)
    except ConfigError as e:  # a pattern git cannot read
        if settings.outside is not None or not names:
            raise
        raise ConfigError(f"{e} (guard reads its settings from {', '.join(names.values())}: {how})") from None


# --- which commits --------------------------------------------------------------


class History(NamedTuple):
    """The commits to judge, as ``git log`` arguments, and the commits whose settings judge them."""

    logs: tuple[tuple[tuple[str, ...], bool], ...]  # (revs, whether a commit names the ref it was found through)
    trusted: tuple[tuple[str, str], ...]  # (revision, how messages name it): the strictest of their settings judges; none: the defaults
    defaults: bool = False  # the defaults have a say too (nothing the remote has to build on)
    net: tuple[str, str] | None = None  # where the change starts and its head: its net change is judged too
    whole: bool = False  # a range: refused when a shallow clone cuts it
    beside: tuple[str, ...] = ()  # a push: commits (the remotes' default branches) whose content the net change may bring freely
    tagged: tuple[Change, ...] = ()  # a push: what the local tags on trees and blobs hold, which no commit shows


def _given(flag: str, value: str | None) -> None:
    if value is not None and not value.strip():
        raise ConfigError(f"{flag} is empty: name a branch, tag or commit (is a variable in the script unset?)")


def _history(request: Request, env: Mapping[str, str], where: Path) -> History | None:
    if request.base is not None or request.head is not None:
        _given("--base", request.base)
        _given("--head", request.head)
        if request.base is None:
            raise ConfigError("--head needs --base: the range is judged from their merge base")
        return _range(where, request.base, request.head or "HEAD", request.settings_from)
    from_ref, to_ref = env.get("PRE_COMMIT_FROM_REF") or None, env.get("PRE_COMMIT_TO_REF") or None
    remote = env.get("PRE_COMMIT_REMOTE_NAME")
    if remote:
        return _push(where, remote, env.get("PRE_COMMIT_REMOTE_BRANCH", ""), from_ref, to_ref)
    if from_ref:
        return _range(where, from_ref, to_ref or "HEAD")
    return None


def _range(where: Path, base: str, head: str, settings_from: Sequence[str] = ()) -> History:
    """Every commit of ``head`` that ``base`` lacks, judged by the settings of
    ``base`` itself: the branch the change goes into decides, not the point the
    change chose to fork from (an old commit, from before a tightening). With
    ``settings_from``, by the strictest of those and base's: the Action on a push
    adds the default branch, so that a loosening pushed first to a branch (and
    reported, but pushed all the same) does not judge the next push."""
    mb = git.range_base(where, base, head)
    trusted = [(f"{base}^{{commit}}", base[:7] if len(base) >= 40 else base)]
    trusted += [(git.resolve(where, rev), rev[:7] if len(rev) >= 40 else rev) for rev in settings_from]
    return History((((f"{head}^{{commit}}", "--not", trusted[0][0]), False),), tuple(trusted), net=(mb, f"{head}^{{commit}}"), whole=True)


def _push(where: Path, remote_arg: str, remote_branch: str, from_ref: str | None, to_ref: str | None) -> History:
    """What a push sends: the commits no remote-tracking ref holds (nor, for the
    ref pre-commit names, the old value it reports) of that ref, of every local
    branch (and a detached HEAD) and of every local tag, since pre-commit does not
    say which other refs are pushed; and what the local tags on trees and blobs
    hold, which no commit shows. A commit any remote has is not the pusher's
    change: merging ``main`` brings ``main``'s commits, which the remote holds
    already, and in a fork a branch rebased on ``upstream/main`` brings upstream's
    commits to ``origin``, which lacks them. A push to a URL is a push to the
    remote with that URL.

    Settings: the strictest of those of the remote's copy of the pushed branch (or
    the commit the push builds on) and of the remote's default branch, which the
    branch is on its way to; with nothing the remote has to build on, of the
    defaults and the default branch. A lax branch on the remote cannot carry a
    change past the settings of the branch it is merged into."""
    remote = gitrefs.remote_named(where, remote_arg)
    logs: list[tuple[tuple[str, ...], bool]] = []
    known = ["--remotes"]  # what the remotes have: another remote's commits are not the pusher's either
    trusted: list[str] = []
    net = None
    if from_ref:
        old = git.resolve(where, from_ref)
        head = git.resolve(where, to_ref or "HEAD")
        logs.append(((head, "--not", old, *known), False))
        known += [old, head]  # the remote's value of the pushed ref; what the first log judges
        trusted.append(old)
        # The pushed ref's net change from the remote's old value, when the push moves
        # it forward: a merge of a branch the remote has (`git merge origin/legacy`)
        # brings its files into this branch though no commit the remote lacks shows them.
        if git.is_ancestor(where, old, head):
            net = (old, head)
    local = ["--branches"] + (["HEAD"] if git.commit_of(where, "HEAD") else [])
    logs.append(((*local, "--not", *known), True))
    # Tags: those whose commits no remote and no local branch holds (the branches'
    # own are judged above). Tags fetched from another remote (upstream's
    # releases, in a fork) are on its remote-tracking refs, and not judged again.
    logs.append((("--tags", "--not", *local, *known), True))
    copy = None
    branches = _default_branches(where)
    defaults = [c for _, c in branches.values()]
    if remote:
        branch = remote_branch.removeprefix("refs/heads/")
        copy = git.commit_of(where, f"refs/remotes/{remote}/{branch}") if branch else None
        trusted += [c for c in (copy, branches[remote][1] if remote in branches else None) if c]
    else:
        # A URL no remote has (a mirror, a fork, a new copy of one of them): the
        # settings of every remote's default branch, so the repository's own patterns
        # still apply.
        trusted += defaults
    # Merging a default branch (the remote's, or upstream's in a fork) into the pushed
    # one brings its files (its lock file) as they are there: not the push's doing.
    beside = tuple(c for c in dict.fromkeys(defaults) if net is not None and c != net[0])
    return History(
        tuple(logs), tuple((c, c[:7]) for c in dict.fromkeys(trusted)), defaults=not from_ref and copy is None, net=net, beside=beside,
        tagged=tuple(_tagged(where)),
    )  # fmt: skip


def _tagged(where: Path) -> list[Change]:
    """What the local tags on trees and blobs hold, which a push sends and no
    ``git log`` shows: each path of a tagged tree as added in the tag, and a tagged
    blob as a file of the tag's own name. Git keeps no record of which tags a remote
    has, and no commit holds these objects: every such tag is judged at each push."""
    changes: list[Change] = []
    for name, kind, sha in gitrefs.content_tags(where):
        if kind == "tree":
            changes += [c._replace(ref=f"tag {name}") for c in gitrefs.tree_files(where, sha)]
        else:
            changes.append(Change(TAGGED_BLOB, name, old_mode=NO_MODE, new_mode="100644", new_blob=sha))  # a file
    return _with_targets(where, changes)


def _default_branches(where: Path) -> dict[str, tuple[str, str]]:
    """Each remote's default branch, as last fetched: ``origin/HEAD`` (a clone sets
    it), else ``main`` or ``master``; by remote, its name (``origin/main``) and commit."""
    found = {remote: gitrefs.remote_default(where, remote) for remote in gitrefs.remote_names(where)}
    return {remote: branch for remote, branch in found.items() if branch}


# --- judging --------------------------------------------------------------------


def _with_targets(where: Path, changes: list[Change], known: Mapping[str, bytes] | None = None) -> list[Change]:
    """The changes, each symlink with its target; ``known``: blobs read already."""
    wanted = symlink_blobs(changes)
    blobs = {blob: known[blob] for blob in wanted if known and blob in known}
    blobs.update(git.read_blobs(where, wanted - blobs.keys()))
    if not blobs:
        return changes
    return [c._replace(target=git.decode_name(blobs[c.new_blob])) if c.is_symlink and c.new_blob in blobs else c for c in changes]


class _Step(NamedTuple):
    """A commit (or the staged tree) whose settings are compared with its parents'."""

    commit: str
    parents: tuple[str, ...]
    label: str  # as findings name it


_READ_WHOLE = 16  # commits whose settings are read with their blobs' ids


def _loosened(settings: Settings, where: Path, steps: Sequence[_Step]) -> list[Problem]:
    """GRD003 for each step whose settings let through what none of its parents' did
    (a root commit's, what the defaults did not), and for each step whose settings
    cannot be read: what they let through is unknown, so they fail closed. Parents
    whose settings cannot be read are left out of the comparison (with none left,
    the defaults stand in, as for a root commit).

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

    def differs(step: _Step) -> bool:
        mine = settings.key(stored, step.commit)
        return all(settings.key(stored, p) != mine for p in step.parents) if step.parents else mine is not None

    changed = [s for s in steps if differs(s)]
    if not changed:
        return []
    configs = settings.at(where, [r for s in changed for r in (s.commit, *s.parents)], read=stored if whole else None)
    defaults = policy(default_config(settings.root))
    by_path: dict[str, list[tuple[str, list[str]]]] = {}
    secrets_by_path: dict[str, list[tuple[str, list[str]]]] = {}
    unreadable: dict[str, list[tuple[str, str]]] = {}
    for step in changed:
        read = [configs[r] for r in (step.commit, *step.parents)]
        after, befores = read[0], read[1:]
        key = settings.key(stored, step.commit) or (settings.key(stored, step.parents[0]) if step.parents else None)
        path = key[0] if key else settings.files[0]
        if isinstance(after, ConfigError):
            unreadable.setdefault(path, []).append((step.label, str(after).removeprefix(f"{step.commit[:7]}:")))
            continue
        before_policies = [policy(b) for b in befores if isinstance(b, Config)] or [defaults]
        after_policy = policy(after)
        # A merge loosens only what none of its parents already let through.
        for judged, into in ((loosenings, by_path), (secrets_off, secrets_by_path)):
            found = [set(judged(b, after_policy)) for b in before_policies]
            items = [i for i in judged(before_policies[0], after_policy) if all(i in f for f in found)]
            if items:
                into.setdefault(path, []).append((step.label, items))
    return (
        [loosened(path, found_at) for path, found_at in by_path.items()]
        + [loosened(path, found_at, GRD005) for path, found_at in secrets_by_path.items()]
        + [_unreadable(path, found_at) for path, found_at in unreadable.items()]
    )


_SHOWN_ERROR = 160  # characters of why settings cannot be read: the error may quote the file


def _unreadable(path: str, found_at: Sequence[tuple[str, str]]) -> Problem:
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


def _judge_history(settings: Settings, where: Path, history: History) -> tuple[list[Problem], Config]:
    readers = [git.CommitReader(where, revs, through_refs) for revs, through_refs in history.logs]  # git starts...
    # ...while the settings are read, and the net change
    net = git.TreeDiff(where, *history.net) if history.net is not None else None
    beside = [git.TreeDiff(where, b, history.net[1]) for b in history.beside] if history.net is not None else []
    # the links as the range leaves them (HEAD's at a push): what it changes under a
    # folder one points at is judged at the path through it too
    linked = gitrefs.TreeLinks(where, history.net[1] if history.net is not None else "HEAD")
    config, guard = _trusted(settings, where, dict(history.trusted), history.defaults, "fix them there first")
    changes = [change for reader in readers for change in reader.read(while_reading=guard.judge)]
    commits = [c for reader in readers for c in reader.commits.values()]
    if history.whole:
        _refuse_shallow_cuts(where, commits)
    links, _ = linked.read(also=symlink_blobs(changes))  # the links' targets and the changes' at one git call
    changes = _with_targets(where, changes, linked.blobs)
    shas = [c.sha for c in commits]
    guard.agent_of = _commit_agents(config, where, shas)
    # A range is read without rename detection (see git._RANGE_OPTIONS): commits
    # whose additions or deletions are findings are read again with it, so a
    # finding says "renamed from notes.txt" rather than "added".
    renamed = {c.commit for c in [*changes, *through_links(changes, links)] if c.status in ("A", "D") and touches_guarded(c, guard)}
    if renamed:
        changes = _with_targets(where, git.with_renames(where, changes, renamed), linked.blobs)
    changes += through_links(changes, links)
    steps = [_Step(c.sha, c.parents, commit_label(c.sha, len(c.parents) > 1, c.ref)) for c in commits]
    problems = findings([*changes, *history.tagged], guard) + _loosened(settings, where, steps)
    if net is not None:
        problems += _net_change(settings, where, net, beside, changes, guard, problems)
    return problems, config


def _commit_agents(config: Config, where: Path, commits: Sequence[str]) -> Callable[[Change], Signature | None]:
    """Which agent made a change of a range, by its commit's author, committer and
    trailers, read from the commit objects (one ``git cat-file`` call; a range has
    far fewer commits than changed paths). A range's net change (what a merge brought
    from outside it) is an agent's when any commit of the range is."""
    recognise = recogniser(config.guard)
    found = {sha: recognise.of_commit(authorship(raw)) for sha, raw in git.read_blobs(where, commits).items()}
    any_agent = next(filter(None, found.values()), None)

    def agent_of(change: Change) -> Signature | None:
        return any_agent if change.net else found.get(change.commit)

    return agent_of


def _refuse_shallow_cuts(where: Path, commits: Sequence[git.Commit]) -> None:
    """A range that reaches past a shallow clone's history cannot be judged: the
    commits before the cut are not there to read (git shows the commit at the cut
    without parents), so a secret added there would pass unseen."""
    cut = git.shallow_cut(where, [c.sha for c in commits if not c.parents])
    if cut:
        more = f" and {len(cut) - 1} more" if len(cut) > 1 else ""
        raise ConfigError(
            f"the range reaches past the history of this shallow clone (commit {cut[0][:12]}{more} has parents the clone lacks), "
            "so its earlier commits cannot be judged; fetch more history: git fetch --deepen=100 (repeat until this passes) "
            "or git fetch --unshallow (actions/checkout: fetch-depth: 0)"
        )


def _net_change(
    settings: Settings,
    where: Path,
    net: git.TreeDiff,
    beside: Sequence[git.TreeDiff],
    changes: Sequence[Change],
    guard: Judge,
    found: Sequence[Problem],
) -> list[Problem]:
    """What a range (or a push) brings as a whole that none of its commits shows:
    a merge takes a file from its other parent as it is there, so a merge of an old
    commit of the base (outside the range) can restore a ``.env`` the base deleted
    since, or settings it tightened since, and git's combined diff shows neither
    (the merge's content equals that parent's); a merge of a branch the remote has
    brings that branch's files, whose commits are not judged again at a push.
    Judged as the net change from the merge base (for a push, from the remote's old
    value), as a pull request page shows it: a branch that is only behind its base
    changes nothing there, and merging the base in brings nothing. Without merges
    every path of it is one a commit touched, and is left out here. ``beside``:
    the head's differences from commits whose content it may take as it is (at a
    push, the remotes' default branches): only paths that differ from each count."""
    touched = {path for change in changes for path, _ in describe(change)}
    brought = [c for c in net.read() if not any(p in touched for p, _ in describe(c))]
    for other in beside:
        differs = {path for change in other.read() for path, _ in describe(change)}
        brought = [c for c in brought if any(p in differs for p, _ in describe(c))]
    problems = findings(_with_targets(where, brought), guard)
    reported = {(p.path, p.code) for p in found if p.code in (GRD003.code, GRD005.code)}
    parents = (net.old, *(other.old for other in beside))
    problems += [p for p in _loosened(settings, where, [_Step(net.new, parents, net_label(net.new))]) if (p.path, p.code) not in reported]
    return problems


_FIX_AT_HEAD = "commit the fix past this hook, SKIP=memcheck-guard git commit"


def _judge_staged(settings: Settings, where: Path, env: Mapping[str, str], located: git.Located) -> tuple[list[Problem], Config]:
    head = located.head
    # Under pre-commit outside `git commit` (which sets GIT_INDEX_FILE for its hooks),
    # nothing staged is `pre-commit run --all-files`, as CI and pre-commit.ci run it,
    # where a "Passed" for an empty diff would read as a verdict on the branch.
    whole_tree = env.get("PRE_COMMIT") == "1" and "GIT_INDEX_FILE" not in env
    diff = git.StagedDiff(where)
    linked = gitrefs.TreeLinks(where, None)  # the index's links
    with contextlib.closing(diff), contextlib.closing(linked):
        # HEAD's settings are read and the patterns compiled while git writes the
        # diff and the listing, unless the diff decides which settings judge.
        trusted = None if whole_tree else _trusted(settings, where, {head: "HEAD"} if head else {}, False, _FIX_AT_HEAD)
        changes = diff.read()
        if not changes and whole_tree:
            return _judge_tree(settings, where, head, linked)
        config, guard = trusted or _trusted(settings, where, {head: "HEAD"} if head else {}, False, _FIX_AT_HEAD)
        agent = recogniser(config.guard).of_shell(env)  # the commit being made: from an agent's shell?
        guard.agent_of = lambda change: agent
        if not changes:
            return [], config
        links, _ = linked.read(also=symlink_blobs(changes))
        merging = git.merge_heads_in(located.merge_head) if head else []
        # The tree the commit will record, its settings read as HEAD's are: written
        # only when they can differ from HEAD's, or to conclude a merge.
        tree = git.staged_tree(where) if merging or _may_change_settings(settings, changes, links) else None
        parents: tuple[str, ...] = (head,) if head else ()
        if merging and tree is not None:
            # Concluding a merge: judged by what it brings that no parent had, as a
            # merge commit in a range is, not blamed for the other branch's commits.
            parents = (*parents, *merging)
            changes = git.merged_changes(where, tree, parents)
        changes = _with_targets(where, changes, linked.blobs)
        problems = findings([*changes, *through_links(changes, links)], guard)
        if tree is not None:
            problems += _loosened(settings, where, [_Step(tree, parents, "")])
        return problems, config


def _may_change_settings(settings: Settings, changes: Sequence[Change], links: Mapping[str, str]) -> bool:
    """Whether the staged tree's settings can differ from HEAD's: a change touches a
    settings file or a folder above one, or one of those is a symlink (read through
    it, the settings change with whatever it points at). Otherwise every path on the
    way to them is as HEAD has it."""
    if settings.outside is not None:
        return False
    spots = {spot for name in settings.files for spot in (name, *ancestors(parent(name))) if spot}
    touched = {change.path for change in changes} | {change.source for change in changes}
    return not spots.isdisjoint(touched) or any(spot in links for spot in spots)


def _judge_tree(settings: Settings, where: Path, head: str | None, linked: gitrefs.TreeLinks) -> tuple[list[Problem], Config]:
    """Every tracked file, as the lint hooks judge the tree there, by the settings of
    the default branch (the strictest of every remote's, and of HEAD's): in CI the
    checkout is the pull request's own, whose settings must not judge it. Stderr
    says which settings judged and what was not judged (pre-commit shows it with
    --verbose or when the hook fails)."""
    branches = list(dict.fromkeys(_default_branches(where).values()))
    names = {commit: name for name, commit in reversed(branches)}
    if head:
        names.setdefault(head, "HEAD")
    config, guard = _trusted(settings, where, names, False, "fix them there first" if branches else _FIX_AT_HEAD)
    if branches:
        judged = f"by the settings of {', '.join(f'{name} ({commit[:7]})' for name, commit in branches)}, and HEAD's where they are stricter"
    else:
        judged = "by HEAD's settings: no remote-tracking copy of the default branch"
    sys.stderr.write(NOTHING_STAGED.format(judged=judged) + "\n")
    return findings(_tracked_tree(where, linked), guard), config


def _tracked_tree(where: Path, linked: gitrefs.TreeLinks) -> list[Change]:
    """Every tracked file as a change with no commit; a symlink with its target."""
    links, _ = linked.read()
    return [Change("", p, new_mode=SYMLINK_MODE, target=links[p]) if p in links else Change("", p) for p in git.tracked_files(where)]


def _report(problems: Iterable[Problem], config: Config) -> list[Problem]:
    enabled = enabled_codes(config)
    return sorted(drop_path_ignores({p for p in problems if p.code in enabled}, config))


def _disk_settings(cwd: Path, config_file: str | None) -> tuple[Config, bool]:
    """The working tree's settings, for paths mode and ``--list``, and whether the
    folder is in a git work tree."""
    top = git.work_tree(cwd)
    return load(top or find_root(cwd), Path(config_file) if config_file else None), top is not None


def check(config_file: str | None, request: Request, cwd: Path, stdin: BinaryIO | None = None, env: Mapping[str, str] | None = None) -> list[Problem]:
    env = os.environ if env is None else env
    if request.paths or request.paths_from:
        if request.base is not None or request.head is not None:
            raise ConfigError("give paths or --base/--head, not both")
        config, in_git = _disk_settings(cwd, config_file)
        names = list(request.paths)
        if request.paths_from:
            names += _read_path_list(request.paths_from, stdin)
        # Named paths are judged as a change made now would be: from an agent's shell, by every tier.
        agent = recogniser(config.guard).of_shell(env)
        return _report(findings(_listed(names, config.root, cwd, in_git), Judge(config.guard, lambda change: agent)), config)
    located = git.locate(cwd)
    settings = _settings(located.top, cwd, config_file)
    history = _history(request, env, cwd)
    problems, config = _judge_staged(settings, cwd, env, located) if history is None else _judge_history(settings, cwd, history)
    return _report(problems, config)


def list_tree(config_file: str | None, cwd: Path, fmt: str) -> int:
    """What in the tree is guarded today, by category."""
    config, _ = _disk_settings(cwd, config_file)
    links, submodules = gitrefs.tracked_links(cwd)
    tree = guarded_tree(git.tracked_files(cwd), Judge(config.guard, every_tier=True), links, submodules)
    tier = tiers(config.guard)
    if fmt == "json":
        doc = {name: [{"path": r.path, "pattern": r.pattern, **({"target": r.target} if r.target is not None else {})} for r in rows] for name, rows in tree.items()}
        sys.stdout.write(json_text(json.dumps({"categories": doc, "tiers": {name: tier[name] for name in tree}, "total": sum(map(len, tree.values()))}, ensure_ascii=False, indent=2)) + "\n")
        return 0
    for name, rows in tree.items():
        who = "an agent's changes" if tier[name] == AGENTS and not config.guard.everyone else "every change"
        sys.stdout.write(f"{shown(name)} ({len(rows)}; guarded for {who})\n")
        sys.stdout.writelines(f"  {shown(r.path)}{'' if r.target is None else f' -> {shown(r.target)}'}  [{escaped(r.pattern)}]\n" for r in rows)
    total = sum(map(len, tree.values()))
    sys.stdout.write(f"{total} guarded path{'' if total == 1 else 's'} in {len(tree)} categor{'y' if len(tree) == 1 else 'ies'}.\n" if total else "No guarded paths in the tree.\n")
    return 0


def list_signatures(config_file: str | None, cwd: Path, fmt: str) -> int:
    """How an agent's change is recognised under the working tree's settings, with
    each signature's source; and which category guards whose changes."""
    config, _ = _disk_settings(cwd, config_file)
    shipped, found = sources(), signatures(config.guard)
    if fmt == "json":
        rows = [{**sig._asdict(), **(shipped[sig.id]._asdict() if sig.id in shipped else {"url": None})} for sig in found]
        sys.stdout.write(json_text(json.dumps({"signatures": rows, "tiers": tiers(config.guard), "everyone": config.guard.everyone}, ensure_ascii=False, indent=2)) + "\n")
        return 0
    for sig in found:
        source = shipped.get(sig.id)
        note = f"  [{source.url}, checked {source.checked}{'' if source.confirmed else ', unconfirmed'}]" if source else "  [from the config]"
        sys.stdout.write(escaped(f"{sig.id}: {sig.shown()}{note}") + "\n")  # the config's own may hold anything
    tier = tiers(config.guard)
    for name in (AGENTS, "secrets"):
        members = [c for c, t in tier.items() if t == name]
        who = "every change" if name != AGENTS or config.guard.everyone else "an agent's changes"
        sys.stdout.write(f"{name} tier, guarding {who}: {', '.join(members)}\n")
    return 0


def run(
    config_file: str | None, request: Request, fmt: str = "text", list_only: bool = False, stdin: BinaryIO | None = None, list_agents: bool = False, allow_label: str | None = None
) -> int:
    cwd = Path.cwd()
    if list_agents:
        return list_signatures(config_file, cwd, fmt)
    if list_only:
        return list_tree(config_file, cwd, fmt)
    problems = check(config_file, request, cwd, stdin)
    if allow_label:  # what the label lets through is a warning: reported, not failing
        from memcheck.guard.override import allowed

        problems = allowed(problems, allow_label)
    report(problems, fmt, command="guard")
    return 1 if any(p.severity != WARNING for p in problems) else 0
