"""What git says changed: staged changes, the commits of a range or a push, tracked
files and blobs (what refs and trees hold beyond that: gitrefs.py).

Every name comes from git NUL-separated (``-z``), so a path holding spaces, quotes or
newlines arrives whole. Each question is one git process: a range of any length is
one ``git log``, the symlink targets of a run are one ``git cat-file --batch``, the
settings of every commit of a range one ``git cat-file``. Git's
history is read as ``git push`` sends it: no setting of the user's or the
repository's, no replace ref or grafts file, hides a commit or a change
(``_GLOBAL_OPTIONS``).

This is the only module that runs git. Every command is a plain process: GitPython
ran guard's commands until its import (about 70 ms, and two ``git version`` processes
at import) cost more than the commit hook's whole work; it parsed nothing here anyway,
since its diff objects re-split names and drop mode-only changes, so parsing is
memcheck's own, on the NUL-separated raw formats (git_raw.py). Guard's commands run
with its options and in English (``_env``); what every check asks (the work tree's
files, git's index, what git ignores: see "Plain git" below) and the Action's fetches
run git as the user's settings have it.
"""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path
from typing import IO, Callable, Iterable, Iterator, NoReturn, Sequence

from memcheck.changes import Change
from memcheck.config import ConfigError
from memcheck.git_raw import Commit as Commit  # (named as git's by their callers)
from memcheck.git_raw import changes_in, tokens
from memcheck.git_raw import decode_name as decode_name
from memcheck.git_raw import parse_raw as parse_raw
from memcheck.listing import FileListing as FileListing  # (named as git's by their callers)
from memcheck.listing import fs_names as fs_names
from memcheck.records import NamedTuple

# Every command runs with these, so that what git shows of history does not depend on
# the user's or the repository's settings: replace refs (``git replace``) and a
# grafts file rewrite parents, and so hide commits that ``git push`` still sends;
# ``log.showRoot=false`` hides what a root commit adds; ``diff.relative`` limits a
# diff to the folder git runs in.
_GLOBAL_OPTIONS = ("--no-replace-objects", "-c", "log.showRoot=true", "-c", "diff.relative=false")
# A grafts file that cannot exist (a "file" inside the null device): no grafts, and
# no warning that they are deprecated.
_ENV = {"LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0", "GIT_GRAFT_FILE": os.path.join(os.devnull, "no-grafts")}
# Options that keep the user's git configuration, and the change itself, from changing
# what we parse: ``--ignore-submodules=none`` because a ``.gitmodules`` entry with
# ``ignore = all`` would otherwise hide the submodule it adds.
_DIFF_OPTIONS = ("--raw", "-z", "-M", "--no-abbrev", "--no-color", "--no-ext-diff", "--ignore-submodules=none")
# Rename detection is most of what `git log` costs on a large range, and it never
# changes the verdict: a rename is also a deletion and an addition, each judged on its
# own. A range is read without it; the commits that touch a guarded path by an
# addition or a deletion are read again with it (``with_renames``), for the wording.
# ``-c`` gives merge commits a diff of their own: the paths whose content differs from
# every parent (git's combined diff), which is what the merge itself brings.
# ``--root`` shows what a root commit adds, whatever ``log.showRoot`` says.
_TREE_DIFF_OPTIONS = ("--raw", "-z", "--no-renames", "--no-abbrev", "--no-color", "--no-ext-diff", "--ignore-submodules=none")
_RANGE_OPTIONS = (*_TREE_DIFF_OPTIONS, "-c", "--root")
# Nothing a commit's author wrote goes into this NUL-separated stream (a NUL in a crafted
# commit's message would split it): who made a commit is read from the commit object
# itself, when a finding needs it (``read_blobs``).
_LOG_OPTIONS = ("--no-show-signature", "--no-notes", "--format=%x01%H %P")
_LOG_THROUGH_REFS = ("--no-show-signature", "--no-notes", "--source", "--format=%x01%H %P%x02%S")
# Copy detection (-C) only names a copy whose source the same change also modifies,
# and that source is then flagged as modified anyway: it changes a finding's wording,
# never the verdict. It is worth its cost on a commit, not on a 10,000-path range,
# where it makes git log ten times slower.
_FIND_COPIES = "-C"


