"""MEM: memory files.

A memory file is a ``*.md`` file directly inside a memory store, other than
``MEMORY.md`` and ``README.md``. It needs YAML frontmatter with ``name``,
``description`` and a ``type`` from the closed taxonomy.

One module per rule (``keys`` and ``duplicates`` hold two each); this package's
``check_store`` is the family's one pass over a store: its memories that link out
(MEM022), then each memory in the store's order (``check_file``, the rules on the
memory alone, in their gate order, the field rules reading one ``facts.FieldFacts``),
then the rules that compare the store's memories, from what the pass kept of each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator, cast

from memcheck.checks.memory import (
    broken_link,
    byte_order_mark,
    crlf_line_endings,
    duplicate_key,
    duplicates,
    empty_body,
    facts,
    frontmatter_not_strict_yaml,
    invalid_date,
    keys,
    long_description,
    memory_symlink_outside,
    missing_frontmatter,
    multiline_description,
    non_slug_filename,
    stale_memory,
    unknown_type,
    unparsable_frontmatter,
    unreadable_file,
    value_cut_by_comment,
    wrong_value_type,
)
from memcheck.checks.memory.broken_link import MEM021
from memcheck.checks.memory.byte_order_mark import MEM017
from memcheck.checks.memory.crlf_line_endings import MEM018
from memcheck.checks.memory.duplicate_key import MEM005
from memcheck.checks.memory.duplicates import MEM011, MEM023
from memcheck.checks.memory.empty_body import MEM013
from memcheck.checks.memory.frontmatter_not_strict_yaml import MEM004
from memcheck.checks.memory.invalid_date import MEM009
from memcheck.checks.memory.keys import MEM006, MEM010
from memcheck.checks.memory.long_description import MEM015
from memcheck.checks.memory.memory_symlink_outside import MEM022
from memcheck.checks.memory.missing_frontmatter import MEM002
from memcheck.checks.memory.multiline_description import MEM014
from memcheck.checks.memory.non_slug_filename import MEM012
from memcheck.checks.memory.stale_memory import MEM016
from memcheck.checks.memory.unknown_type import MEM007
from memcheck.checks.memory.unparsable_frontmatter import MEM003
from memcheck.checks.memory.unreadable_file import MEM001
from memcheck.checks.memory.value_cut_by_comment import MEM019
from memcheck.checks.memory.wrong_value_type import MEM008
from memcheck.paths import basename
from memcheck.problem import contained
from memcheck.records import NamedTuple
from memcheck.text.duplicates import Alike, body_start
from memcheck.text.mentions import Token
from memcheck.workspace.derived import findings_kept, kept_findings
from memcheck.workspace.stores import INDEX_NAME, is_index_archive_name

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.text.document import Document
    from memcheck.text.frontmatter_reading import Frontmatter
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.stores import Store
    from memcheck.workspace.targets import Targets

RULES = (
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
)


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    for store in targets.stores:
        yield from check_store(ws, store)


def check_store(ws: Workspace, store: Store) -> Iterator[Problem]:
    for path in store.outside:
        yield memory_symlink_outside.check(ws, path)
    for path in store.own:
        # A file agents load by its name, which only the secret and hidden-text rules
        # read: what they cannot read is reported, or it would pass them unseen.
        doc = ws.document(path)
        unreadable = unreadable_file.check(doc)
        if unreadable is not None:
            yield unreadable
        elif is_index_archive_name(basename(path)) and ws.wants(broken_link.MEM021.code):
            # An archive of the index's entries (MEMORY-archive.md): an index of its own,
            # whose dead entries send an agent that reads it after nothing.
            yield from broken_link.check(ws, doc)
    names: dict[str, str] = {}
    wiki: list[tuple[str, list[Token]]] = []  # files with [[...]], checked once every name is known
    named_twice: list[tuple[str, int, str, str]] = []  # (path, line of name, name, the file that has it first)
    cased: dict[str, str] = {}  # file name without case -> the first file of that name
    long: list[tuple[str, int, str]] = []  # (memory, its description's length, the description), for MEM015
    crlf: list[str] = []  # memories with CRLF line endings, for MEM018
    alike: list[Alike] = []  # each memory's description and body, for MEM023
    team_types = unknown_type.TeamTypes(ws, store)
    for path in store.files:
        seen = ws.of_file("memory", path, lambda: _memory(ws, path), _kept_memory, _memory_kept)  # noqa: B023 (called at once)
        yield from team_types.told_to_write(seen.found)
        twin = cased.setdefault(basename(path).casefold(), path)
        if twin != path:
            yield non_slug_filename.case_twin(path, twin)
        if seen.crlf:
            crlf.append(path)
        if seen.long:
            long.append((path, seen.long, seen.description))
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
    for path in store.own:
        # Its own documents collide on a checkout that ignores case as memories do
        # (`MEMORY.old.md` and `MEMORY.OLD.md`: one replaces the other there).
        twin = cased.setdefault(basename(path).casefold(), path)
        if twin != path:
            yield non_slug_filename.case_twin(path, twin, "file")
    # And one named as the index in another case (`memory.md`) is the index there.
    as_index = cased.get(INDEX_NAME.casefold())
    if as_index is not None:
        yield non_slug_filename.index_twin(as_index)
    if wiki:
        yield from broken_link.wiki_links(ws, store, wiki, names)
    yield from duplicates.check(ws, alike, named_twice)
    yield from long_description.check(ws, store, long)
    yield from crlf_line_endings.check(store, crlf)


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
    noted = facts.Noted()
    found = list(contained(MEM001, path, check_file(ws, doc, noted)))
    dead_links = ws.wants(MEM021.code)
    if dead_links:
        found.extend(broken_link.check(ws, doc))
    wiki = broken_link.wiki_tokens(ws, doc) if dead_links else []
    fm = doc.frontmatter
    name = fm.data.get("name") if fm is not None else None
    named = (name.strip(), fm.key_lines.get("name", 1)) if fm is not None and isinstance(name, str) and name.strip() else None
    description = fm.data.get("description") if fm is not None else None
    return _Memory(found, noted.crlf, noted.long, wiki, named, description if isinstance(description, str) else "", body_start(doc.body))


def _kept_memory(seen: _Memory) -> object:
    """What the cache keeps of a memory's checking: nothing where it would keep a
    secret (a finding's message, a name or a description that quotes one)."""
    from memcheck.text.secrets import holds_secret

    found = kept_findings(seen.found)
    texts = [seen.description, seen.name[0] if seen.name else "", seen.start, *(t.text for t in seen.wiki)]
    if found is None or any(map(holds_secret, texts)):
        return None
    return (found, seen.crlf, seen.long, [tuple(t) for t in seen.wiki], seen.name, seen.description, seen.start)


def _memory_kept(kept: object) -> _Memory:
    found, crlf, long, wiki, name, description, start = cast("tuple[Any, ...]", kept)
    return _Memory(
        findings_kept(found), crlf, long, [Token(*t) for t in wiki], None if name is None else (name[0], name[1]), description, start
    )


def check_file(ws: Workspace, doc: Document, noted: facts.Noted) -> Iterator[Problem]:
    """The findings on one memory, in the rules' gate order: a file that cannot be
    read, has no frontmatter or frontmatter that cannot be parsed gets that one
    finding (and MEM017, MEM012 before the last two), nothing more. What is reported
    once per store is noted in ``noted``."""
    unreadable = unreadable_file.check(doc)
    if unreadable is not None:
        yield unreadable
        return
    bom = byte_order_mark.check(doc)
    if bom is not None:
        yield bom
    if doc.crlf:
        noted.crlf = True
    bad_name = non_slug_filename.check(ws, doc.path)
    if bad_name is not None:
        yield bad_name
    no_frontmatter = missing_frontmatter.check(doc)
    if no_frontmatter is not None:
        yield no_frontmatter
        return
    unparsable = unparsable_frontmatter.check(doc)
    fm = doc.frontmatter
    if unparsable is not None or fm is None:
        if unparsable is not None:
            yield unparsable
        return
    not_strict = frontmatter_not_strict_yaml.check(doc, fm)
    if not_strict is not None:
        yield not_strict
    if fm.duplicates:
        yield from duplicate_key.check(doc.path, fm)
    yield from _fields(ws, doc, fm, noted)
    empty = empty_body.check(doc, fm)
    if empty is not None:
        yield empty


def _fields(ws: Workspace, doc: Document, fm: Frontmatter, noted: facts.Noted) -> Iterator[Problem]:
    f = facts.fields(ws, doc)
    if not f.usual:  # (the rules below have nothing to say of the usual fields)
        yield from keys.check(f)
        yield from unknown_type.check(f)
        yield from wrong_value_type.check(f)
        yield from multiline_description.check(f)
    noted.long = long_description.length(f)
    if "created" in f.data or "updated" in f.data:  # (most memories have neither)
        parsed, bad = facts.dates(fm)
        yield from invalid_date.check(f, parsed, bad)
        yield from stale_memory.check(ws, f, parsed)
    yield from value_cut_by_comment.check(f)
