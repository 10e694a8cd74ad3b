"""The hashes memcheck takes, from the interpreter's own modules rather than OpenSSL.

SHA-1 names what git names (a blob's id) and keys the cache's entries; a keyed
BLAKE2b seals each cache file (see engine/cache.py). ``hashlib`` and ``hmac`` load
OpenSSL's libcrypto when imported, whichever hash is asked for: 3 ms of CPU and
3.8 MiB of memory per process (Python 3.11), paid by each of the three commit hooks
for hashes of a few kilobytes. CPython builds SHA-1 and BLAKE2 in (the modules
``hashlib`` itself falls back to), and keyed BLAKE2b is a MAC of its own, so no HMAC
is needed. On an interpreter without those modules, hashlib's are used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = ["blake2b", "compare_digest", "sha1"]

if TYPE_CHECKING:
    from hashlib import blake2b, sha1
    from hmac import compare_digest
else:
    try:
        from _blake2 import blake2b
        from _operator import _compare_digest as compare_digest  # what hmac.compare_digest is
        from _sha1 import sha1
    except ImportError:  # not CPython
        from hashlib import blake2b, sha1
        from hmac import compare_digest
