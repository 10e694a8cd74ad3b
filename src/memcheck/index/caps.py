"""How much of an index agents load: its lines and bytes as the caps count them.

Agents load the first ``index.max-lines`` lines of MEMORY.md and stop at
``index.max-bytes``; ``memcheck check`` (IDX007-IDX009), ``fix`` (entries past the
cap) and ``context`` (what each agent loads) count them the same way, here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from memcheck.index.links import links
from memcheck.index.plan import line_breaks
from memcheck.paths import basename

if TYPE_CHECKING:
    from memcheck.text.document import Document


def cap_lines(text: str) -> list[str]:
    """An index's lines as the caps count them: the final newline ends a line, it
    does not start another."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def cap_usage(doc: Document) -> tuple[int, int]:
    """An index's lines and bytes as the caps count them (a BOM is not loaded; a lone
    CR ends a line)."""
    return len(cap_lines(line_breaks(doc.text))), doc.size - (3 if doc.bom else 0)


def byte_cut(lines: Sequence[str], max_bytes: int) -> int:
    """How many whole lines fit in ``max_bytes`` (each with its newline)."""
    offset = 0
    for i, line in enumerate(lines):
        offset += len(line.encode("utf-8")) + 1
        if offset > max_bytes:
            return i
    return len(lines)


def loaded_lines(lines: Sequence[str], max_lines: int, max_bytes: int) -> int:
    """How many lines of an index agents load: the line cap, then the byte cap."""
    return min(max_lines, len(lines), byte_cut(lines, max_bytes))


def entry_names(lines: Sequence[str]) -> list[str]:
    """The memory files the lines link to, in order."""
    return [basename(link.target) or link.target for i, line in enumerate(lines) for link in links(line, i)]
