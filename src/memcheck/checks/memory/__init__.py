"""MEM: memory files (SPEC §3).

A memory file is a ``*.md`` file directly inside a memory store, other than
``MEMORY.md`` and ``README.md``. It needs YAML frontmatter with ``name``,
``description`` and a ``type`` from the closed taxonomy.
"""
from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Generator, Iterator, Mapping, cast

from memcheck import links

# The family's rules (every family module holds its RULES), written in rules.py.
from memcheck.checks.memory.rules import (  # noqa: F401
    MEM001,
    MEM002,
    MEM003,
    MEM004,
    MEM005,
    MEM006,
    MEM007,
    MEM008,
    MEM009,
    MEM010,
    MEM011,
    MEM012,
    MEM013,
    MEM014,
    MEM015,
    MEM016,
    MEM017,
    MEM018,
    MEM019,
    MEM021,
    MEM022,
    MEM023,
    RULES,
)
from memcheck.paths import basename, join, name_trouble, parent, safe_name
from memcheck.problem import Problem, contained, escaped, some
from memcheck.records import NamedTuple
from memcheck.text import frontmatter as fields
from memcheck.text.document import Document, Frontmatter
from memcheck.text.duplicates import Alike, body_start, duplicates_of
from memcheck.text.frontmatter import key_to_quote, misspelt_key, near_key, quote_hint, squeezed_key, unprintable_line
from memcheck.text.mentions import Token
from memcheck.workspace.discover import Workspace, findings_kept, kept_findings
from memcheck.workspace.links_out import leads_to
from memcheck.workspace.stores import Store

if TYPE_CHECKING:
    from memcheck.config import MemoryConfig
    from memcheck.workspace.targets import Targets


_KNOWN_KEYS = frozenset({"name", "description", "type", "created", "updated", "agent_name"})


@lru_cache(maxsize=8)
def _allowed_keys(allowed: tuple[str, ...], required: tuple[str, ...]) -> frozenset[str]:
    return _KNOWN_KEYS | frozenset(allowed) | frozenset(required)


def memory_type(data: Mapping[str, object]) -> object:
    if "type" in data:
        return data["type"]
    meta = data.get("metadata")
    return meta.get("type") if isinstance(meta, dict) else None


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    for store in targets.stores:
        yield from check_store(ws, store)


def check_store(ws: Workspace, store: Store) -> Iterator[Problem]:
    for path in store.outside:
        yield _outside_link(ws, path)
    names: dict[str, str] = {}
    wiki: list[tuple[str, list[Token]]] = []  # files with [[...]], checked once every name is known
    named_twice: list[tuple[str, int, str, str]] = []  # (path, line of name, name, the file that has it first)
    cased: dict[str, str] = {}  # file name without case -> the first file of that name
    wide = _StoreWide()
    alike: list[Alike] = []  # each memory's description and body, for MEM023
    for path in store.files:
        seen = ws.of_file("memory", path, lambda: _memory(ws, path), _kept_memory, _memory_kept)  # noqa: B023 (called at once)
        yield from seen.found
        twin = cased.setdefault(basename(path).casefold(), path)
        if twin != path:
            yield MEM012.at(path, 1, 1, f"{basename(path)} and {basename(twin)} differ only by case and collide on macOS and Windows checkouts; merge them into one memory")
        if seen.crlf:
            wide.crlf.append(path)
        if seen.long:
            wide.long.append((path, seen.long))
        if seen.wiki:
            wiki.append((path, seen.wiki))
        alike.append(Alike(path, seen.description, seen.start, _body_of(ws, path)))
        if seen.name is not None:
            name, line = seen.name
            key = name.casefold()
            if key in names:
                named_twice.append((path, line, name, names[key]))
            else:
                names[key] = path
    if wiki:
        yield from _check_wiki_links(ws, store, wiki, names)
    copies = {dup.path: dup for dup in duplicates_of(alike)} if ws.wants(MEM023.code) else {}
    for path, line, name, first in named_twice:
        # One memory saved twice under one name is one finding, not MEM011 and MEM023.
        copy = copies.pop(path) if path in copies and copies[path].earlier == first else None
        merge = f"; it says what {basename(first)} says: merge them into it and delete this one" if copy is not None else "; give each memory its own name"
        yield MEM011.at(path, line, 1, f"name {name!r} is already used by {basename(first)}{merge}")
    for dup in copies.values():
        earlier = escaped(basename(dup.earlier))
        alike_text = f"the same body as {earlier}" if dup.ratio == 1.0 else f"the description of {earlier} and nearly its body ({int(dup.ratio * 100)}% of the words alike)"
        yield MEM023.at(dup.path, 1, 1, f"{escaped(basename(dup.path))} has {alike_text}: the store holds one memory under two names; merge them into {earlier} and delete this one")
    yield from _store_wide(ws, store, wide)


