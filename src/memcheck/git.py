"""What git says changed: staged changes, the commits of a range, tracked files, blobs.

Every name comes from git NUL-separated (``-z``), so a path holding spaces, quotes or
newlines arrives whole. Each question is one git process: a range of any length is
one ``git log``, the symlink targets of a run are one ``git cat-file --batch``.

This is the only module that imports GitPython, and only inside ``_run``: importing
it costs about 100 ms, which ``memcheck --version`` and ``memcheck check`` never pay
(discovery lists files with one plain ``git ls-files``). GitPython runs each command
and hands back its exit status and output; parsing stays here, on the NUL-separated
raw formats, because GitPython's own diff objects re-split names and drop mode-only
changes.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, NamedTuple, NoReturn, Sequence

from memcheck.config import ConfigError

SYMLINK_MODE = "120000"
GITLINK_MODE = "160000"  # a submodule: a folder in the tree
TREE_MODE = "040000"  # a folder
_NO_MODE = "000000"
# Options that keep the user's git configuration from changing what we parse.
_DIFF_OPTIONS = ("--raw", "-z", "-M", "--no-abbrev", "--no-color", "--no-ext-diff")
# Rename detection is most of what `git log` costs on a large range, and it never
# changes the verdict: a rename is also a deletion and an addition, each judged on its
# own. A range is read without it; the commits that touch a guarded path by an
# addition or a deletion are read again with it (``with_renames``), for the wording.
_RANGE_OPTIONS = ("--raw", "-z", "--no-renames", "--no-abbrev", "--no-color", "--no-ext-diff")
# Copy detection (-C) only names a copy whose source the same change also modifies,
# and that source is then flagged as modified anyway: it changes a finding's wording,
# never the verdict. It is worth its cost on a commit, not on a 10,000-path range,
# where it makes git log ten times slower.
_FIND_COPIES = "-C"


class GitError(ConfigError):
    """git could not answer: reported on one line, exit code 2."""


class Change(NamedTuple):
    """One path a change touched, as git's raw diff format describes it."""

    status: str  # git's letter: A C D M R T U X; "" for a path named on the command line
    path: str  # the path after the change (the only one, except for R and C)
    source: str = ""  # R and C: the path it was renamed or copied from
    old_mode: str = ""
    new_mode: str = ""
    new_blob: str = ""
    commit: str = ""  # range mode: the commit that made the change


def decode_name(raw: bytes) -> str:
    # Names are bytes to git; a name that is not UTF-8 still has to be printed.
    return raw.decode("utf-8", "backslashreplace")


class _Result(NamedTuple):
    returncode: int
    stdout: bytes
    stderr: bytes


_ENV = {"LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0"}


def _gitpython() -> Any:
    try:
        import git  # GitPython: only here, so nothing else pays for its import
    except ImportError as e:  # it is a dependency; a broken install still gets one line
        raise GitError(f"GitPython cannot be imported ({e}); reinstall memcheck") from None
    return git


def _run(root: Path, args: Sequence[str], stdin: bytes | None = None) -> _Result:
    git = _gitpython()
    with contextlib.ExitStack() as stack:
        stream = None
        if stdin is not None:
            import tempfile  # only for the commands fed on stdin

            stream = stack.enter_context(tempfile.TemporaryFile())
            stream.write(stdin)
            stream.seek(0)
        try:
            status, out, err = git.Git(str(root)).execute(
                ["git", *args],
                istream=stream,
                with_extended_output=True,
                with_exceptions=False,
                stdout_as_string=False,
                strip_newline_in_stdout=False,
                env=_ENV,
            )
        except git.GitCommandNotFound:
            raise GitError("git is not installed or not on PATH; memcheck guard needs it") from None
    err_bytes = err.encode("utf-8", "backslashreplace") if isinstance(err, str) else (err or b"")
    return _Result(int(status or 0), out or b"", err_bytes)


def _out(root: Path, args: Sequence[str], stdin: bytes | None = None) -> bytes:
    proc = _run(root, args, stdin)
    if proc.returncode != 0:
        _fail(args, proc.returncode, proc.stderr)
    return proc.stdout


def _fail(args: Sequence[str], status: int, stderr: bytes) -> NoReturn:
    message = decode_name(stderr).strip().splitlines()
    raise GitError(f"git {args[0]} failed: {message[-1] if message else f'exit {status}'}")


def _start(root: Path, args: Sequence[str]) -> Iterator[bytes]:
    """Start a command now; its output comes in chunks, as git writes it, so it is
    parsed and judged while git is still working on the rest. (git writes a line or
    two to stderr at most: it is read once stdout ends, without risk of either pipe
    filling up.)"""
    git = _gitpython()
    try:
        process = git.Git(str(root)).execute(["git", *args], as_process=True, env=_ENV)
    except git.GitCommandNotFound:
        raise GitError("git is not installed or not on PATH; memcheck guard needs it") from None
    return _chunks(process, args)


def _chunks(process: Any, args: Sequence[str]) -> Iterator[bytes]:
    proc = process.proc  # `process` is GitPython's wrapper: it stops git if we stop reading
    _widen(proc.stdout)
    while chunk := proc.stdout.read1(1 << 16):  # what has arrived, without waiting for more
        yield chunk
    stderr = proc.stderr.read()
    status = proc.wait()
    if status != 0:
        _fail(args, status, stderr)


def _widen(pipe: Any) -> None:
    """Let git write up to 1 MiB ahead of us (Linux; elsewhere the pipe stays as it
    is). With the usual 64 KiB, git stops whenever we are busy judging what came
    before, and its time and ours add up instead of overlapping."""
    try:
        import fcntl

        fcntl.fcntl(pipe.fileno(), fcntl.F_SETPIPE_SZ, 1 << 20)
    except (ImportError, AttributeError, OSError):
        pass


