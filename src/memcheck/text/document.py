"""Read a file once: decoded text, frontmatter with line numbers, body.

Nothing here raises on bad input. A file that cannot be read, is binary, is not
UTF-8 or is too large becomes a ``Document`` whose ``error`` says so; frontmatter
that strict YAML rejects is read again the way the agents' own line parsers read it.
"""

from __future__ import annotations

import os
import stat
from functools import cached_property
from pathlib import Path
from typing import Callable, Generic, TypeVar

from memcheck.text.blobs import blob_id, content_key
from memcheck.text.frontmatter_reading import Frontmatter, read_frontmatter

MAX_BYTES = 1 << 20  # larger files are not memory, guidance or skills: reported, not read
TOO_LARGE = f"is larger than {MAX_BYTES // 1024} KiB; not read"
BINARY = "is binary (holds NUL bytes), not Markdown"
# The errors of a file whose bytes an agent reads all the same (see text/salvage.py).
SALVAGED = ("is not valid UTF-8", TOO_LARGE, BINARY)

_FENCE = "---"


class Document:
    """A file as read: what it holds, or why it could not be read. Never changed once
    made (``parse`` sets its blob before anyone else sees it).

    A plain class with what a frozen dataclass would give it (the fields, equality,
    a repr, no assignment), written out: importing dataclasses (and inspect, which it
    imports) and building the class cost every process that reads a file, each commit
    hook's, 11 ms of CPU."""

    path: str  # repository-relative POSIX path
    text: str  # decoded, BOM removed, CRLF turned into LF
    error: str | None  # why the file could not be read as text
    error_line: int
    bom: bool
    crlf: bool
    has_frontmatter: bool  # the first line is a fence
    unterminated: bool  # ...but no closing fence follows
    frontmatter: Frontmatter | None
    body: str
    body_line: int
    size: int  # bytes on disk
    # git's blob id of the bytes read ("" for a file not read, and for one whose text is
    # its bytes exactly, until asked: see parse): what the cache keys a file by (see
    # engine/cache.py, through ``key``), the same whether it was read from the disk,
    # git's index or a commit, and never a claim about bytes other than those read.
    blob: str

    def __init__(
        self,
        path: str,
        text: str = "",
        error: str | None = None,
        error_line: int = 1,
        bom: bool = False,
        crlf: bool = False,
        has_frontmatter: bool = False,
        unterminated: bool = False,
        frontmatter: Frontmatter | None = None,
        body: str = "",
        body_line: int = 1,
        size: int = 0,
        blob: str = "",
    ) -> None:
        self.__dict__.update(
            path=path, text=text, error=error, error_line=error_line, bom=bom, crlf=crlf, has_frontmatter=has_frontmatter,
            unterminated=unterminated, frontmatter=frontmatter, body=body, body_line=body_line, size=size, blob=blob,
        )  # fmt: skip

    def _values(self) -> tuple[object, ...]:
        held = self.__dict__
        return tuple(held[name] for name in _FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Document) or other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"Document({', '.join(f'{name}={value!r}' for name, value in zip(_FIELDS, self._values()))})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a Document is never changed (see replace)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a Document is never changed")

    @cached_property
    def key(self) -> str:
        """What the cache knows this content by (see content_key), worked out once."""
        return content_key(self)

    @cached_property
    def lines(self) -> tuple[str, ...]:
        """The text's lines, split when a check first asks: most memory files are
        checked without them."""
        return tuple(self.text.split("\n"))


# Plain file descriptors rather than open(): no buffered file objects to build,
# which is a third of the cost of reading thousands of small files. O_NONBLOCK
# keeps a FIFO in the tree from blocking the run; it is then reported, not read.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
# Refuses a symlink at the last step at no cost to a regular file (not on Windows,
# which has no such flag: there a symlink is asked about first).
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


T = TypeVar("T")
W = TypeVar("W")  # the workspace it is worked out in (a type this layer does not import)


