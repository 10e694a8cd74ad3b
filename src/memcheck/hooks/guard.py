"""`memcheck guard`: fail when a change touches a guarded path (SPEC §6).

The changes come from the first of these that applies:

- paths named on the command line or read with ``--paths-from`` (a folder: the
  files under it);
- a range, ``--base``/``--head``: every commit of head that base lacks, and, when
  the range holds a merge, its net change from the merge base (what a merge took
  from outside the range); a range cut by a shallow clone is refused;
- a push: pre-commit sets ``PRE_COMMIT_REMOTE_NAME`` at pre-push. Every commit that
  the pushed refs hold and the remote lacks: pre-commit names only the first pushed
  ref (``PRE_COMMIT_FROM_REF``/``PRE_COMMIT_TO_REF``), and none at all when that ref
  starts with a root commit, so the local branches and tags the remote lacks are
  judged too;
- a range from ``PRE_COMMIT_FROM_REF``/``PRE_COMMIT_TO_REF`` outside a push
  (``pre-commit run --from-ref X --to-ref Y``);
- the staged changes. Deletions and rename sources never reach a hook's file list,
  so the default mode reads the staged diff itself.

The change under review never decides its own policy: history is judged by the
settings of the commit it goes into (a range by its base, a push by the remote's
copy of the branch and its default branch, staged changes by HEAD), read from that
commit, never from the working tree; a commit that loosens those settings is a
finding of its own (GRD003). Paths mode and ``--list`` judge no change: they use the
working tree's settings, so a change to them can be tried before it is committed.
"""
from __future__ import annotations

import codecs
import functools
import json
import os
import sys
from pathlib import Path
from typing import BinaryIO, Iterable, Mapping, NamedTuple, Sequence

from memcheck import git
from memcheck.changes import SYMLINK_MODE, TREE_MODE, Change
from memcheck.checks.guard import GRD003
from memcheck.config import CONFIG_FILES, Config, ConfigError, default_config, find_root, load, load_text, load_texts
from memcheck.engine.finish import drop_path_ignores
from memcheck.guard.findings import commit_label, findings, guarded_tree, loosened, net_label, symlink_blobs, touches_guarded
from memcheck.guard.paths import Guard, describe
from memcheck.guard.policy import enabled_codes, loosenings, policy, strictest
from memcheck.hooks.report import report
from memcheck.problem import Problem, shown
from memcheck.safe_files import within

NOTHING_STAGED = (
    "memcheck guard: nothing is staged, so every tracked file was judged, as `pre-commit run --all-files` asks; "
    "the branch's commits were not (a file added and deleted again is not in the tree): "
    "run `memcheck guard --base <target branch>` for them (in CI, the pull request's base)"
)


class Request(NamedTuple):
    """What the command line asked for."""

    paths: tuple[str, ...] = ()
    paths_from: str | None = None  # a file, or "-" for standard input
    base: str | None = None
    head: str | None = None


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
    for name in names:
        full = os.path.normpath(os.path.join(cwd, name))
        rel = Path(os.path.relpath(full, root)).as_posix()
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

    def at(self, where: Path, commits: Iterable[str], shown_as: Mapping[str, str] | None = None) -> dict[str, Config | ConfigError]:
        """The settings each commit (or tree) holds, by commit: a ``ConfigError`` where
        they cannot be read. Two git calls, however many commits."""
        commits = list(dict.fromkeys(commits))
        if self.outside is not None:
            outside = load(self.root, self.outside)
            return {commit: outside for commit in commits}
        stored = git.stored_at(where, [(c, f) for c in commits for f in self.files])
        texts = git.read_blobs(where, {s.blob for s in stored.values() if s.blob})
        configs: dict[str, Config | ConfigError] = {}
        for commit in commits:
            name = (shown_as or {}).get(commit, commit[:7])
            try:
                configs[commit] = self._config({f: stored[(commit, f)] for f in self.files}, texts, name)
            except ConfigError as e:
                configs[commit] = e
        return configs

    def _config(self, files: Mapping[str, git.Stored], texts: Mapping[str, bytes], commit: str) -> Config:
        decoded: dict[str, str | None] = {}
        for name, found in files.items():
            if found.problem:
                raise ConfigError(f"{commit}:{name} is {found.problem}; guard reads its settings from the commit, so it needs the file there")
            if found.blob is None:
                decoded[name] = None
                continue
            try:
                decoded[name] = texts[found.blob].decode("utf-8")
            except UnicodeDecodeError as e:
                raise ConfigError(f"{commit}:{name}: cannot read: {e}") from None
        if self.files == CONFIG_FILES:
            return load_texts(self.root, decoded, lambda name: f"{commit}:{name}")
        (name,) = self.files
        return load_text(self.root, name, decoded[name], f"{commit}:{name}")

    def key(self, stored: Mapping[tuple[str, str], git.Stored], commit: str) -> tuple[str, git.Stored] | None:
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


