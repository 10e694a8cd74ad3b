"""Which commits a change is, and which commits' settings judge them.

The changes come from the first of these that applies:

- paths named on the command line or read with ``--paths-from`` (``guard/named``);
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
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping, Sequence

from memcheck import git, gitrefs
from memcheck.changes import NO_MODE, TAGGED_BLOB, Change
from memcheck.config import ConfigError
from memcheck.guard.findings import symlink_blobs
from memcheck.records import NamedTuple


class History(NamedTuple):
    """The commits to judge, as ``git log`` arguments, and the commits whose settings judge them."""

    logs: tuple[tuple[tuple[str, ...], bool], ...]  # (revs, whether a commit names the ref it was found through)
    trusted: tuple[tuple[str, str], ...]  # (revision, how messages name it): the strictest of their settings judges; none: the defaults
    defaults: bool = False  # the defaults have a say too (nothing the remote has to build on)
    net: tuple[str, str] | None = None  # where the change starts and its head: its net change is judged too
    whole: bool = False  # a range: refused when a shallow clone cuts it
    beside: tuple[str, ...] = ()  # a push: commits (the remotes' default branches) whose content the net change may bring freely
    tagged: tuple[Change, ...] = ()  # a push: what the local tags on trees and blobs hold, which no commit shows
    pushed: bool = (
        False  # judged at pre-push (the pusher's own hook, not a range CI names; from an agent's shell, its commits are the agent's)
    )


def _given(flag: str, value: str | None) -> None:
    if value is not None and not value.strip():
        raise ConfigError(f"{flag} is empty: name a branch, tag or commit (is a variable in the script unset?)")


def commits_to_judge(
    where: Path, env: Mapping[str, str], base: str | None, head: str | None, settings_from: Sequence[str] = ()
) -> History | None:
    """The history to judge: a range given as ``base``/``head``, a push or a range
    pre-commit names in ``env``; None for the staged changes."""
    if base is not None or head is not None:
        _given("--base", base)
        _given("--head", head)
        if base is None:
            raise ConfigError("--head needs --base: the range is judged from their merge base")
        return _range(where, base, head or "HEAD", settings_from)
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
    # What the remotes have: another remote's commits are not the pusher's either. A
    # remote-tracking ref that no fetch, pull, clone or push set is not the remote's word.
    # (--exclude names a ref as --remotes does: without refs/remotes/.)
    known = [*(f"--exclude={ref.removeprefix('refs/remotes/')}" for ref in _hand_made_remote_refs(where)), "--remotes"]
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
    branches = default_branches(where)
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
        tagged=tuple(_tagged(where)), pushed=True,
    )  # fmt: skip


# How git's reflog names what set a remote-tracking ref from the remote's own word
# (git-fetch, git-pull, git-clone, and git-push's "update by push"); `git update-ref`
# writes no message unless given one, `git branch`, `git reset` and the rest their own.
_FROM_THE_REMOTE = (b"fetch", b"pull", b"clone:", b"update by push", b"remote: renamed")


def _hand_made_remote_refs(where: Path) -> list[str]:
    """The remote-tracking refs whose last reflog entry says no fetch, pull, clone or
    push set them: an agent's own ``git update-ref refs/remotes/origin/x HEAD`` would
    otherwise make the commits it points at "the remote's", never judged at push. Read
    from the reflog files (no git process: a push hook runs as every push starts);
    a ref without a reflog (packed, or reflogs off) stands as the remote's, and so does
    every one in a repository whose refs git keeps otherwise (reftable). Not promised:
    a reflog message the agent writes itself (``update-ref -m "fetch: …"``)."""
    common = _common_dir(where)
    if common is None:
        return []
    logs = common / "logs"
    found = []
    for folder, _, names in os.walk(logs / "refs" / "remotes"):
        for name in names:
            path = Path(folder, name)
            try:
                with open(path, "rb") as f:
                    f.seek(max(0, os.fstat(f.fileno()).st_size - 4096))
                    last = f.read().rstrip(b"\n").rpartition(b"\n")[2]
            except OSError:
                continue
            message = last.partition(b"\t")[2]
            if not message.startswith(_FROM_THE_REMOTE):
                found.append(path.relative_to(logs).as_posix())
    return sorted(found)


def _common_dir(where: Path) -> Path | None:
    """The repository's common git folder (a worktree's is its main repository's)."""
    from memcheck.engine.cache_folder import git_dir

    gitdir = git_dir(where)
    if gitdir is None:
        return None
    try:
        common = (gitdir / "commondir").read_text("utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return gitdir  # the main repository's own
    found = Path(common) if Path(common).is_absolute() else gitdir / common
    return found if found.is_dir() else None


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
    return with_targets(where, changes)


def default_branches(where: Path) -> dict[str, tuple[str, str]]:
    """Each remote's default branch, as last fetched: ``origin/HEAD`` (a clone sets
    it), else ``main`` or ``master``; by remote, its name (``origin/main``) and commit."""
    found = {remote: gitrefs.remote_default(where, remote) for remote in gitrefs.remote_names(where)}
    return {remote: branch for remote, branch in found.items() if branch}


def refuse_shallow_cuts(where: Path, commits: Sequence[git.Commit]) -> None:
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


def with_targets(where: Path, changes: list[Change], known: Mapping[str, bytes] | None = None) -> list[Change]:
    """The changes, each symlink with its target; ``known``: blobs read already."""
    wanted = symlink_blobs(changes)
    blobs = {blob: known[blob] for blob in wanted if known and blob in known}
    blobs.update(git.read_blobs(where, wanted - blobs.keys()))
    if not blobs:
        return changes
    return [c._replace(target=git.decode_name(blobs[c.new_blob])) if c.is_symlink and c.new_blob in blobs else c for c in changes]