def _body_of(ws: Workspace, path: str) -> Callable[[], str]:
    return lambda: ws.document(path).body


class _Memory(NamedTuple):
    """What checking a store takes from one memory: its own findings, and what the
    rules that compare it with the store's other memories need of it. Worked out
    from the memory (and the questions its links ask of the tree) alone, so kept
    between runs: a commit that changes one memory of hundreds reads that one."""

    found: list[Problem]
    crlf: bool  # for MEM018, once per store
    long: int  # its description's length, when over the most configured (MEM015); else 0
    wiki: list[Token]  # its [[wiki]] links (MEM021), where MEM021 is on
    name: tuple[str, int] | None  # its frontmatter name, stripped, and that key's line (MEM011)
    description: str  # for MEM023
    start: str  # its body's first words, for MEM023 (the body itself is read only where they match another's)


def _memory(ws: Workspace, path: str) -> _Memory:
    doc = ws.document(path)
    wide = _StoreWide()
    found = list(contained(MEM001, path, check_file(ws, doc, wide)))
    dead_links = ws.wants(MEM021.code)
    if dead_links:
        # Claude Code keeps its memory outside the repository, so paths in memories are
        # written from the project root as often as from the store: either counts.
        for line, col, message in links.dead_links(ws, doc, from_root_too=True):
            found.append(MEM021.at(path, line, col, message))
        for line, col, message in links.description_dead_links(ws, doc, from_root_too=True):
            found.append(MEM021.at(path, line, col, message))
    wiki = links.wiki_links(ws, doc) if dead_links and "[[" in doc.body else []
    fm = doc.frontmatter
    name = fm.data.get("name") if fm is not None else None
    named = (name.strip(), fm.key_lines.get("name", 1)) if fm is not None and isinstance(name, str) and name.strip() else None
    description = fm.data.get("description") if fm is not None else None
    return _Memory(found, bool(wide.crlf), wide.long[0][1] if wide.long else 0, wiki, named, description if isinstance(description, str) else "", body_start(doc.body))


def _kept_memory(seen: _Memory) -> object:
    """What the cache keeps of a memory's checking: nothing where it would keep a
    secret (a finding's message, a name or a description that quotes one)."""
    from memcheck.text.secrets import redact

    found = kept_findings(seen.found)
    texts = [seen.description, seen.name[0] if seen.name else "", seen.start, *(t.text for t in seen.wiki)]
    if found is None or any(redact(text) != text for text in texts):
        return None
    return (found, seen.crlf, seen.long, [tuple(t) for t in seen.wiki], seen.name, seen.description, seen.start)


def _memory_kept(kept: object) -> _Memory:
    found, crlf, long, wiki, name, description, start = cast("tuple[Any, ...]", kept)
    return _Memory(findings_kept(found), crlf, long, [Token(*t) for t in wiki], None if name is None else (name[0], name[1]), description, start)


class _StoreWide:
    """What is reported once for a store rather than once per memory: one habit (an
    agent that writes long descriptions, an editor that saves CRLF) shows in many
    files of a store, and a finding per file buried the rest of the report (582
    MEM015 findings in one repository)."""

    def __init__(self) -> None:
        self.long: list[tuple[str, int]] = []  # (memory, its description's length)
        self.crlf: list[str] = []