class OfContent(Generic[W, T]):
    """``compute(ws, doc)``, worked out through ``Workspace.derived``, known to be a
    function of the document's own content alone: its value may be kept between runs,
    keyed by that content (see engine/store_values.py). Its value is made of tuples,
    lists, strings and numbers, which the store's kept values write as they are.

    A key of its own type rather than a mark set on the function: ``derived`` tells it
    by its class, and the store's kept values know it by ``name``. Used as a decorator
    (``@OfContent``)."""

    __slots__ = ("compute", "name")

    def __init__(self, compute: Callable[[W, Document], T]) -> None:
        self.compute = compute
        self.name = f"{compute.__module__}.{compute.__qualname__}"

    def __call__(self, ws: W, doc: Document) -> T:
        return self.compute(ws, doc)


class IsSymlink(Exception):
    """``read(..., follow=False)`` met a symlink: the caller decides whether it may
    be followed (see ``read``)."""


def special_kind(mode: int) -> str | None:
    """What a file of this ``st_mode`` is when it is neither a regular file, a folder
    nor a symlink ("a FIFO", ...): something memcheck must neither read nor replace."""
    for test, kind in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device")):
        if test(mode):
            return kind
    return None


def special_file(path: Path | str) -> str | None:
    """``special_kind`` of the file at ``path`` (through links); None when it is a
    regular file, a folder, or not there."""
    try:
        return special_kind(os.stat(path).st_mode)
    except (OSError, ValueError):
        return None


def read(root: Path | str, path: str, follow: bool = True) -> Document:
    """The file at ``path`` under ``root``, read; never raises but ``IsSymlink`` when
    ``follow`` is False and the path is a symlink."""
    full = os.path.join(root, path) if os.path.isabs(path) else f"{root}/{path}"
    try:
        if not follow and not _NOFOLLOW and os.path.islink(full):
            raise IsSymlink(path)
        fd = os.open(full, _OPEN_FLAGS if follow else _OPEN_FLAGS | _NOFOLLOW)
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                kind = special_kind(info.st_mode)
                return Document(path, error=f"is {kind}, not a regular file; not read" if kind else "is not a regular file; not read")
            # Never more than MAX_BYTES + 1: a larger file is reported, not read.
            want = min(info.st_size, MAX_BYTES) + 1
            raw = os.read(fd, want)
            if len(raw) < info.st_size and len(raw) < want:  # a short read: read on to the end
                chunks = [raw]
                while (got := sum(map(len, chunks))) < want and (chunk := os.read(fd, want - got)):
                    chunks.append(chunk)
                raw = b"".join(chunks)
        finally:
            os.close(fd)
    except OSError as e:
        # O_NOFOLLOW refuses a symlink with ELOOP (EMLINK on FreeBSD, EFTYPE on
        # NetBSD): asked only when the open failed.
        if not follow and os.path.islink(full):
            raise IsSymlink(path) from None
        return Document(path, error=f"cannot be read: {e.strerror or e}")
    doc = parse(path, raw)
    if len(raw) > MAX_BYTES:  # read only up to the cap: its size is the file's own
        return replace(doc, size=max(info.st_size, len(raw)))
    return doc


# What a Document holds unless told otherwise, for ``_document`` (the path, which has
# no default, is always given), and its fields in order.
_DEFAULTS = vars(Document("")).copy()
_FIELDS = tuple(_DEFAULTS)


def _document(path: str, **values: object) -> Document:
    """``Document(path, **values)`` without the call's binding of thirteen parameters:
    two dict updates, for the document made of every file read (it was a third of the
    cost when Document was a frozen dataclass: 2.4 µs of 3.8 µs a file, 11,300 files
    on bench/'s M tree)."""
    doc = object.__new__(Document)
    held = doc.__dict__
    held.update(_DEFAULTS)
    held["path"] = path
    held.update(values)
    return doc


def replace(doc: Document, **values: object) -> Document:
    """A copy of ``doc`` with ``values`` in place of its own (as dataclasses.replace):
    the cached values of the old one (its key, its lines) are not carried over."""
    unknown = values.keys() - _DEFAULTS.keys()
    if unknown:
        raise TypeError(f"a Document has no field {sorted(unknown)[0]!r}")
    new = object.__new__(Document)
    new.__dict__.update(zip(_FIELDS, doc._values()))
    new.__dict__.update(values)
    if "_raw" in doc.__dict__:
        new.__dict__["_raw"] = doc.__dict__["_raw"]
    return new