class GitError(ConfigError):
    """git could not answer: reported on one line, exit code 2."""


class _Result(NamedTuple):
    returncode: int
    stdout: bytes
    stderr: bytes


def _env() -> dict[str, str]:
    # English messages from git whatever the user's language (its errors are quoted,
    # and parsed in places), as GitPython ran these commands before.
    return {**os.environ, "LANGUAGE": "C", **_ENV}


def _cwd(root: Path) -> str | None:
    # A folder that is gone or cannot be entered: git runs where memcheck does, and
    # says what is wrong itself.
    return str(root) if os.access(root, os.X_OK) else None


def _popen(root: Path, args: Sequence[str], stdin: int | None = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    try:
        return subprocess.Popen(
            ["git", *_GLOBAL_OPTIONS, *args], cwd=_cwd(root), env=_env(), stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
    except OSError:
        raise GitError("git is not installed or not on PATH; memcheck guard needs it") from None


def _run(root: Path, args: Sequence[str], stdin: bytes | None = None) -> _Result:
    proc = _popen(root, args, subprocess.DEVNULL if stdin is None else subprocess.PIPE)
    out, err = proc.communicate(stdin)
    return _Result(proc.returncode, out, err)


def _out(root: Path, args: Sequence[str], stdin: bytes | None = None) -> bytes:
    proc = _run(root, args, stdin)
    if proc.returncode != 0:
        _fail(args, proc.returncode, proc.stderr)
    return proc.stdout


def output(root: Path, args: Sequence[str], stdin: bytes | None = None) -> bytes:
    """What a git command writes to stdout; a failure is a ``GitError`` (for gitrefs)."""
    return _out(root, args, stdin)


def start(root: Path, args: Sequence[str]) -> Started:
    """A git command started now, its stdout read in chunks (for gitrefs)."""
    return Started(root, args)


def attempt(root: Path, args: Sequence[str]) -> tuple[int, bytes]:
    """A git command's exit status and stdout, a failure being an answer too."""
    result = _run(root, args)
    return result.returncode, result.stdout


def _fail(args: Sequence[str], status: int, stderr: bytes) -> NoReturn:
    message = decode_name(stderr).strip().splitlines()
    raise GitError(f"git {args[0]} failed: {message[-1] if message else f'exit {status}'}")


class Started:
    """A command started when this is made; iterated, its output comes in chunks, as
    git writes it, so it is parsed and judged while git is still working on the rest,
    or while memcheck does something else. (git writes a line or two to stderr at
    most: it is read once stdout ends, without risk of either pipe filling up.)
    ``close`` stops git when its output is not wanted after all."""

    def __init__(self, root: Path, args: Sequence[str]) -> None:
        self._args = args
        self._proc = _popen(root, args)
        assert self._proc.stdout is not None
        _widen(self._proc.stdout.fileno())

    def __iter__(self) -> Iterator[bytes]:
        proc = self._proc
        assert isinstance(proc.stdout, io.BufferedReader) and proc.stderr is not None  # bufsize -1: buffered
        try:
            while chunk := proc.stdout.read1(1 << 16):  # what has arrived, without waiting for more
                yield chunk
            stderr = proc.stderr.read()
            status = proc.wait()
        finally:
            self.close()
        if status != 0:
            _fail(self._args, status, stderr)

    def read(self) -> bytes:
        return b"".join(self)

    def close(self) -> None:
        proc = self._proc
        if proc.poll() is None:  # not read to the end (an error, a refusal): git is stopped
            proc.kill()
            proc.wait()
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()


def _widen(fd: int) -> None:
    """Let git write up to 1 MiB ahead of us (Linux; elsewhere the pipe stays as it
    is). With the usual 64 KiB, git stops whenever we are busy judging what came
    before, and its time and ours add up instead of overlapping."""
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)
    except (ImportError, AttributeError, OSError):
        pass


class Located(NamedTuple):
    """Where a command runs, as one ``git rev-parse`` tells it."""

    top: Path  # the top of the work tree
    head: str | None  # HEAD's commit; None before the first commit
    merge_head: Path  # the file naming the commits a merge in progress brings (``MERGE_HEAD``)


def locate(cwd: Path) -> Located:
    """``toplevel``, ``commit_of(HEAD)`` and where ``merge_heads_in`` looks, at one process."""
    try:
        proc = _run(cwd, ["rev-parse", "--show-toplevel", "--git-path", "MERGE_HEAD", "--verify", "--quiet", "HEAD^{commit}"])
    except GitError:  # no git
        toplevel(cwd)
        raise
    lines = proc.stdout.split(b"\n")
    # exit 1 and no commit: an unborn HEAD; anything else: no work tree here
    if proc.returncode not in (0, 1) or len(lines) < 3 or not lines[0] or (proc.returncode == 0) != bool(lines[2]):
        toplevel(cwd)  # the error it gives
        raise GitError(f"git rev-parse failed: {decode_name(proc.stderr).strip() or f'exit {proc.returncode}'}")
    head = decode_name(lines[2]).strip() if proc.returncode == 0 else None
    return Located(Path(os.fsdecode(lines[0])), head, cwd / os.fsdecode(lines[1]))


def toplevel(cwd: Path) -> Path:
    """The top of the work tree git works on from ``cwd`` (``GIT_DIR`` and
    ``GIT_WORK_TREE`` included)."""
    found = work_tree(cwd)
    if found is None:
        raise GitError(f"not a git repository: {cwd}; run memcheck guard inside a git work tree, or name the paths to check")
    return found


def work_tree(cwd: Path) -> Path | None:
    try:
        proc = _run(cwd, ["rev-parse", "--show-toplevel"])
    except GitError:  # git is not installed: no work tree either
        return None
    if proc.returncode != 0 or not proc.stdout.strip():
        return None
    return Path(os.fsdecode(proc.stdout.rstrip(b"\n")))


def resolve(root: Path, ref: str) -> str:
    """The commit a ref names."""
    _check_ref(ref)
    proc = _run(root, ["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"])
    if proc.returncode != 0:
        if is_shallow(root):  # most likely a commit past the clone's edge
            raise GitError(
                f"unknown ref {ref!r}: no such commit in this shallow clone; fetch more history: "
                f"git fetch --deepen=100 (repeat until it is found), git fetch --unshallow or git fetch origin {ref} "
                "(actions/checkout: fetch-depth: 0)"
            )
        raise GitError(f"unknown ref {ref!r}: no such commit in this repository; check the name or fetch it (git fetch origin {ref})")
    return decode_name(proc.stdout).strip()


def is_shallow(root: Path) -> bool:
    return _out(root, ["rev-parse", "--is-shallow-repository"]).strip() == b"true"


def merge_base(root: Path, base: str, head: str, names: tuple[str, str]) -> str:
    proc = _run(root, ["merge-base", base, head])
    if proc.returncode == 0:
        return decode_name(proc.stdout).strip()
    if is_shallow(root):
        depth = int(_out(root, ["rev-list", "--count", head]).strip() or 0)
        raise GitError(
            f"no merge base of {names[0]} and {names[1]} in this shallow clone ({depth} commits deep from {names[1]}); "
            f"fetch more history: git fetch --deepen={max(depth, 50)} (repeat until it is found) or git fetch --unshallow"
        )
    raise GitError(f"{names[0]} and {names[1]} have no common history; pass as --base the branch {names[1]} was made from")


class StagedDiff:
    """What ``git commit`` would record: the index against HEAD (or nothing, before
    the first commit), with git started when this is made (as ``TreeDiff``)."""

    def __init__(self, root: Path) -> None:
        self._output = Started(root, ["diff", "--cached", *_DIFF_OPTIONS, _FIND_COPIES])

    def read(self) -> list[Change]:
        return list(changes_in(tokens(self._output)))

    def close(self) -> None:
        self._output.close()


def merge_heads_in(path: Path) -> list[str]:
    """The commits being merged into HEAD while a merge waits to be committed, from
    the file ``Located.merge_head`` names (``.git/MERGE_HEAD``: one line each,
    several for an octopus merge)."""
    try:
        lines = path.read_text("ascii").split()
    except (OSError, UnicodeDecodeError):
        return []
    return [line for line in lines if len(line) in (40, 64) and all(ch in "0123456789abcdef" for ch in line)]


def merged_changes(root: Path, tree: str, parents: Sequence[str]) -> list[Change]:
    """What a merge that records ``tree`` brings that none of ``parents`` had: git's
    combined diff, as ``CommitReader`` reads a merge commit's."""
    return parse_raw(_out(root, ["diff", "-c", *_TREE_DIFF_OPTIONS, tree, *parents, "--"]))


def _check_ref(ref: str) -> None:
    if not ref:
        raise GitError("empty ref: name a branch, tag or commit")
    if ref.startswith("-"):
        raise GitError(f"unknown ref {ref!r}: a ref cannot start with '-'")


def range_base(root: Path, base: str, head: str) -> str:
    """The merge base of ``base`` and ``head``, or an error that says what to do: an
    unknown ref, a shallow clone without the merge base, or unrelated histories."""
    for ref in (base, head):
        _check_ref(ref)
    found = _run(root, ["merge-base", f"{base}^{{commit}}", f"{head}^{{commit}}"])
    if found.returncode != 0:
        merge_base(root, resolve(root, base), resolve(root, head), (base, head))
        _fail(["merge-base"], found.returncode, found.stderr)
    return decode_name(found.stdout).strip()


def shallow_cut(root: Path, commits: Iterable[str]) -> list[str]:
    """Of ``commits``, which ``git log`` shows without parents, those whose commit
    object names parents all the same: history a shallow clone (``.git/shallow``, or
    ``GIT_SHALLOW_FILE``) cuts off there, so what came before them cannot be judged.
    A true root commit names no parent. One ``git cat-file --batch`` call."""
    objects = read_blobs(root, commits)
    return sorted(
        sha for sha, body in objects.items() if any(line.startswith(b"parent ") for line in body.partition(b"\n\n")[0].split(b"\n"))
    )


def range_cut(root: Path, base: str, head: str) -> list[str]:
    """The commits of ``head`` that ``base`` lacks at which a shallow clone's history
    stops (see ``shallow_cut``): empty when the clone holds the whole range."""
    roots = _out(root, ["rev-list", "--max-parents=0", head, "--not", base, "--"]).split()
    return shallow_cut(root, [decode_name(sha) for sha in roots])


class CommitReader:
    """Every commit's own changes, in the order git lists them: the commits that
    ``revs`` name, as ``git log`` takes them (``["main..feature"]``,
    ``["--branches", "--not", "--remotes=origin"]``).

    Judged commit by commit, not by the net diff: a secret added and deleted again is
    still in the history being pushed. A merge commit brings what differs from every
    parent (see ``_merge_change``); its parents' own commits are judged on their own.

    git starts when this is made; ``read`` collects what it writes. Work done in
    between (reading the guard's settings, compiling its patterns) costs no time of
    its own. With ``through_refs``, each change names the ref (``--source``) its
    commit was reached through.
    """

    def __init__(self, root: Path, revs: Sequence[str], through_refs: bool = False) -> None:
        log = _LOG_THROUGH_REFS if through_refs else _LOG_OPTIONS
        self._output = Started(root, ["log", "--reverse", *log, *_RANGE_OPTIONS, *revs, "--"])
        self.commits: dict[str, Commit] = {}

    def read(self, while_reading: Callable[[Change], object] | None = None) -> list[Change]:
        """The changes, in commit order. ``while_reading`` sees each as it arrives, while
        git works on the next commits: on a large range, judging then costs no time."""
        changes = []
        for change in changes_in(tokens(self._output), self.commits):
            changes.append(change)
            if while_reading is not None:
                while_reading(change)
        return changes

    def parents(self, commit: str) -> tuple[str, ...]:
        return self.commits[commit].parents if commit in self.commits else ()


def is_ancestor(root: Path, old: str, new: str) -> bool:
    """Whether ``new`` holds ``old`` in its history (a push of ``new`` moves a ref at
    ``old`` forward)."""
    return _run(root, ["merge-base", "--is-ancestor", old, new]).returncode == 0


class TreeDiff:
    """What ``new`` holds that ``old`` does not, path by path (``git diff --raw``
    between two commits, no rename detection): the net change of a range. Started
    when made, read with ``read``, as ``CommitReader`` is."""

    def __init__(self, root: Path, old: str, new: str) -> None:
        self.old, self.new = resolve(root, old), resolve(root, new)
        self._output = Started(root, ["diff", *_TREE_DIFF_OPTIONS, self.old, self.new, "--"])

    def read(self) -> list[Change]:
        return [c._replace(commit=self.new, net=True) for c in changes_in(tokens(self._output))]


def with_renames(root: Path, changes: Sequence[Change], commits: set[str]) -> list[Change]:
    """``changes`` (from ``CommitReader``), with those of ``commits`` read again with
    rename detection, so a renamed file is one change naming both paths. A merge's
    changes are kept as they are: rename detection does not apply to its combined diff."""
    commits = commits - {c.commit for c in changes if c.merge}
    if not commits:
        return list(changes)
    output = _out(root, ["log", "--no-walk=unsorted", *_LOG_OPTIONS, *_DIFF_OPTIONS, *sorted(commits), "--"])
    again: dict[str, list[Change]] = {}
    for change in parse_raw(output):
        again.setdefault(change.commit, []).append(change)
    result: list[Change] = []
    for change in changes:
        if change.commit not in commits:
            result.append(change)
        elif change.commit in again:
            # in place of the commit's first change, still naming the ref it was reached through
            result.extend(c._replace(ref=change.ref) for c in again.pop(change.commit))
    return result


def tracked_files(root: Path) -> list[str]:
    """Every tracked path, relative to the top of the work tree wherever git runs."""
    return [decode_name(name) for name in _out(root, ["ls-files", "-z", "--full-name", "--", ":/"]).split(b"\0") if name]


def files_under(root: Path, folder: str) -> list[str] | None:
    """The files git would commit under a repository-relative folder ("" for the
    whole tree): tracked ones and untracked ones it does not ignore. None outside
    a git work tree."""
    spec = [f":(top,literal){folder}"] if folder else []
    proc = _run(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--full-name", "--", *spec])
    if proc.returncode != 0:
        return None
    return list(dict.fromkeys(decode_name(name) for name in proc.stdout.split(b"\0") if name))


def read_blobs(root: Path, shas: Iterable[str]) -> dict[str, bytes]:
    """The content of each blob (or commit object, as stored), in one ``git cat-file
    --batch`` call."""
    wanted = sorted({sha for sha in shas if sha.strip("0")})
    if not wanted:
        return {}
    output = _out(root, ["cat-file", "--batch"], ("\n".join(wanted) + "\n").encode())
    blobs: dict[str, bytes] = {}
    pos = 0
    while pos < len(output):
        end = output.index(b"\n", pos)
        header = output[pos:end].split(b" ")
        pos = end + 1
        if len(header) == 3:
            size = int(header[2])
            blobs[decode_name(header[0])] = output[pos : pos + size]
            pos += size + 1
    return blobs


def commit_of(root: Path, ref: str) -> str | None:
    """The commit a ref names, or None when there is none (an unborn HEAD, a remote
    branch never fetched)."""
    if not ref or ref.startswith("-"):
        return None
    proc = _run(root, ["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"])
    return decode_name(proc.stdout).strip() if proc.returncode == 0 else None


def staged_tree(root: Path) -> str | None:
    """The tree the index holds (what ``git commit`` is about to record), written to
    the object store as ``git commit`` is about to write it, so its files can be read
    with the same ``rev:path`` requests as a commit's. None when the index cannot be
    a tree (unresolved conflicts) or the object store is read-only."""
    proc = _run(root, ["write-tree"])
    return decode_name(proc.stdout).strip() if proc.returncode == 0 else None


# ---------------------------------------------------------------------- Plain git
# What ``memcheck check`` and ``fix`` ask git (the files of the work tree or of its
# index, what it ignores, what it stages) runs as a plain process, as the user's git
# would: with their settings (their ignore rules are what "ignored" means) and none of
# guard's options. The work tree's files, listed first of all: memcheck/listing.py.


# The questions a commit hook (``check --changed``, ``fix --changed``) asks git first,
# whatever the tree: the staged change, git's index with its blob ids, HEAD's commit,
# and whether git converts files on their way in (see engine/content_keys._converts).
CHANGED_NAMES = ("--literal-pathspecs", "diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv")
STAGED_CHANGE = (*CHANGED_NAMES, "--cached")
INDEX_RECORDS = ("ls-files", "-s", "-v", "-z")
CONVERSIONS = ("config", "--get-regexp", r"^(core\.(autocrlf|eol|attributesfile)|filter\..*)$")


def head_commit_question(ref: str) -> tuple[str, ...]:
    return ("rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")


# Processes ``ask_ahead`` started, by the process that started them, the folder and the
# command line: each answers the first ``plain`` that asks the same, once.
_ASKED_AHEAD: dict[tuple[int, str, tuple[str, ...]], subprocess.Popen[bytes]] = {}


def ask_ahead(root: Path, questions: Iterable[Sequence[str]]) -> None:
    """Start ``git`` on each of ``questions`` in ``root`` now, for ``plain`` to read
    when it asks the same: a commit hook asks them first thing, and started before it
    imports the rest of memcheck, git answers on the other CPU meanwhile (four git
    processes, a few milliseconds each, of a hook's run). Only what git says now of
    what the hook does not change (its index, HEAD, its settings) is asked ahead; a
    question nobody asks costs its process, ended with the run (``drop_asked_ahead``)."""
    for args in questions:
        key = (os.getpid(), str(root), tuple(args))
        if key in _ASKED_AHEAD:
            continue
        try:
            _ASKED_AHEAD[key] = subprocess.Popen(["git", *args], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except OSError:
            return


def drop_asked_ahead() -> None:
    """End the processes ``ask_ahead`` started that nothing asked (a hook that stops on
    a settings error asks git nothing): a hook leaves no git running behind it. Ended
    by SIGTERM, on which git removes any lock file it holds."""
    for key in [key for key in _ASKED_AHEAD if key[0] == os.getpid()]:
        proc = _ASKED_AHEAD.pop(key)
        proc.terminate()
        try:
            proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            pass


def plain(root: Path, args: Sequence[str]) -> bytes | None:
    """``git ARGS`` run in ``root``: its output, or None when it fails or there is no git."""
    ahead = _ASKED_AHEAD.pop((os.getpid(), str(root), tuple(args)), None) if _ASKED_AHEAD else None
    if ahead is not None:
        out, _ = ahead.communicate()
        return out if ahead.returncode == 0 else None
    try:
        proc = subprocess.run(["git", *args], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:
        return None
    return proc.stdout if proc.returncode == 0 else None


def index_records(root: Path) -> bytes | None:
    """git's index as ``ls-files -s -v -z`` gives it: a tag, mode, blob id and stage
    before each path (the tag says whether git looks at the file on disk)."""
    return plain(root, INDEX_RECORDS)


def indexed_files(records: bytes | None) -> frozenset[str]:
    """Every file git's index holds, from its ``index_records`` (none outside a work
    tree): the paths ``ls-files --cached`` lists, without a second git process."""
    return frozenset(path for record in fs_names(records or b"") if (path := record.partition("\t")[2]))


def unstaged_files(root: Path) -> frozenset[str]:
    """Files whose copy on disk is not what git's index holds (edited or deleted since)."""
    return frozenset(fs_names(plain(root, ["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv"]) or b""))


def staged_blob(root: Path, path: str) -> bytes | None:
    """What git's index holds for ``path``; None when it holds nothing there."""
    # ':0:' is the index's stage 0: what the commit will hold (a path never
    # starts with '/', so this is never read as a search of commit messages).
    return plain(root, ["cat-file", "blob", f":0:{path}"])


# The most bytes of object names written to `git cat-file --batch` before its answers
# are read: less than the smallest pipe (a page), so the write never waits on git.
_NAMES_AT_ONCE = 4000


class BlobReader:
    """Blobs read one at a time, as a check asks for them, from one ``git cat-file
    --batch`` that the first read starts and ``close`` ends: a commit's files read
    at one process, not one each. A process forked from this one (see
    engine.queue) starts its own rather than share the pipes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._proc: subprocess.Popen[bytes] | None = None
        self._pid = 0

    def read(self, blob: str, limit: int) -> tuple[bytes, int] | None:
        """The first ``limit`` bytes of ``blob`` (an object, or ``REV:PATH``) and its
        size; None when git cannot give it."""
        if "\n" in blob:
            return None  # git reads one name a line
        try:
            proc = self._process()
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(blob.encode("utf-8", "surrogateescape") + b"\n")
            proc.stdin.flush()
            return self._answer(proc.stdout, limit)
        except (OSError, ValueError):
            self.close()
            return None

    def read_many(self, blobs: Sequence[str], limit: int) -> list[tuple[bytes, int] | None]:
        """``read`` of each of ``blobs``, asked of git a batch at a time rather than one
        after another: a store's memories read from a commit were one round trip each
        between this process and git's (600 of them an eighth of a first commit
        hook's time). Each batch of names is smaller than any pipe holds, so writing
        it never waits on git, whose answers are read once it is written."""
        found: list[tuple[bytes, int] | None] = []
        batch: list[str] = []
        size = 0
        for blob in blobs:
            if "\n" in blob:
                return [self.read(b, limit) for b in blobs]
            if batch and size + len(blob) + 1 > _NAMES_AT_ONCE:
                found += self._read_batch(batch, limit)
                batch, size = [], 0
            batch.append(blob)
            size += len(blob) + 1
        if batch:
            found += self._read_batch(batch, limit)
        return found

    def _read_batch(self, blobs: list[str], limit: int) -> list[tuple[bytes, int] | None]:
        try:
            proc = self._process()
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write("".join(f"{blob}\n" for blob in blobs).encode("utf-8", "surrogateescape"))
            proc.stdin.flush()
            return [self._answer(proc.stdout, limit) for _ in blobs]
        except (OSError, ValueError):
            self.close()
            return [None] * len(blobs)

    @staticmethod
    def _answer(out: IO[bytes], limit: int) -> tuple[bytes, int] | None:
        header = out.readline().split()
        if len(header) != 3 or not header[2].isdigit():  # "<blob> missing"
            return None
        size = int(header[2])
        data = out.read(min(size, limit))
        left = size - len(data) + 1  # what is past the limit, and the newline after the blob
        while left > 0 and (chunk := out.read(min(left, 1 << 16))):
            left -= len(chunk)
        return data, size

    def _process(self) -> subprocess.Popen[bytes]:
        if self._proc is None or self._pid != os.getpid():
            self._proc = subprocess.Popen(
                ["git", "cat-file", "--batch"], cwd=self.root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
            )
            self._pid = os.getpid()
        return self._proc

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and self._pid == os.getpid():
            for pipe in (proc.stdin, proc.stdout):
                if pipe is not None:
                    pipe.close()
            proc.wait()


def changed_names(root: Path, revs: Sequence[str]) -> list[str] | None:
    """The paths a diff touches, every side of it (``--no-renames``: a rename is its
    source deleted and its target added), sorted: ``["--cached"]`` the staged change,
    ``["A...B"]`` or ``["A", "B"]`` commits'. None when git cannot say."""
    out = plain(root, [*CHANGED_NAMES, *revs])
    return None if out is None else sorted(fs_names(out))


def renamed_files(root: Path, revs: Sequence[str]) -> dict[str, str]:
    """The files a diff renames, as git's rename detection finds them: old path ->
    new path (empty when git cannot say). ``revs`` as for ``changed_names``."""
    out = plain(root, ["--literal-pathspecs", "diff", "--name-status", "-z", "-M", "--no-ext-diff", "--no-textconv", *revs])
    fields = list(fs_names(out)) if out is not None else []
    found: dict[str, str] = {}
    i = 0
    while i < len(fields):
        status = fields[i]
        if status.startswith(("R", "C")) and i + 2 < len(fields):
            if status.startswith("R"):
                found[fields[i + 1]] = fields[i + 2]
            i += 3
        else:
            i += 2
    return found


def ignored(root: Path, paths: Sequence[str]) -> set[str]:
    """Of these repository-relative paths (which need not exist), the ones git's
    ignore rules match: one ``git check-ignore`` for all of them. Empty outside a
    work tree, or without git."""
    if not paths or not (root / ".git").exists():
        return set()
    # check-ignore takes paths, not pathspecs, and refuses pathspec magic: no
    # --literal-pathspecs, and none from the environment either.
    env = {k: v for k, v in os.environ.items() if not k.endswith("_PATHSPECS")}
    try:
        proc = subprocess.run(
            ["git", "check-ignore", "-z", "--stdin"],
            cwd=root,
            env=env,
            input="\0".join(paths).encode("utf-8", "surrogateescape") + b"\0",
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return set()
    if proc.returncode not in (0, 1):  # 1: none of them is ignored
        return set()
    return {p for p in proc.stdout.decode("utf-8", "surrogateescape").split("\0") if p}


# Paths per `git ls-files` call: far below any system's argument-length limit.
_PATHS_PER_CALL = 1000


def index_symlinks(root: Path, paths: Sequence[str]) -> set[str]:
    """The ``paths`` that git's index records as symlinks (mode 120000).

    With ``core.symlinks=false`` (Windows, some CI checkouts) git writes a symlink as
    a plain file holding the target's path: only the index tells the two apart. One
    call for all the paths (in batches past ``_PATHS_PER_CALL``); outside a work tree,
    none.
    """
    found: set[str] = set()
    if not paths or not (root / ".git").exists():
        return found
    for start in range(0, len(paths), _PATHS_PER_CALL):
        out = plain(root, ["--literal-pathspecs", "ls-files", "-z", "--stage", "--", *paths[start : start + _PATHS_PER_CALL]])
        if out is None:
            return found
        for entry in out.decode("utf-8", "surrogateescape").split("\0"):
            # "<mode> <object> <stage>\t<path>"
            info, tab, path = entry.partition("\t")
            if tab and info.startswith("120000 "):
                found.add(path)
    return found


def as_user(*args: str) -> subprocess.CompletedProcess[str]:
    """``git ARGS`` in the current folder, as the user would run it (their settings,
    their language in its messages), its output as text: the Action's fetches, whose
    errors it shows."""
    return subprocess.run(["git", *args], capture_output=True, text=True)


# Config a commit cannot write: git's own scopes. Not `git -c` (the command scope),
# and not a file inside the work tree, which a commit holds (an include.path, or a
# GIT_CONFIG_GLOBAL a committed .envrc exports, can point there).
_PERSONAL_SCOPES = frozenset({"system", "global", "local", "worktree"})


def personal_config(root: Path, key: str) -> list[str]:
    """The values of a multi-valued config ``key`` from the machine's and the
    repository's own config files (system, global, ``.git/config``), never from a
    file of the work tree nor from the command line: what a person sets for this
    machine, which no commit can set for them."""
    code, out = attempt(root, ["config", "--show-scope", "--show-origin", "--null", "--get-all", key])
    if code != 0:
        return []
    fields = out.split(b"\0")
    found = []
    for scope, origin, value in zip(fields[0::3], fields[1::3], fields[2::3]):
        where = decode_name(origin)
        if decode_name(scope) not in _PERSONAL_SCOPES or not where.startswith("file:"):
            continue
        path = (root / where.removeprefix("file:")).resolve()
        if path.is_relative_to(root.resolve()) and path.relative_to(root.resolve()).parts[:1] != (".git",):
            continue
        found.append(decode_name(value).strip())
    return found


def identity(root: Path, which: str) -> str:
    """``GIT_AUTHOR_IDENT`` or ``GIT_COMMITTER_IDENT``: who a commit made now would
    name (``Name <email> TIME ZONE``), as git works it out from the environment and
    config; "" when git cannot say."""
    code, out = attempt(root, ["var", which])
    return decode_name(out).strip() if code == 0 else ""
