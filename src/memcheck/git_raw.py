"""git's ``--raw -z`` output (a diff's, or a log's with commit headers) read into
``Change``s: no process here (git.py runs git)."""

from __future__ import annotations

from typing import Iterable, Iterator

from memcheck.changes import NO_MODE, Change
from memcheck.records import NamedTuple


def decode_name(raw: bytes) -> str:
    # Names are bytes to git; a name that is not UTF-8 still has to be printed.
    return raw.decode("utf-8", "backslashreplace")


class Commit(NamedTuple):
    """What a ``git log`` header says of the commit whose changes follow."""

    sha: str = ""
    parents: tuple[str, ...] = ()
    ref: str = ""  # the ref it was reached through (``--source``)


def _header(token: str) -> Commit:
    """``\x01SHA PARENT...\x02REF``, as ``_LOG_OPTIONS`` asks git to write it."""
    ids, _, ref = token[1:].partition("\x02")
    sha, *parents = ids.split(" ")
    return Commit(sha, tuple(p for p in parents if p), ref)


def _merge_change(tokens: Iterator[str], meta: str, commit: str) -> Change:
    """A merge commit's raw diff entry (``-c``) and its path: one colon, one mode and
    one sha per parent before the merge's own: ``::mode1 mode2 mode sha1 sha2 sha SS``.
    It lists a path only when the merge's content differs from every parent's. (An
    entry of one parent, ``:old_mode new_mode old_sha new_sha status``, is read in
    ``changes_in``.)
    """
    parents = len(meta) - len(meta.lstrip(":"))
    fields = meta[parents:].split(" ")
    modes, status = fields[: parents + 1], fields[-1]
    new_mode, new_blob = modes[-1], fields[2 * parents + 1]
    old_mode = next((m for m in modes[:-1] if m != NO_MODE), NO_MODE)
    if new_mode == NO_MODE:
        letter = "D"
    elif old_mode == NO_MODE:
        letter = "A"  # no parent has the path
    else:
        letter = status[0] if len(set(status)) == 1 else "M"
    return Change(letter, next(tokens, ""), "", old_mode, new_mode, new_blob, commit, merge=True)


def tokens(chunks: Iterable[bytes]) -> Iterator[str]:
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


def changes_in(tokens: Iterator[str], commits: dict[str, Commit] | None = None) -> Iterator[Change]:
    """Changes from ``--raw -z`` tokens, optionally with ``_LOG_OPTIONS`` commit
    headers (git log); each header is also put in ``commits``, by sha.

    Positional parsing: only the token after a complete entry can be a header, so a
    path that starts with ``:``, ``\x01`` or a newline is never mistaken for one.
    """
    commit = Commit()
    for token in tokens:
        if token.startswith("\n"):
            token = token.lstrip("\n")
        if token.startswith("\x01"):
            commit = _header(token)
            if commits is not None:
                commits[commit.sha] = commit
        elif token.startswith("::"):  # a merge's entry
            change = _merge_change(tokens, token, commit.sha)
            yield change._replace(ref=commit.ref) if commit.ref else change
        elif token.startswith(":"):
            # One parent, the entry nearly every change is: read inline, each change
            # made at once with its ref (a third of the parse of 10,000 staged paths).
            old_mode, new_mode, _old_blob, new_blob, status = token[1:].split(" ")
            letter, first = status[:1], next(tokens, "")
            if letter in ("R", "C"):
                yield Change(letter, next(tokens, ""), first, old_mode, new_mode, new_blob, commit.sha, None, False, commit.ref)
            else:
                yield Change(letter, first, "", old_mode, new_mode, new_blob, commit.sha, None, False, commit.ref)


def parse_raw(output: bytes) -> list[Change]:
    """Parse ``--raw -z`` output (see ``changes_in``)."""
    return list(changes_in(tokens([output])))