# Whether this process keeps a cache, which asks every file's key (see keys_asked).
_keys_asked = False


def keys_asked() -> None:
    """A cache is kept: ``parse`` works out each file's blob id from the bytes it reads,
    rather than from the text when the cache asks (encoding it again: 1.5% of a first
    run's CPU on bench/'s M tree). Either way the key is the same (a test holds it so)."""
    global _keys_asked
    _keys_asked = True


def parse(path: str, raw: bytes) -> Document:
    doc = _parse(path, raw)
    # Set on the one Document built (a frozen dataclass): replace() would build another.
    held = doc.__dict__
    if doc.error is not None and doc.error.startswith(SALVAGED):
        held["_raw"] = raw  # what an agent still reads of it: see text/salvage.py
    if not _keys_asked and doc.error is None and not doc.bom and not doc.crlf:
        # The text is the bytes decoded, nothing changed: their blob id is worked out from
        # it if a key is asked (content_key), and not at all in a run without a cache
        # (--no-cache: the 19 MB of bench/'s M tree hashed, 40-60 ms of CPU).
        held["_exact"] = True
        return doc
    held["blob"] = blob = blob_id(raw)
    # Its ``key`` too: cached_property takes a lock the first time it is asked on Python
    # 3.11 and older (0.75 us against 0.2 us a file).
    held["key"] = "b" + blob
    return doc


def _parse(path: str, raw: bytes) -> Document:
    if len(raw) > MAX_BYTES:
        return Document(path, error=TOO_LARGE, size=len(raw))
    if raw.find(b"\x00", 0, 8192) >= 0:
        return Document(path, error=BINARY, size=len(raw))
    bom = raw.startswith(b"\xef\xbb\xbf")
    try:
        text = raw.decode("utf-8-sig" if bom else "utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        return Document(path, error=f"is not valid UTF-8 (byte {e.start})", error_line=line, size=len(raw))
    crlf = "\r" in text and "\r\n" in text  # a lone CR is rare; looking for it first is cheaper
    if crlf:
        text = text.replace("\r\n", "\n")
    # The text is searched for the fences rather than split into lines: only the
    # frontmatter's lines are ever needed here.
    first_end = text.find("\n") if text.startswith(_FENCE) else -1
    if first_end < 0 or text[:first_end].rstrip() != _FENCE:
        if text.rstrip() == _FENCE:  # a file that is only an opening fence
            return Document(path, text=text, bom=bom, crlf=crlf, size=len(raw), body=text, has_frontmatter=True, unterminated=True)
        return _document(path, text=text, bom=bom, crlf=crlf, size=len(raw), body=text)
    closing = _closing_fence(text, first_end)
    if closing < 0:
        return Document(path, text=text, bom=bom, crlf=crlf, size=len(raw), body=text, has_frontmatter=True, unterminated=True)
    closing_end = text.find("\n", closing + 1)
    fm_text = text[first_end + 1 : closing] if closing > first_end else ""
    fm_lines = fm_text.split("\n") if closing > first_end else []
    # One Document built once: dataclasses.replace() costs as much as parsing a small file.
    return _document(
        path,
        text=text,
        bom=bom,
        crlf=crlf,
        size=len(raw),
        has_frontmatter=True,
        frontmatter=read_frontmatter(fm_lines, 2, fm_text),
        body=text[closing_end + 1 :] if closing_end >= 0 else "",
        body_line=len(fm_lines) + 3,  # after the opening fence, the frontmatter and the closing fence
    )


def _closing_fence(text: str, after: int) -> int:
    """Offset of the newline before the line that closes the frontmatter (the first
    line after offset ``after`` that is ``---``, trailing spaces aside), or -1."""
    at = after
    while (at := text.find("\n" + _FENCE, at)) >= 0:
        line_end = text.find("\n", at + 1)
        if text[at + 1 : line_end if line_end >= 0 else len(text)].rstrip() == _FENCE:
            return at
        if line_end < 0:
            break
        at = line_end
    return -1
