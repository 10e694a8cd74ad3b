"""What an agent still reads of a file memcheck reports as unreadable.

A file that is not valid UTF-8, is binary (holds a NUL byte) or is larger than
memcheck reads, is one finding (GDN003, MEM001, ...) and no rule reads it further. An
agent loads it all the same (Claude Code decodes what it can and loads a CLAUDE.md up
to 4 MiB whole; a NUL is valid UTF-8, which Codex's ``read_to_string`` and Node's
``utf8`` decoding read as any other character), so a token or hidden text added to
such a file would pass every check, and under ``check --new-since`` the file's older
finding would stand for the new text. The SEC and HID rules read it anyway: its bytes
decoded with U+FFFD in place of each invalid sequence and each NUL, up to memcheck's
read cap (a larger file's first MiB). A file that starts with the UTF-16LE byte order
mark (FF FE, what Windows PowerShell 5.1's ``>`` and ``Out-File`` write) is decoded as
UTF-16LE, as Claude Code's file reader does (``detectEncodingForResolvedPath`` in its
utils/fileRead.ts: FF FE is ``utf16le``, anything else UTF-8).
"""

from __future__ import annotations

from memcheck.text import document
from memcheck.text.document import Document

_UTF16LE_BOM = b"\xff\xfe"


def readable(doc: Document) -> Document | None:
    """``doc`` as text an agent reads, when it could not be read strictly for a reason an
    agent does not share (see ``document.SALVAGED``); else None."""
    raw = doc.__dict__.get("_raw")
    if raw is None or doc.error is None:
        return None
    head = raw[: document.MAX_BYTES]
    text = head[2:].decode("utf-16-le", "replace") if head.startswith(_UTF16LE_BOM) else head.decode("utf-8", "replace")
    # A NUL would make the text "binary" again; U+FFFD keeps each on its column.
    data = text.replace("\x00", "\ufffd").encode("utf-8")
    # U+FFFD takes three bytes where the invalid byte took one: cut to the cap again
    # (at a character's start), so the text is parsed as the file it would be were it
    # valid, its lines where the file has them.
    cut = data[: document.MAX_BYTES].decode("utf-8", "ignore").encode("utf-8")
    found = document.parse(doc.path, cut)
    return found if found.error is None else None
