"""The deterministic MEMORY.md index: read it, render it, sync it (SPEC §5).

Everything here is a pure function of text and the store's documents, so the same
store gives the same bytes on every machine, locale and listing order.
"""
from __future__ import annotations

import posixpath
import re
from functools import lru_cache
from typing import Iterable, NamedTuple, Sequence
from urllib.parse import unquote

from memcheck.document import Document

GROUPED, FLAT, FLAT_EMDASH = "grouped", "flat", "flat-emdash"
STYLES = (GROUPED, FLAT, FLAT_EMDASH)
GENERATE, SYNC = "generate", "sync"
MARK_START, MARK_END = "<!-- memcheck:start -->", "<!-- memcheck:end -->"
OTHER = "other"
SYNC_HEADING = "## Other"

# [text](target) with backslash-escaped brackets in text; target may be <...>.
_LINK = re.compile(r"\[((?:\\.|[^\]\\])*)\]\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+\"[^\"]*\")?\s*\)")
_ENTRY = {
    GROUPED: re.compile(r"^- \[(?:\\.|[^\]\\])*\]\([^)]*\) - .*$|^- \[(?:\\.|[^\]\\])*\]\([^)]*\) -$"),
    FLAT: re.compile(r"^- \[(?:\\.|[^\]\\])*\]\([^)]*\) - .*$|^- \[(?:\\.|[^\]\\])*\]\([^)]*\) -$"),
    FLAT_EMDASH: re.compile(r"^- \[(?:\\.|[^\]\\])*\]\([^)]*\) \u2014 .*$|^- \[(?:\\.|[^\]\\])*\]\([^)]*\) \u2014$"),
}
_PLAIN_NAME = re.compile(r"[\w-][\w.-]*\Z")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


class Memory(NamedTuple):
    """What the index needs of one memory file."""

    filename: str  # base name, e.g. user_prefs.md
    name: str | None  # frontmatter name as the agents print it
    description: str | None
    type: str | None

    @property
    def stem(self) -> str:
        return self.filename[:-3] if self.filename.endswith(".md") else self.filename


def memory_of(filename: str, doc: Document) -> Memory:
    fm = doc.frontmatter
    if fm is None:
        return Memory(filename, None, None, None)
    kind = fm.display("type")
    if kind is None and isinstance(fm.data.get("metadata"), dict):
        nested = fm.data["metadata"].get("type")
        kind = nested if isinstance(nested, str) else None
    return Memory(filename, fm.display("name"), fm.display("description"), kind)


# ---------------------------------------------------------------- rendering


def _one_line(text: str) -> str:
    return " ".join(text.split("\n")) if "\n" in text else text


def escape_text(text: str) -> str:
    return _one_line(text).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def escape_target(filename: str) -> str:
    for ch, code in (("%", "%25"), (" ", "%20"), ("(", "%28"), (")", "%29"), ("<", "%3C"), (">", "%3E")):
        filename = filename.replace(ch, code)
    return filename


def _default(value: str | None, fallback: str) -> str:
    # The agents' renderers use meta.get(key, default): a key that is present but
    # empty stays empty; only a missing key falls back.
    return fallback if value is None else value


def _entry(m: Memory, name: str, desc: str, dash: str) -> str:
    return f"- [{escape_text(name)}]({escape_target(m.filename)}) {dash} {_one_line(desc)}"


def render(style: str, memories: Sequence[Memory], types: Sequence[str]) -> str:
    ordered = sorted(memories, key=lambda m: m.filename)
    if style == GROUPED:
        return _render_grouped(ordered, types)
    dash = "-" if style == FLAT else "\u2014"
    lines = [_entry(m, _default(m.name, m.stem), _default(m.description, ""), dash) for m in ordered]
    return "\n".join(lines) + ("\n" if lines else "")


def _render_grouped(ordered: Sequence[Memory], types: Sequence[str]) -> str:
    # A transcription of seed 003's MemoryManager._rebuild_index, including its
    # defaults (name and description fall back to the stem, type to "other") and
    # its final strip(). Types outside the taxonomy go under "Other" rather than
    # vanishing, which is what the seed does with them.
    order = [*types, OTHER]
    sections: dict[str, list[str]] = {}
    for m in ordered:
        kind = m.type if m.type is not None and m.type in types else OTHER
        sections.setdefault(kind, []).append(_entry(m, _default(m.name, m.stem), _default(m.description, m.stem), "-"))
    lines = ["# Memory\n"]
    for kind in order:
        if kind in sections:
            lines.append(f"## {kind.capitalize()}")
            lines.extend(sections[kind])
            lines.append("")
    return "\n".join(lines).strip() + "\n"


# ---------------------------------------------------------------- reading


class Link(NamedTuple):
    line: int  # 1-based
    col: int
    text: str
    target: str  # as written, without <> and title