def _trusted(settings: Settings, where: Path, names: Mapping[str, str], defaults: bool, how: str) -> tuple[Config, Guard]:
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
        return config, Guard(config.guard)
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
    beside: str | None = None  # a push: a commit (the remote's default branch) whose content the net change may bring freely


def _given(flag: str, value: str | None) -> None:
    if value is not None and not value.strip():
        raise ConfigError(f"{flag} is empty: name a branch, tag or commit (is a variable in the script unset?)")


def _history(request: Request, env: Mapping[str, str], where: Path) -> History | None:
    if request.base is not None or request.head is not None:
        _given("--base", request.base)
        _given("--head", request.head)
        if request.base is None:
            raise ConfigError("--head needs --base: the range is judged from their merge base")
        return _range(where, request.base, request.head or "HEAD")
    from_ref, to_ref = env.get("PRE_COMMIT_FROM_REF") or None, env.get("PRE_COMMIT_TO_REF") or None
    remote = env.get("PRE_COMMIT_REMOTE_NAME")
    if remote:
        return _push(where, remote, env.get("PRE_COMMIT_REMOTE_BRANCH", ""), from_ref, to_ref)
    if from_ref:
        return _range(where, from_ref, to_ref or "HEAD")
    return None


def _range(where: Path, base: str, head: str) -> History:
    """Every commit of ``head`` that ``base`` lacks, judged by the settings of
    ``base`` itself: the branch the change goes into decides, not the point the
    change chose to fork from (an old commit, from before a tightening)."""
    mb = git.range_base(where, base, head)
    tip, name = f"{base}^{{commit}}", base[:7] if len(base) >= 40 else base
    return History((((f"{head}^{{commit}}", "--not", tip), False),), ((tip, name),), net=(mb, f"{head}^{{commit}}"), whole=True)


def _push(where: Path, remote_arg: str, remote_branch: str, from_ref: str | None, to_ref: str | None) -> History:
    """What a push sends: the commits the remote lacks (by its remote-tracking refs
    and, for the ref pre-commit names, the old value it reports) of that ref, of
    every local branch (and a detached HEAD) and of every local tag no remote holds,
    since pre-commit does not say which other refs are pushed. A commit the remote
    has is not judged again: merging ``main`` brings ``main``'s commits, which the
    remote holds already. A push to a URL is a push to the remote with that URL;
    to a URL no remote has, a commit on any remote-tracking ref counts as known.

    Settings: the strictest of those of the remote's copy of the pushed branch (or
    the commit the push builds on) and of the remote's default branch, which the
    branch is on its way to; with nothing the remote has to build on, of the
    defaults and the default branch. A lax branch on the remote cannot carry a
    change past the settings of the branch it is merged into."""
    remote = git.remote_named(where, remote_arg)
    logs: list[tuple[tuple[str, ...], bool]] = []
    known = [f"--remotes={remote}" if remote else "--remotes"]  # what the remote has
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
    logs.append((("--tags", "--not", "--remotes", *local, *known[1:]), True))
    copy = default = None
    if remote:
        branch = remote_branch.removeprefix("refs/heads/")
        copy = git.commit_of(where, f"refs/remotes/{remote}/{branch}") if branch else None
        default = _default_branch(where, remote)
        trusted += [c for c in (copy, default) if c]
    else:
        # A URL no remote has (a mirror, a fork, a new copy of one of them): the
        # settings of every remote's default branch, so the repository's own patterns
        # still apply.
        trusted += [c for c in map(functools.partial(_default_branch, where), git.remote_names(where)) if c]
    # Merging the default branch into the pushed one brings its files (its lock file)
    # as they are there: not the push's doing.
    beside = default if net is not None and remote and default and default != net[0] else None
    return History(tuple(logs), tuple((c, c[:7]) for c in dict.fromkeys(trusted)), defaults=not from_ref and copy is None, net=net, beside=beside)


def _default_branch(where: Path, remote: str) -> str | None:
    """The commit of a remote's default branch, as last fetched: ``origin/HEAD``
    (a clone sets it), else ``main`` or ``master``."""
    return next(filter(None, (git.commit_of(where, f"refs/remotes/{remote}/{name}") for name in ("HEAD", "main", "master"))), None)


