"""What the cache knows a file's content by: git's blob id of the bytes read, worked
out as fast as this process may (see fast_blob_ids)."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from memcheck.digests import sha1


class Read(Protocol):
    """What ``content_key`` needs of a file read (a ``text.document.Document``, which
    imports this module: named here by what it has, not imported back)."""

    blob: str
    text: str
    error: str | None
    error_line: int
    size: int


# What hashes the bytes read into their blob ids: the interpreter's own SHA-1 (see
# digests.py), unless this process hashes a great many (see fast_blob_ids).
# (Any: the two hashes' objects share no type the standard library names.)
_blob_sha1: Callable[[bytes], Any] = sha1


def fast_blob_ids() -> None:
    """Hash the files this process reads with OpenSSL's SHA-1 (hashlib's), for a
    process that reads a whole tree's memories on a first run: a quarter of the time
    of the interpreter's own on the same bytes (bench/'s M tree's 21 MB: 28 ms against
    116 ms). Loading OpenSSL costs the process 3 ms and 3.5 MiB: paid only where that
    much memory is not the run's peak (a forked checking process, see engine/queue.py,
    which holds one store's documents at a time: 25 MiB on M, where the process that
    checks the guidance files reaches 39 MiB)."""
    global _blob_sha1
    import hashlib

    _blob_sha1 = hashlib.sha1


def blob_id(raw: bytes) -> str:
    """git's blob id of ``raw``: its header hashed, then the bytes themselves, not a
    copy of them joined to it (19 MB copied on bench/'s M tree)."""
    digest = _blob_sha1(b"blob %d\0" % len(raw))
    digest.update(raw)
    found: str = digest.hexdigest()
    return found


def content_key(doc: Read) -> str:
    """What the cache knows a file's content by: git's blob id of the bytes read ("b"),
    else (a file not read: a link out, a FIFO) a digest of what reading it gave ("d")."""
    if doc.blob:
        return "b" + doc.blob
    if doc.__dict__.get("_exact"):  # see parse
        return "b" + blob_id(doc.text.encode("utf-8"))
    h = sha1(f"{doc.error}\0{doc.error_line}\0{doc.size}\0".encode())
    h.update(doc.text.encode("utf-8", "surrogatepass"))
    return "d" + h.hexdigest()