def _store_wide(ws: Workspace, store: Store, wide: _StoreWide) -> Iterator[Problem]:
    """One MEM015 and one MEM018 finding for the store, on its MEMORY.md (where long
    descriptions land), naming the memories; about the memory when there is one, so
    a suppression comment in it applies."""
    if wide.long:
        most = ws.config.memory.description_max_length
        advice = "descriptions go into MEMORY.md, which agents load every session"
        if len(wide.long) == 1:
            (path, n), = wide.long
            message = f"{basename(path)} has a description of {n} characters, over the {most} configured; {advice}: shorten it to one sentence and keep the detail in the body"
        else:
            named = some([f"{basename(path)} {n}" for path, n in wide.long])
            message = f"{len(wide.long)} memories of this store have a description over the {most} characters configured ({named}); {advice}: shorten them to one sentence and keep the detail in the body"
        yield MEM015.at(store.index, 1, 1, message, about=wide.long[0][0] if len(wide.long) == 1 else "")
    if wide.crlf:
        split = "agents that split frontmatter at '---\\n' find none in"
        attributes = "add '*.md text eol=lf' to .gitattributes"
        if len(wide.crlf) == 1:
            message = f"{basename(wide.crlf[0])} uses CRLF line endings; {split} it: convert it to LF and {attributes}"
        else:
            message = f"{len(wide.crlf)} memory files of this store use CRLF line endings ({some([basename(p) for p in wide.crlf])}); {split} them: convert them to LF and {attributes}"
        yield MEM018.at(store.index, 1, 1, message, about=wide.crlf[0] if len(wide.crlf) == 1 else "")


def _outside_link(ws: Workspace, path: str) -> Problem:
    target = ws.link_out(path) or "a file"
    return MEM022.at(
        path, 1, 1,
        f"{basename(path)} is a symlink to {leads_to(ws, path, target)}: an agent that reads this memory reads that file; "
        "memcheck does not follow it, so nothing in it is checked; keep the memory in the repository as a regular file",
    )


def _check_wiki_links(ws: Workspace, store: Store, docs: list[tuple[str, list[Token]]], names: dict[str, str]) -> Iterator[Problem]:
    """A [[wiki]] link names a memory of the same store by file stem or ``name``, or,
    as in a note vault, a file of the repository (see ``links.names_a_note``)."""
    stems = {basename(p)[:-3].casefold(): p for p in store.files}
    # One look-up per broken link, not a walk over the store: n memories with a
    # broken link each took 0.81 / 1.59 / 4.28 s CPU at n = 1,000 / 2,000 / 4,000,
    # now 0.38 / 0.58 / 1.06 s.
    nearest = links.nearest_stems(stems)
    for path, tokens in docs:
        for token in tokens:
            target = token.text.strip()
            key = (target[:-3] if target.lower().endswith(".md") else target).casefold()
            if key in stems or key in names:
                continue
            if "/" in target and (ws.exists(join(store.folder, target)) or ws.exists(join(store.folder, target + ".md")) or ws.exists(target) or ws.exists(target + ".md")):
                continue
            if links.names_a_note(ws, target, parent(path)):
                continue
            near = nearest.get(links.loose(key))
            elsewhere = links.memory_elsewhere(ws, store.folder, key)
            hint = f"did you mean [[{near}]]? " if near else f"{elsewhere} has that name but is in another store; " if elsewhere else ""
            yield MEM021.at(path, token.line, token.col, f"[[{target}]] names no memory of this store and no file of the repository (no file stem or name is {target!r}); {hint}fix the link or remove it")