# --- judging --------------------------------------------------------------------


def _with_targets(where: Path, changes: list[Change]) -> list[Change]:
    blobs = git.read_blobs(where, symlink_blobs(changes))
    if not blobs:
        return changes
    return [c._replace(target=git.decode_name(blobs[c.new_blob])) if c.is_symlink and c.new_blob in blobs else c for c in changes]


class _Step(NamedTuple):
    """A commit (or the staged tree) whose settings are compared with its parents'."""

    commit: str
    parents: tuple[str, ...]
    label: str  # as findings name it


def _loosened(settings: Settings, where: Path, steps: Sequence[_Step]) -> list[Problem]:
    """GRD003 for each step whose settings let through what none of its parents' did
    (a root commit's, what the defaults did not).

    Settings are compared by the blob that holds them, followed through symlinks, so
    a commit that edits the file ``.memcheck.yaml`` links to is seen too; only the
    steps whose blob differs from every parent's are parsed."""
    if settings.outside is not None or not steps:
        return []
    revs = {s.commit for s in steps} | {p for s in steps for p in s.parents}
    stored = git.stored_at(where, [(r, f) for r in revs for f in settings.files])

    def differs(step: _Step) -> bool:
        mine = settings.key(stored, step.commit)
        return all(settings.key(stored, p) != mine for p in step.parents) if step.parents else mine is not None

    changed = [s for s in steps if differs(s)]
    if not changed:
        return []
    configs = settings.at(where, [r for s in changed for r in (s.commit, *s.parents)])
    defaults = policy(default_config(settings.root))
    by_path: dict[str, list[tuple[str, list[str]]]] = {}
    for step in changed:
        read = [configs[r] for r in (step.commit, *step.parents)]
        after, befores = read[0], read[1:]
        if isinstance(after, ConfigError) or any(isinstance(b, ConfigError) for b in befores):
            continue  # unreadable settings judge nothing here; where they are trusted, they are an error
        before_policies = [policy(b) for b in befores if isinstance(b, Config)] or [defaults]
        after_policy = policy(after)
        # A merge loosens only what none of its parents already let through.
        found = [set(loosenings(b, after_policy)) for b in before_policies]
        items = [i for i in loosenings(before_policies[0], after_policy) if all(i in f for f in found)]
        if items:
            key = settings.key(stored, step.commit) or settings.key(stored, step.parents[0])
            path = key[0] if key else settings.files[0]
            by_path.setdefault(path, []).append((step.label, items))
    return [loosened(path, found_at) for path, found_at in by_path.items()]


def _judge_history(settings: Settings, where: Path, history: History) -> tuple[list[Problem], Config]:
    readers = [git.CommitReader(where, revs, through_refs) for revs, through_refs in history.logs]  # git starts...
    # ...while the settings are read, and the net change
    net = git.TreeDiff(where, *history.net) if history.net is not None else None
    beside = git.TreeDiff(where, history.beside, history.net[1]) if history.net is not None and history.beside else None
    config, guard = _trusted(settings, where, dict(history.trusted), history.defaults, "fix them there first")
    changes = [change for reader in readers for change in reader.read(while_reading=guard.judge)]
    commits = [c for reader in readers for c in reader.commits.values()]
    if history.whole:
        _refuse_shallow_cuts(where, commits)
    changes = _with_targets(where, changes)
    # A range is read without rename detection (see git._RANGE_OPTIONS): commits
    # whose additions or deletions are findings are read again with it, so a
    # finding says "renamed from notes.txt" rather than "added".
    renamed = {c.commit for c in changes if c.status in ("A", "D") and touches_guarded(c, guard)}
    if renamed:
        changes = _with_targets(where, git.with_renames(where, changes, renamed))
    steps = [_Step(c.sha, c.parents, commit_label(c.sha, len(c.parents) > 1, c.ref)) for c in commits]
    problems = findings(changes, guard) + _loosened(settings, where, steps)
    if net is not None:
        problems += _net_change(settings, where, net, beside, changes, guard, problems)
    return problems, config


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
    settings: Settings, where: Path, net: git.TreeDiff, beside: git.TreeDiff | None, changes: Sequence[Change], guard: Guard, found: Sequence[Problem]
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
    the head's difference from a commit whose content it may take as it is (at a
    push, the remote's default branch): only paths that differ there too count."""
    touched = {path for change in changes for path, _ in describe(change)}
    brought = [c for c in net.read() if not any(p in touched for p, _ in describe(c))]
    if beside is not None:
        differs = {path for change in beside.read() for path, _ in describe(change)}
        brought = [c for c in brought if any(p in differs for p, _ in describe(c))]
    problems = findings(_with_targets(where, brought), guard)
    reported = {p.path for p in found if p.code == GRD003.code}
    parents = (net.old,) if beside is None else (net.old, beside.old)
    problems += [p for p in _loosened(settings, where, [_Step(net.new, parents, net_label(net.new))]) if p.path not in reported]
    return problems