# Remembered: checking a store reads each index line three times (entries, listing,
# link targets), and a line is the same line each time.
@lru_cache(maxsize=4096)
def links(line: str, lineno: int) -> tuple[Link, ...]:
    if "](" not in line:  # most lines of a curated index hold no link: skip the regex
        return ()
    found = []
    for m in _LINK.finditer(line):
        target = m.group(2)
        if target.startswith("<") and target.endswith(">"):
            target = target[1:-1]
        found.append(Link(lineno, m.start() + 1, m.group(1), target))
    return tuple(found)


def is_plain_name(target: str) -> bool:
    """A file name that is its own link target: nothing to escape or unquote."""
    return _PLAIN_NAME.match(target) is not None


def classify(target: str, store_folder: str) -> tuple[str, str]:
    """(kind, path) of a link target written in the store's MEMORY.md.

    kind is ``anchor``, ``url``, ``absolute``, ``outside-repo`` (climbs above the
    repository root), ``escapes`` (uses ``..`` to leave the store) or ``local``;
    path is the repository-relative file for the last two and for ``local``.
    """
    if is_plain_name(target):  # the common `file.md` entry: nothing to unquote or normalise
        return "local", f"{store_folder}/{target}" if store_folder else target
    if not target or target.startswith("#"):
        return "anchor", ""
    if _SCHEME.match(target) or target.startswith("//"):
        return "url", target
    if target.startswith(("/", "~")):
        return "absolute", target
    clean = unquote(target.split("#", 1)[0].split("?", 1)[0])
    joined = posixpath.normpath(posixpath.join(store_folder, clean) if store_folder else clean)
    if joined == ".." or joined.startswith("../"):
        return "outside-repo", joined
    prefix = f"{store_folder}/" if store_folder else ""
    if joined.startswith(prefix) and ".." not in clean.split("/"):
        return "local", joined
    return "escapes", joined


def is_list_item(line: str) -> bool:
    return _LIST_ITEM.match(line) is not None


def is_entry(line: str) -> bool:
    """A list item that starts with its link (``- [name](file.md) ...``), as index
    entries do; a note that mentions a file mid-sentence is not an entry for it."""
    m = _LIST_ITEM.match(line)
    return m is not None and line[m.end() :].lstrip("*_ ").startswith("[")


def is_heading(line: str) -> bool:
    return line.startswith("#") and re.match(r"^#{1,6}(\s|$)", line) is not None


def detect_style(lines: Iterable[str]) -> str | None:
    """The entry style most of the index's entry lines use."""
    votes = {FLAT: 0, FLAT_EMDASH: 0}
    grouped_heads = 0
    for line in lines:
        if _ENTRY[FLAT_EMDASH].match(line):
            votes[FLAT_EMDASH] += 1
        elif _ENTRY[FLAT].match(line):
            votes[FLAT] += 1
        elif line == "# Memory":
            grouped_heads += 1
    if not any(votes.values()):
        return None
    best = max(sorted(votes), key=lambda k: votes[k])
    if best == FLAT and grouped_heads:
        return GROUPED
    return best


def pure_style(lines: Sequence[str], types: Sequence[str]) -> str | None:
    """The style when the text holds nothing but that style's headings and entries."""
    body = [ln for ln in lines if ln.strip()]
    if not body:
        return None
    if all(_ENTRY[FLAT_EMDASH].match(ln) for ln in body):
        return FLAT_EMDASH
    if all(_ENTRY[FLAT].match(ln) for ln in body):
        return FLAT
    heads = {"# Memory"} | {f"## {t.capitalize()}" for t in (*types, OTHER)}
    if body[0] == "# Memory" and all(ln in heads or _ENTRY[GROUPED].match(ln) for ln in body):
        return GROUPED
    return None


# ---------------------------------------------------------------- planning


class Plan(NamedTuple):
    mode: str
    style: str
    reason: str
    text: str  # the index as it should be


def split_markers(text: str) -> tuple[str, str, str] | None:
    """(before-and-start-line, inside, end-line-and-after) when both markers are present."""
    start = text.find(MARK_START)
    end = text.find(MARK_END, start + len(MARK_START)) if start >= 0 else -1
    if start < 0 or end < 0:
        return None
    head_end = text.find("\n", start)
    if head_end < 0 or head_end > end:
        return None
    return text[: head_end + 1], text[head_end + 1 : end], text[end:]


