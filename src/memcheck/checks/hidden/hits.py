"""What the HID rules' line judges find, and how a message counts it; shared by the
rule modules and the family's per-line pass (``checks.hidden``)."""

from __future__ import annotations

from memcheck.records import NamedTuple


class Hit(NamedTuple):
    col: int  # 1-based
    ch: str


def count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"