def _judge_staged(settings: Settings, where: Path, env: Mapping[str, str]) -> tuple[list[Problem], Config]:
    head = git.commit_of(where, "HEAD")
    config, guard = _trusted(settings, where, {head: "HEAD"} if head else {}, False, "commit the fix past this hook, SKIP=memcheck-guard git commit")
    changes = git.staged_changes(where)
    if not changes:
        # Under pre-commit outside `git commit` (which sets GIT_INDEX_FILE for its
        # hooks): `pre-commit run --all-files`, as CI and pre-commit.ci run it, where
        # a "Passed" for an empty diff would read as a verdict on the branch. The
        # tree is judged instead, as the lint hooks judge it there, and stderr says
        # what was not (pre-commit shows it with --verbose or when the hook fails).
        if env.get("PRE_COMMIT") == "1" and "GIT_INDEX_FILE" not in env:
            sys.stderr.write(NOTHING_STAGED + "\n")
            return findings(_tracked_tree(where), guard), config
        return [], config
    # The tree the commit will record: its settings are read as HEAD's are.
    tree = git.staged_tree(where)
    parents: tuple[str, ...] = (head,) if head else ()
    merging = git.merge_heads(where) if head else []
    if merging and tree is not None:
        # Concluding a merge: judged by what it brings that no parent had, as a
        # merge commit in a range is, not blamed for the other branch's commits.
        parents = (*parents, *merging)
        changes = git.merged_changes(where, tree, parents)
    problems = findings(_with_targets(where, changes), guard)
    if tree is not None:
        problems += _loosened(settings, where, [_Step(tree, parents, "")])
    return problems, config


def _tracked_tree(where: Path) -> list[Change]:
    """Every tracked file as a change with no commit; a symlink with its target."""
    links = git.tracked_symlinks(where)
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
    if request.paths or request.paths_from:
        if request.base is not None or request.head is not None:
            raise ConfigError("give paths or --base/--head, not both")
        config, in_git = _disk_settings(cwd, config_file)
        names = list(request.paths)
        if request.paths_from:
            names += _read_path_list(request.paths_from, stdin)
        return _report(findings(_listed(names, config.root, cwd, in_git), Guard(config.guard)), config)
    root = git.toplevel(cwd)
    settings = _settings(root, cwd, config_file)
    env = os.environ if env is None else env
    history = _history(request, env, cwd)
    problems, config = _judge_staged(settings, cwd, env) if history is None else _judge_history(settings, cwd, history)
    return _report(problems, config)


def list_tree(config_file: str | None, cwd: Path, fmt: str) -> int:
    """What in the tree is guarded today, by category."""
    config, _ = _disk_settings(cwd, config_file)
    tree = guarded_tree(git.tracked_files(cwd), Guard(config.guard), git.tracked_symlinks(cwd))
    if fmt == "json":
        doc = {name: [{"path": r.path, "pattern": r.pattern, **({"target": r.target} if r.target is not None else {})} for r in rows] for name, rows in tree.items()}
        sys.stdout.write(json.dumps({"categories": doc, "total": sum(map(len, tree.values()))}, ensure_ascii=False, indent=2) + "\n")
        return 0
    for name, rows in tree.items():
        sys.stdout.write(f"{name} ({len(rows)})\n")
        sys.stdout.writelines(f"  {shown(r.path)}{'' if r.target is None else f' -> {shown(r.target)}'}  [{r.pattern}]\n" for r in rows)
    total = sum(map(len, tree.values()))
    sys.stdout.write(f"{total} guarded path{'' if total == 1 else 's'} in {len(tree)} categor{'y' if len(tree) == 1 else 'ies'}.\n" if total else "No guarded paths in the tree.\n")
    return 0


def run(config_file: str | None, request: Request, fmt: str = "text", list_only: bool = False, stdin: BinaryIO | None = None) -> int:
    cwd = Path.cwd()
    if list_only:
        return list_tree(config_file, cwd, fmt)
    problems = check(config_file, request, cwd, stdin)
    report(problems, fmt, command="guard")
    return 1 if problems else 0