def check_file(ws: Workspace, doc: Document, wide: _StoreWide) -> Iterator[Problem]:
    """The findings on one memory; what is reported once per store goes into ``wide``."""
    path = doc.path
    if doc.error is not None:
        yield MEM001.at(path, doc.error_line, 1, f"{basename(path)} {doc.error}")
        return
    if doc.bom:
        yield MEM017.at(path, 1, 1, "file starts with a UTF-8 byte-order mark; save it without BOM")
    if doc.crlf:
        wide.crlf.append(path)
    bad_name = _name_problem(ws, path)
    if bad_name is not None:
        yield MEM012.at(path, 1, 1, bad_name)
    if not doc.has_frontmatter:
        yield MEM002.at(path, 1, 1, "no YAML frontmatter: start the file with '---', name, description and type, then '---'")
        return
    fm = doc.frontmatter
    if doc.unterminated or fm is None:
        yield MEM003.at(path, 1, 1, "frontmatter opened on line 1 is never closed by a '---' line")
        return
    if fm.yaml_error is not None and not fm.fallback:
        squeezed = squeezed_key(doc.lines[1 : fm.end_line - 1])
        if squeezed is not None:
            bare, offset = squeezed
            # `name:bob` is one string to YAML, not a key and its value: say the fix.
            yield MEM003.at(path, 2 + offset, len(bare) + 2, f"frontmatter cannot be parsed: `{bare}:` has no space after its colon, so YAML reads the line as text; add a space after `{bare}:`")
            return
        yield MEM003.at(path, fm.yaml_error_line, 1, f"frontmatter cannot be parsed: {fm.yaml_error}")
        return
    if fm.fallback:
        key = key_to_quote(fm.raw_values, fm.key_lines)
        line = fm.key_lines.get(key, fm.yaml_error_line) if key else unprintable_line(doc, fm.yaml_error_line)
        hint = quote_hint(key, fm.raw_values.get(key, "")) if key else None
        yield MEM004.at(path, line, 1, f"frontmatter is not valid YAML ({fm.yaml_error}){hint or ''}")
    for key, line in fm.duplicates:
        yield MEM005.at(path, line, 1, f"key {key!r} appears more than once; YAML keeps only the last value")
    yield from _check_fields(ws, doc, wide)
    if not doc.body or doc.body.isspace():  # (what `not body.strip()` says, without a copy of each body)
        yield MEM013.at(path, fm.end_line, 1, "nothing after the frontmatter: write the memory or delete the file")


def _name_problem(ws: Workspace, path: str) -> str | None:
    """What is wrong with a memory's file name, as MEM012 says it, if anything."""
    name = basename(path)
    trouble = name_trouble(name)
    if trouble is None:
        return None
    slug = safe_name(name)
    to = f" to {slug}" if slug != name and not ws.exists(join(parent(path), slug)) else ""
    return f"file name {name!r} holds {trouble}; rename it{to}"


def _check_fields(ws: Workspace, doc: Document, wide: _StoreWide) -> Iterator[Problem]:
    fm = doc.frontmatter
    assert fm is not None
    path, data, cfg = doc.path, fm.data, ws.config.memory
    allowed = _allowed_keys(cfg.allowed_keys, cfg.required)
    unknown: list[str] = []
    explained: set[str] = set()
    # Most memories hold their fields as they should: only what follows applies to them
    # (asking each question of each such file was a fifth of the MEM rules' time on M).
    if not fields.usual_memory_fields(fm, cfg.required, cfg.types, allowed):
        unknown = [key for key in fm.key_lines if key not in allowed]
        explained = yield from _field_problems(path, fm, cfg, unknown)
    desc = data.get("description")
    if isinstance(desc, str) and len(desc.strip()) > cfg.description_max_length:
        wide.long.append((path, len(desc.strip())))
    if "created" in data or "updated" in data:  # (most memories have neither)
        yield from _check_dates(ws, doc)
    # Only a key one slip from a known one: agents ignore the rest, and the tools that
    # write memories add their own by design (lastReadAt, created_at: 9 of 9 such
    # findings judged unwanted on real repositories; near_key's looser likeness took
    # them for last_used_at and created).
    near_known = misspelt_key(tuple(sorted(allowed))) if any(key not in explained for key in unknown) else None
    for key in unknown:
        meant = None if key in explained or near_known is None else near_known(key)
        if meant is not None:
            yield MEM010.at(path, fm.key_lines[key], 1, f"frontmatter key {key!r} looks like a misspelling of {meant!r}: agents match keys exactly, so this setting is ignored; rename it to {meant}")
    if not fm.fallback and any(" #" in raw for raw in fm.raw_values.values()):
        for key in sorted(fm.plain_keys):
            raw, value = fm.raw_values.get(key), data.get(key)
            if isinstance(value, str) and raw and raw != value and " #" in raw and raw.startswith(value):
                yield MEM019.at(path, fm.key_lines.get(key, 1), 1, f"YAML reads the value of {key!r} as {value!r} and the rest as a comment; quote the value")