def toplevel(cwd: Path) -> Path:
    proc = _run(cwd, ["rev-parse", "--show-toplevel"])
    if proc.returncode != 0:
        raise GitError(f"not a git repository: {cwd}; run memcheck guard inside a git work tree, or name the paths to check")
    return Path(os.fsdecode(proc.stdout.rstrip(b"\n")))


def resolve(root: Path, ref: str) -> str:
    """The commit a ref names."""
    if ref.startswith("-"):
        raise GitError(f"unknown ref {ref!r}: a ref cannot start with '-'")
    proc = _run(root, ["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"])
    if proc.returncode != 0:
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


def _raw_changes(tokens: Iterator[str], meta: str, commit: str) -> Change:
    """One raw diff entry: ``:old_mode new_mode old_sha new_sha status`` and its path(s)."""
    old_mode, new_mode, _old_blob, new_blob, status = meta[1:].split(" ")
    letter = status[:1]
    first = next(tokens, "")
    if letter in ("R", "C"):
        return Change(letter, next(tokens, ""), first, old_mode, new_mode, new_blob, commit)
    return Change(letter, first, "", old_mode, new_mode, new_blob, commit)


def _names(chunks: Iterable[bytes]) -> Iterator[str]:
    """The NUL-separated tokens of ``-z`` output, decoded. Decoded a chunk at a time,
    cut after its last NUL: a NUL never continues a UTF-8 sequence, so each name
    decodes as it would alone."""
    rest = b""
    for chunk in chunks:
        data = rest + chunk
        cut = data.rfind(b"\0")
        if cut < 0:
            rest = data
            continue
        yield from decode_name(data[:cut]).split("\0")
        rest = data[cut + 1 :]
    yield decode_name(rest)


def _parse(tokens: Iterator[str]) -> Iterator[Change]:
    """Changes from ``--raw -z`` tokens, optionally with ``%x01%H`` commit headers (git log).

    Positional parsing: only the token after a complete entry can be a header, so a
    path that starts with ``:`` or a newline is never mistaken for one.
    """
    commit = ""
    for token in tokens:
        token = token.lstrip("\n")
        if token.startswith("\x01"):
            commit = token[1:]
        elif token.startswith(":"):
            yield _raw_changes(tokens, token, commit)


def parse_raw(output: bytes) -> list[Change]:
    """Parse ``--raw -z`` output (see ``_parse``)."""
    return list(_parse(_names([output])))


def staged_changes(root: Path) -> list[Change]:
    """What ``git commit`` would record: the index against HEAD (or nothing, before the first commit)."""
    return parse_raw(_out(root, ["diff", "--cached", *_DIFF_OPTIONS, _FIND_COPIES]))


class RangeReader:
    """Every commit's own changes from the merge base of base and head up to head.

    Judged commit by commit, not by the net diff: a secret added and deleted again is
    still in the history being pushed. Merge commits show no diff of their own.

    git starts on the range when this is made; ``read`` collects what it writes.
    Work done in between (compiling the guard's patterns) costs no time of its own.
    """

    def __init__(self, root: Path, base: str, head: str) -> None:
        for ref in (base, head):
            if ref.startswith("-"):
                raise GitError(f"unknown ref {ref!r}: a ref cannot start with '-'")
        found = _run(root, ["merge-base", f"{base}^{{commit}}", f"{head}^{{commit}}"])
        if found.returncode != 0:
            # Work out why, for a message that says what to do: an unknown ref, a
            # shallow clone without the merge base, or unrelated histories.
            merge_base(root, resolve(root, base), resolve(root, head), (base, head))
            _fail(["merge-base"], found.returncode, found.stderr)
        mb = decode_name(found.stdout).strip()
        args = ["log", "--reverse", "--no-show-signature", "--no-notes", "--format=%x01%H", *_RANGE_OPTIONS, f"{mb}..{head}^{{commit}}", "--"]
        self._output = _start(root, args)

    def read(self, while_reading: Callable[[Change], object] | None = None) -> list[Change]:
        """The changes, in commit order. ``while_reading`` sees each as it arrives, while
        git works on the next commits: on a large range, judging then costs no time."""
        changes = []
        for change in _parse(_names(self._output)):
            changes.append(change)
            if while_reading is not None:
                while_reading(change)
        return changes


def with_renames(root: Path, changes: Sequence[Change], commits: set[str]) -> list[Change]:
    """``changes`` (from ``RangeReader``), with those of ``commits`` read again with
    rename detection, so a renamed file is one change naming both paths."""
    if not commits:
        return list(changes)
    output = _out(root, ["log", "--no-walk=unsorted", "--no-show-signature", "--no-notes", "--format=%x01%H", *_DIFF_OPTIONS, *sorted(commits), "--"])
    again: dict[str, list[Change]] = {}
    for change in parse_raw(output):
        again.setdefault(change.commit, []).append(change)
    result: list[Change] = []
    for change in changes:
        if change.commit not in commits:
            result.append(change)
        elif change.commit in again:
            result.extend(again.pop(change.commit))  # in place of the commit's first change
    return result


def tracked_files(root: Path) -> list[str]:
    return [decode_name(name) for name in _out(root, ["ls-files", "-z"]).split(b"\0") if name]


def read_blobs(root: Path, shas: Iterable[str]) -> dict[str, bytes]:
    """The content of each blob, in one ``git cat-file --batch`` call."""
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


def is_directory_mode(mode: str) -> bool:
    return mode in (GITLINK_MODE, TREE_MODE)


def absent(mode: str) -> bool:
    return mode in ("", _NO_MODE)
