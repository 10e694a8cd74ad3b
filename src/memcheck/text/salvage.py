"""What an agent still reads of a file memcheck reports as unreadable.

A file that is not valid UTF-8, holds a NUL byte (UTF-16 text does), or is larger than
memcheck reads, is one finding (GDN003, MEM001, ...) and no rule reads it further. An agent loads it all the same
(Claude Code decodes what it can and loads a CLAUDE.md up to 4 MiB whole), so a token
or hidden text added to such a file would pass every check, and under
``check --new-since`` the file's older finding would stand for the new text. The SEC
and HID rules read it anyway: its bytes decoded with U+FFFD in place of each invalid
sequence, up to memcheck's read cap (a larger file's first MiB).
"""

from __future__ import annotations

from memcheck.text import document
from memcheck.text.document import Document


def readable(doc: Document) -> Document | None:
    """``doc`` as text an agent reads, when it could not be read strictly for a reason an
    agent does not share (see ``document.SALVAGED``); else None."""
    raw = doc.__dict__.get("_raw")
    if raw is None or doc.error is None:
        return None
    head = raw[: document.MAX_BYTES]
    # UTF-16 with its byte-order mark (what Windows PowerShell 5.1's `>` writes) is read
    # as such by an agent that honours the mark; a NUL is a character to the others
    # (Node's utf8, Rust's read_to_string), searched here as U+FFFD.
    text = head.decode("utf-16", "replace") if head.startswith((b"\xff\xfe", b"\xfe\xff")) else head.decode("utf-8", "replace")
    data = text.replace("\x00", "\ufffd").encode("utf-8")
    # U+FFFD takes three bytes where the invalid byte took one: cut to the cap again
    # (at a character's start), so the text is parsed as the file it would be were it
    # valid, its lines where the file has them.
    cut = data[: document.MAX_BYTES].decode("utf-8", "ignore").encode("utf-8")
    found = document.parse(doc.path, cut)
    return found if found.error is None else None
