"""What several MEM rules read of one memory, gathered once by the family's pass.

``fields`` builds a ``FieldFacts`` for a memory whose frontmatter the pass reads
(past the gates of MEM001-MEM003): its fields, the keys the settings allow, its type,
and whether its fields are the usual ones (then only the rules that look past the
usual fields run: see ``text.frontmatter.usual_memory_fields``). ``Noted`` is what the
pass notes of one memory for the rules that report once for the store (MEM015,
MEM018).
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import TYPE_CHECKING, Mapping

from memcheck.records import NamedTuple
from memcheck.text import frontmatter as fields_of

if TYPE_CHECKING:
    from memcheck.config import MemoryConfig
    from memcheck.text.document import Document
    from memcheck.text.frontmatter_reading import Frontmatter
    from memcheck.workspace.discover import Workspace

# A memory every rule passes: the *Use instead* of MEM002, MEM003 and MEM006.
EXAMPLE_OK = """```markdown
---
name: Review style
description: User wants concise review findings with file references first
type: user
---

Put blocking findings first and cite the file path.
```"""

_KNOWN_KEYS = frozenset({"name", "description", "type", "created", "updated", "agent_name"})


@lru_cache(maxsize=8)
def _allowed_keys(allowed: tuple[str, ...], required: tuple[str, ...]) -> frozenset[str]:
    return _KNOWN_KEYS | frozenset(allowed) | frozenset(required)


def memory_type(data: Mapping[str, object]) -> object:
    if "type" in data:
        return data["type"]
    meta = data.get("metadata")
    return meta.get("type") if isinstance(meta, dict) else None


def blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


class FieldFacts(NamedTuple):
    """A memory's frontmatter fields, for the rules that judge them."""

    path: str
    frontmatter: Frontmatter
    data: Mapping[str, object]
    cfg: MemoryConfig
    allowed: frozenset[str]  # the keys a memory may hold (the schema's and the settings')
    kind: object  # its type, or metadata.type
    usual: bool  # its fields are as they should be: MEM006/7/8/10/14 have nothing to say
    unknown: list[str]  # its keys outside ``allowed`` (none looked for where ``usual``)

    def line_of(self, key: str) -> int:
        """The line of ``key``, else of ``metadata`` (which may hold the type), else 1."""
        lines = self.frontmatter.key_lines
        return lines.get(key) or lines.get("metadata") or 1


def fields(ws: Workspace, doc: Document) -> FieldFacts:
    fm = doc.frontmatter
    assert fm is not None
    cfg = ws.config.memory
    allowed = _allowed_keys(cfg.allowed_keys, cfg.required)
    # Most memories hold their fields as they should: the rules' questions are asked only
    # of the rest (asking each question of each such file was a fifth of the MEM rules'
    # time on M).
    usual = fields_of.usual_memory_fields(fm, cfg.required, cfg.types, allowed)
    unknown = [] if usual else [key for key in fm.key_lines if key not in allowed]
    return FieldFacts(doc.path, fm, fm.data, cfg, allowed, memory_type(fm.data), usual, unknown)


def dates(fm: Frontmatter) -> tuple[dict[str, dt.date], list[str]]:
    """``created`` and ``updated``, read once for MEM009 and MEM016: the dates parsed,
    and the keys whose value is not blank and is no date."""
    parsed: dict[str, dt.date] = {}
    bad: list[str] = []
    for key in ("created", "updated"):
        if key not in fm.data or blank(fm.data[key]):
            continue
        date = fields_of.parse_date(fm.data[key])
        if date is None:
            bad.append(key)
        else:
            parsed[key] = date
    return parsed, bad


class Noted:
    """What the pass notes of one memory for the rules that report once for the store:
    whether it has CRLF line endings (MEM018) and its description's length where that
    is over the configured most (MEM015), noted where the pass reaches them."""

    __slots__ = ("crlf", "long")

    def __init__(self) -> None:
        self.crlf = False
        self.long = 0