def _field_problems(path: str, fm: Frontmatter, cfg: MemoryConfig, unknown: list[str]) -> Generator[Problem, None, set[str]]:
    """MEM006, MEM007, MEM008, MEM014; returns the unknown keys a finding explains."""
    data = fm.data

    def line_of(key: str) -> int:
        return fm.key_lines.get(key) or fm.key_lines.get("metadata") or 1

    kind = memory_type(data)
    # A required field that is not there and an unknown key are often one cause, said
    # once: the key misspelt (`Description:`), or a file whose frontmatter is not a
    # memory's at all (a session log kept in the store).
    absent = [key for key in cfg.required if key not in data and (key != "type" or kind is None)]
    near = near_key(tuple(cfg.required))
    misspelt: dict[str, str] = {}  # a required key -> the unknown key that looks like it
    for key in absent:
        found = next((u for u in unknown if u not in misspelt.values() and near(u) == key), None)
        if found is not None:
            misspelt[key] = found
    explained = set(misspelt.values())
    if not misspelt and len(cfg.required) > 1 and len(absent) == len(cfg.required):
        held = f" (it holds {some(list(fm.key_lines))})" if fm.key_lines else ""
        yield MEM006.at(path, 1, 1, f"frontmatter has none of the memory fields {', '.join(cfg.required)}{held}, so agents cannot index this file as a memory; add {', '.join(cfg.required[:-1])} and {cfg.required[-1]}")
        explained.update(unknown)
    else:
        for key in cfg.required:
            value = kind if key == "type" else data.get(key)
            if key in misspelt:
                wrong = misspelt[key]
                yield MEM006.at(path, fm.key_lines[wrong], 1, f"required field {key!r} is missing: the key {wrong!r} is not read as it (keys are matched exactly); rename it to {key}")
            elif _blank(value):
                state = "is empty" if key in data else "is missing"
                yield MEM006.at(path, line_of(key) if key in data else 1, 1, f"required field {key!r} {state}; add a one-line {key}")
    if not _blank(kind):
        if not isinstance(kind, str):
            yield MEM008.at(path, line_of("type"), 1, f"type must be a string, got {type(kind).__name__}")
        elif kind not in cfg.types:
            yield MEM007.at(path, line_of("type"), 1, f"type {kind!r} is not one of: {', '.join(cfg.types)}; use one of them, or list {kind!r} in memory.types if your team keeps its own types")
    for key in ("name", "description", "agent_name"):
        value = data.get(key)
        if _blank(value):
            continue
        if not isinstance(value, str):
            yield MEM008.at(path, line_of(key), 1, f"{key} must be a one-line string, got {type(value).__name__} {fields.short_repr(value)}")
        elif "\n" in value.strip():
            if key == "description":
                yield MEM014.at(path, line_of(key), 1, "description spans several lines; write it on one line")
            else:
                yield MEM008.at(path, line_of(key), 1, f"{key} spans several lines; write it on one line")
    if "metadata" in data and data["metadata"] is not None and not isinstance(data["metadata"], dict):
        yield MEM008.at(path, line_of("metadata"), 1, f"metadata must be a mapping, got {type(data['metadata']).__name__}")
    return explained


def _check_dates(ws: Workspace, doc: Document) -> Iterator[Problem]:
    fm = doc.frontmatter
    assert fm is not None
    dates: dict[str, dt.date] = {}
    for key in ("created", "updated"):
        if key not in fm.data or _blank(fm.data[key]):
            continue
        parsed = fields.parse_date(fm.data[key])
        if parsed is None:
            yield MEM009.at(doc.path, fm.key_lines.get(key, 1), 1, f"{key} {fields.short_repr(fm.data[key])} is not an ISO-8601 date (YYYY-MM-DD)")
        else:
            dates[key] = parsed
    if "created" in dates and "updated" in dates and dates["updated"] < dates["created"]:
        yield MEM009.at(doc.path, fm.key_lines.get("updated", 1), 1, f"updated {dates['updated']} is before created {dates['created']}")
    days = ws.config.memory.stale_after_days
    last = dates.get("updated") or dates.get("created")
    if days and last is not None:
        age = (ws.today() - last).days
        if age > days:
            yield MEM016.at(doc.path, fm.key_lines.get("updated") or fm.key_lines.get("created") or 1, 1, f"last updated {last} ({age} days ago, over {days}); review the memory and bump updated")