def plan(
    existing: str | None,
    memories: Sequence[Memory],
    existing_names: set[str],
    types: Sequence[str],
    mode: str | None,
    style: str | None,
) -> Plan:
    """Decide mode and style for one index and render what it should hold."""
    memories = sorted(memories, key=lambda m: m.filename)
    if existing is None:
        chosen = style or GROUPED
        origin = "from index.style in the config" if style else "the default for a new index"
        reason = f"mode generate (automatic): there is no MEMORY.md yet; style {chosen} ({origin})"
        return Plan(GENERATE, chosen, reason, render(chosen, memories, types))
    marked = split_markers(existing)
    region = marked[1] if marked else existing
    region_lines = region.split("\n")
    if mode is None:
        pure = pure_style(region_lines, types) if region.strip() else (style or GROUPED)
        if marked:
            mode, why = GENERATE, "the marker block is memcheck's to regenerate"
        elif pure is not None and (style is None or pure == style):
            hand = _hand_written_line(region_lines, memories, pure, types)
            if hand is None:
                mode, why = GENERATE, f"MEMORY.md holds nothing but {pure}-style headings and entries, so regenerating loses nothing"
            else:
                mode, why = SYNC, f"line {hand} carries a hand-written name or description that regenerating would replace"
        else:
            mode, why = SYNC, "MEMORY.md holds curated text (headings, notes or other entry forms) that regenerating would lose"
        why_mode = f"mode {mode} (automatic): {why}"
    else:
        why_mode = f"mode {mode} (from index.mode in the config)"
    if style is not None:
        why_style = f"style {style} (from index.style in the config)"
    else:
        detected = detect_style(region_lines)
        style = detected or GROUPED
        origin = "detected from the existing entries" if detected else "the default for an index without entries"
        why_style = f"style {style} ({origin})"
    if mode == GENERATE:
        new_region = render(style, memories, types)
    else:
        new_region = sync(region, memories, existing_names, style)
    text = (marked[0] + new_region + marked[2]) if marked else new_region
    return Plan(mode, style, f"{why_mode}; {why_style}", normalise(text))


def _hand_written_line(lines: Sequence[str], memories: Sequence[Memory], style: str, types: Sequence[str]) -> int | None:
    """The first entry line that differs from its memory's rendered entry, if any.

    ``grouped`` is the seed 003 renderer's own format, so its entries are taken as
    machine-written (a stale one is drift to report, not text to keep). The flat
    forms are also what people and Claude Code write by hand; there an entry that
    is not the render is a curated hook, and regenerating would lose it.
    """
    if style == GROUPED:
        return None
    rendered = {m.filename: line for m, line in zip(memories, render(style, memories, types).split("\n"))}
    for lineno, line in enumerate(lines, 1):
        for link in links(line, lineno)[:1]:
            kind, path = classify(link.target, "")
            if kind == "local" and path in rendered and rendered[path] != line:
                return lineno
    return None


def normalise(text: str) -> str:
    """UTF-8 without BOM, LF line endings, exactly one final newline (empty stays empty)."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    if not text.strip():
        return ""
    return text.rstrip("\n") + "\n"


def listed_files(text: str, memories: Sequence[Memory]) -> set[str]:
    """File names of memories the index lists: by link, by file name, or by `name`.

    Link-less indexes (``- user_prefs: ...``) exist, so a line that names a memory's
    file name, stem or frontmatter name counts too.
    """
    listed: set[str] = set()
    items = []
    for lineno, line in enumerate(text.split("\n"), 1):
        for link in links(line, lineno):
            kind, path = classify(link.target, "")
            if kind == "local":
                listed.add(path)
        if _LIST_ITEM.match(line) or line.lstrip().startswith("|"):
            items.append(line)
    item_text = "\n".join(items)
    words: set[str] | None = None  # only needed when a memory is not linked
    for m in memories:
        if m.filename in listed:
            continue
        if words is None:
            words = set(re.findall(r"[\w.-]+", text))
        if m.filename in words or m.stem in words or (m.name and len(m.name) > 2 and m.name in item_text):
            listed.add(m.filename)
    return listed


def sync(text: str, memories: Sequence[Memory], existing_names: set[str], style: str) -> str:
    """Keep every line; drop list items whose only link points at a missing file of
    the store; append entries for unlisted memories (sorted) under a final heading.

    ``existing_names`` are the names of the files in the store's folder.
    """
    folder = ""  # links are resolved relative to the store itself here
    kept = []
    for lineno, line in enumerate(text.split("\n"), 1):
        line_links = [ln for ln in links(line, lineno) if classify(ln.target, folder)[0] != "anchor"]
        if len(line_links) == 1 and _LIST_ITEM.match(line):
            kind, path = classify(line_links[0].target, folder)
            if kind == "local" and "/" not in path and path not in existing_names:
                continue
        kept.append(line)
    result = "\n".join(kept)
    listed = listed_files(result, memories)
    missing = [m for m in sorted(memories, key=lambda m: m.filename) if m.filename not in listed]
    if not missing:
        return result
    dash = "\u2014" if style == FLAT_EMDASH else "-"
    new = [_entry(m, _default(m.name, m.stem), _default(m.description, ""), dash) for m in missing]
    body = result.rstrip("\n")
    has_headings = any(is_heading(ln) for ln in kept)
    last_heading = next((ln for ln in reversed(kept) if is_heading(ln)), None)
    parts = [body] if body else []
    if has_headings and last_heading != SYNC_HEADING:
        parts.append(("\n" if body else "") + SYNC_HEADING)
    parts.extend(new)
    return "\n".join(parts) + "\n"
