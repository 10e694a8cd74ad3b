"""What an index lists, and what its dead links are: one reading shared by check and fix.

What "listed" means is defined once, here, and both ``memcheck check`` (IDX002,
IDX003) and ``memcheck fix`` (``sync``) read an index through ``survey``, so the two
never disagree about which memories an index lists or which lines are dead.
"""

from __future__ import annotations

import heapq
import posixpath
import unicodedata
from typing import TYPE_CHECKING, Sequence

from memcheck import lazy_regex
from memcheck.index.links import DEFINED, INLINE, REFERENCE, Link, classify, definition, is_entry, links, readings, references
from memcheck.index.naming import memories_named
from memcheck.records import NamedTuple
from memcheck.text import blocks
from memcheck.workspace.stores import names_index_archive

if TYPE_CHECKING:
    from memcheck.index.memory import Exists, Ignored, Memory

REPOINT, REMOVE, KEEP = "re-point", "remove", "keep"
# Why `fix` keeps a dead link (Dead.why):
IGNORED = "ignored"  # git ignores its file, which another clone may have
NOT_STAGED = "not-staged"  # judging a commit: its file is on disk, and the commit leaves it out
IN_DESCRIPTION = "description"  # it is in an entry's description, after the entry's own link
AMBIGUOUS = "ambiguous"  # more than one memory looks like its file renamed
LAZY = "lazy"  # its list item goes on, on a line without indentation (Dead.at)
HOLDS = "holds"  # its list item holds another link, or names a memory (on line Dead.at)
NOT_ALONE = "not-alone"  # not the only link of a list item's line
NOT_MEMORY = "not-memory"  # not a Markdown file directly in the store: a curator's pointer
UNUSED = "unused"  # a definition no list item uses
SHARED = "shared"  # a definition several lines use
UNICODE_FORM = "unicode-form"  # (re-pointed) it names a memory file in another Unicode normalisation form


class Dead(NamedTuple):
    """A link in the index to a file of the store that is not on disk (for a reference
    link: its definition, where its target is written)."""

    line: int
    col: int
    target: str  # as written
    path: str  # store-relative, as read
    action: str  # REPOINT, REMOVE or KEEP: what `fix` does with it
    renamed: tuple[str, ...]  # the first few memories that look like its file renamed (one: re-pointed to it)
    candidates: int = 0  # how many memories look like its file renamed, all told
    why: str = ""  # for KEEP: why fix leaves it
    at: int = 0  # the line that reason is about (LAZY, HOLDS)
    span: tuple[int, int] = (0, 0)  # offsets of its target in its line
    drop: tuple[int, ...] = ()  # the lines (1-based) fix removes with it: its list item, all of it
    form: str = INLINE


class Survey(NamedTuple):
    """One reading of an index's lines against its store, shared by check and fix."""

    lines: list[str]
    layout: blocks.Layout
    # per line: (link, kind, store-relative path) of each link outside code and comments,
    # a reference definition's included
    resolved: list[tuple[tuple[Link, str, str], ...]]
    listed: frozenset[str]  # memory file names the index lists
    dead: dict[tuple[int, int], Dead]  # (line, col) -> local links to nothing on disk


def survey(
    text: str,
    memories: Sequence[Memory],
    exists: Exists | None = None,
    *,
    store_folder: str = "",
    ignored: Ignored | None = None,
    unstaged: Ignored | None = None,
    also_listed: frozenset[str] = frozenset(),
) -> Survey:
    """What the index lists, and what its dead links are.

    A line lists a memory when it links to the memory's file (see ``classify``:
    decoded, as written, then without fragment), inline or by reference
    (``[text][1]`` and a ``[1]: file.md`` definition anywhere in the index); an
    entry-like line (a list item, a table row, a paragraph line) without links to
    files lists a memory when it names it (see ``naming.memories_named``) outside code
    spans; and any entry-like line lists a memory when one of its code spans holds
    exactly the memory's file name or its path from the index (`` `ph5-uat.md` ``,
    `` `./ph5-uat.md` ``), a line without links to files also when two or more
    code spans of such lines of its paragraph each hold a memory's stem
    (`` `ph5-uat`, `ph6-go` ``, wrapped over lines or not): an agent reading the
    index learns the file exists. Code
    blocks, HTML comments, headings and definitions list nothing. ``also_listed``:
    memories listed around the text (outside its markers).

    A dead link is one to a file of the store that is not on disk (a folder, a file
    git ignores, a non-memory file all exist). ``fix`` re-points it when one unlisted
    memory looks like its file renamed (see ``_renames``); removes the list item it
    is the only link of, with the item's indented lines and nested items, when it
    names a Markdown file directly in the store (what a memory is) that git does not
    ignore; and otherwise leaves it (``Dead.why`` says why): a dead link to anything
    else is a curator's pointer, maybe to a file this clone lacks.
    """
    names = {m.filename for m in memories}
    if exists is None:
        exists = names.__contains__
    lines = text.split("\n")
    lay = blocks.layout(lines)
    defined: dict[str, Link] = {}
    for i, kind in enumerate(lay.kinds):
        if kind == blocks.DEFINITION:
            found_def = definition(lines[i], i + 1)
            if found_def is not None:
                defined.setdefault(*found_def)  # the first definition of a label counts
    resolved: list[tuple[tuple[Link, str, str], ...]] = []
    listed = set(also_listed)
    naming: list[tuple[int, str]] = []  # (line index, prose) of entry-like lines without links to files
    spanning: list[tuple[int, str]] = []  # (line index, content) of the code spans of entry-like lines
    linking: set[int] = set()  # lines with a link to a file
    dead_links: list[tuple[Link, str]] = []
    equivalent: list[tuple[Link, str, str]] = []  # (link, path, the memory file it names in another Unicode form)
    by_form = {unicodedata.normalize("NFC", name): name for name in names if not name.isascii()}
    uses: dict[int, list[Link]] = {}  # definition line -> the reference links using it
    paragraph: dict[int, int] = {}  # line index of an entry-like line -> the first line of its paragraph
    for i, (line, kind, prose) in enumerate(zip(lines, lay.kinds, lay.prose)):
        here = tuple((link, *_resolve(link.target, exists, store_folder)) for link in _line_links(line, kind, prose, i + 1, defined))
        resolved.append(here)
        for link, where, path in here:
            if where in ("anchor", "url"):
                continue
            if link.form == REFERENCE:
                uses.setdefault(link.ref, []).append(link)
            if link.form != DEFINED:
                linking.add(i)
                if where == "local" and path in names:
                    listed.add(path)
            if where != "local" or path in names or link.form == REFERENCE:
                continue
            same = by_form.get(unicodedata.normalize("NFC", path)) if by_form else None
            if same is not None:
                # The memory's own name in another Unicode form (`café` composed, the file
                # decomposed): macOS opens it, Linux does not. Listed, and re-pointed to
                # the exact name, on every system alike.
                listed.add(same)
                equivalent.append((link, path, same))
            elif not exists(path):
                dead_links.append((link, path))
        if kind in blocks.ENTRY_LIKE:
            # A paragraph's lines, and a list item's first line with the lines that
            # continue it, are one paragraph; a table row is its own.
            before = lay.kinds[i - 1] if i else blocks.BLANK
            goes_on = (kind == blocks.PARA and before == blocks.PARA) or (
                kind == blocks.CONTINUATION and before in (blocks.ITEM, blocks.CONTINUATION) and lay.within[i - 1] == lay.within[i]
            )
            paragraph[i] = paragraph.get(i - 1, i) if goes_on else i
            if i not in linking and prose.strip():
                naming.append((i, prose))
            spanning.extend((i, line[start:end]) for start, end in lay.spans.get(i, ()))
    unlisted = [m for m in memories if m.filename not in listed]
    named: dict[int, set[str]] = {}
    if unlisted and (naming or spanning):
        named = memories_named(naming, unlisted) if naming else {}
        left = {m.filename for m in unlisted}
        linkless = {i for i, _prose in naming}
        stems: dict[int, dict[int, set[str]]] = {}  # paragraph -> line -> the stems its code spans hold
        for i, content in spanning:
            spanned = _spanned(content, store_folder)
            if spanned in left:
                named.setdefault(i, set()).add(spanned)
            elif i in linkless and spanned is not None and f"{spanned}.md" in left:
                stems.setdefault(paragraph[i], {}).setdefault(i, set()).add(f"{spanned}.md")
        for by_line in stems.values():
            # A curated index names its topic files by stem in code spans ("Topic files
            # here carry the detail: `deploy-notes`, `api-keys`, ..."): two or more in a
            # paragraph's lines without links are such a list, wrapped over lines or
            # not. One alone is as often a command, a package or a class that shares a
            # memory's name.
            if len(set().union(*by_line.values())) > 1:
                for i, hit in by_line.items():
                    named.setdefault(i, set()).update(hit)
        for hit in named.values():
            listed |= hit
    dead, claimed = _judge_dead(
        lines, lay, resolved, dead_links, uses, named, [m for m in memories if m.filename not in listed], ignored, unstaged
    )
    # The memories that a dead entry may have been renamed to, when the curator has
    # to say which: listed by that entry, for now. Adding them would leave the entry
    # with nothing to be renamed to, and the next fix would remove its curated text.
    listed |= claimed
    for link, path, same in equivalent:
        dead[(link.line, link.col)] = Dead(
            link.line, link.col, link.target, path, REPOINT, (same,), 1, UNICODE_FORM, span=(link.start, link.end), form=link.form
        )
    return Survey(lines, lay, resolved, frozenset(listed), dict(sorted(dead.items())) if equivalent else dead)


# How many entries (list items, table rows) an index holds of its own before one that
# lists no file is taken for a digest kept another way: as many as make a linked
# archive an index (IDX003's doc). A new store's index, a heading alone, lists nothing
# yet and is still the store's file index.
OWN_ENTRIES = 3


def lists_no_file(found: Survey) -> bool:
    """Whether the index is no file index: it holds entries of its own (``OWN_ENTRIES``
    or more), lists none of its store's memories and links no file. On one unseen
    repository MEMORY.md was a digest a tool writes from a database (24 entries, no
    file named), while its agent reached the 110 memory files another way: entries
    added for them would be written over on the digest's next run."""
    if found.listed:
        return False
    if any(where not in ("anchor", "url") for here in found.resolved for _link, where, _path in here):
        return False
    return sum(kind in (blocks.ITEM, blocks.TABLE_ROW) for kind in found.layout.kinds) >= OWN_ENTRIES


def _line_links(line: str, kind: str, prose: str, lineno: int, defined: dict[str, Link]) -> list[Link]:
    """The links of one line: its definition, or its inline and reference links read
    in its prose (code spans and comments blanked), text and target as written."""
    if kind in blocks.NO_LINKS or "[" not in prose:
        return []
    if kind == blocks.DEFINITION:
        found = definition(line, lineno)
        return [found[1]] if found is not None else []
    inline = list(links(prose, lineno))
    if prose != line:
        inline = [link._replace(text=line[link.col : link.col + len(link.text)], target=_target_at(line, link)) for link in inline]
    if defined:
        inline.extend(references(line, prose, lineno, defined, inline))
        inline.sort(key=lambda link: link.col)
    return inline


def _target_at(line: str, link: Link) -> str:
    target = line[link.start : link.end]
    return target[1:-1] if target.startswith("<") and target.endswith(">") else target


def _resolve(target: str, exists: Exists, store_folder: str) -> tuple[str, str]:
    """(kind, store-relative path) of a link target, as ``classify`` reads it; a path
    that climbs out of the store and back in (``../memory/b.md`` in ``.claude/memory``)
    is the store's file."""
    kind, path = classify(target, "", exists)
    if kind in ("outside-repo", "escapes") and store_folder:
        inside = _into_store(target, store_folder, exists)
        if inside is not None:
            return "local", inside
    return kind, path


def _into_store(target: str, store_folder: str, exists: Exists) -> str | None:
    """The store-relative path of a target that leaves the store and comes back:
    the first reading that lands in the store and exists, else the browser's reading
    if it lands there."""
    options, browser = readings(target)
    prefix = f"{store_folder}/"
    landed = {}
    for reading in dict.fromkeys((*options, browser)):
        joined = posixpath.normpath(posixpath.join(store_folder, reading))
        if joined.startswith(prefix):
            landed[reading] = joined[len(prefix) :]
    found = next((path for path in landed.values() if exists(path)), None)
    return found if found is not None else landed.get(browser)


def _spanned(content: str, store_folder: str) -> str | None:
    """The store-relative path a code span's content names, read as a path from the
    index (``./a.md`` and ``../memory/a.md`` in ``.claude/memory`` are ``a.md``), or
    None for what is not a plain relative path."""
    path = content.strip()
    if not path or path.startswith(("/", "~")) or "\\" in path:
        return None
    if "/" not in path:
        return path  # the file name alone: most spans that name a memory
    path = posixpath.normpath(path)
    if path.startswith("../") and store_folder:
        joined = posixpath.normpath(posixpath.join(store_folder, path))
        prefix = f"{store_folder}/"
        return joined[len(prefix) :] if joined.startswith(prefix) else None
    # Written from the project's folder: the store's own folder (`.claude/memory/a.md`,
    # `memory/a.md`), or `memory/`, as Claude Code's auto memory folder is named.
    head, _, name = path.rpartition("/")
    if head in (store_folder, posixpath.basename(store_folder) or "memory", "memory"):
        return name
    return path


def _is_memory_path(path: str) -> bool:
    # (Not an archive of the index's, which is no memory: a link to one in another case,
    # which a checkout that ignores case follows, is left as it is, not taken out.)
    return "/" not in path and path.endswith(".md") and not names_index_archive(path)


def _judge_dead(
    lines: list[str],
    lay: blocks.Layout,
    resolved: list[tuple[tuple[Link, str, str], ...]],
    dead_links: list[tuple[Link, str]],
    uses: dict[int, list[Link]],
    named: dict[int, set[str]],
    unlisted: Sequence[Memory],
    ignored: Ignored | None,
    unstaged: Ignored | None = None,
) -> tuple[dict[tuple[int, int], Dead], set[str]]:
    """Each dead link's Dead, and the memories claimed by the ones whose renamed
    file the curator has to choose (see _renames)."""
    if not dead_links:
        return {}, set()
    git_ignores = ignored(sorted({path for _link, path in dead_links})) if ignored is not None else set()
    # A file the commit leaves out is no dead link on disk: `git commit -a` stages
    # MEMORY.md and never an untracked memory, and fix must not take its entry out.
    left_out = unstaged(sorted({path for _link, path in dead_links})) if unstaged is not None else set()
    why: dict[int, str] = {}  # position in dead_links -> why it is kept, decided before renames
    renaming: list[tuple[int, tuple[str, ...], str]] = []  # (position in dead_links, link texts, dead path) of rename candidates
    for k, (link, path) in enumerate(dead_links):
        line = lines[link.line - 1]
        if link.form == INLINE and lay.kinds[link.line - 1] == blocks.ITEM and is_entry(line) and resolved[link.line - 1][0][0] is not link:
            why[k] = IN_DESCRIPTION
        elif path in git_ignores:
            why[k] = IGNORED
        elif path in left_out:
            why[k] = NOT_STAGED
        elif not _is_memory_path(path):
            why[k] = NOT_MEMORY
        else:
            texts = tuple(use.text for use in uses.get(link.line, ())) if link.form == DEFINED else (link.text,)
            renaming.append((k, texts, path))
    renames, claimed = _renames(renaming, unlisted)
    dead: dict[tuple[int, int], Dead] = {}
    dropped: set[int] = set()  # 0-based lines of the items removed so far
    # Last first: an item nested in a dead item is judged, and maybe removed, before the item it is in.
    for k in range(len(dead_links) - 1, -1, -1):
        link, path = dead_links[k]
        shown, count, chosen = renames.get(k, ((), 0, None))
        found = Dead(
            link.line, link.col, link.target, path, KEEP, shown, count, why.get(k, ""), span=(link.start, link.end), form=link.form
        )
        if chosen is not None:
            found = found._replace(action=REPOINT, renamed=(chosen,), candidates=1)
        elif k in why:
            pass
        elif count:
            found = found._replace(why=AMBIGUOUS)  # several memories, or a memory other dead links want too
        else:
            reason, at, drop = _removal(lay, resolved, link, uses, named, dropped)
            if reason:
                found = found._replace(why=reason, at=at)
            else:
                found = found._replace(action=REMOVE, drop=drop)
                dropped.update(line - 1 for line in drop)
        dead[(link.line, link.col)] = found
    return dict(sorted(dead.items())), claimed


def _removal(
    lay: blocks.Layout,
    resolved: list[tuple[tuple[Link, str, str], ...]],
    link: Link,
    uses: dict[int, list[Link]],
    named: dict[int, set[str]],
    dropped: set[int],
) -> tuple[str, int, tuple[int, ...]]:
    """Whether fix may remove the list item a dead link is the only link of: ("", 0,
    its lines), or (why not, the line that is about, ())."""
    item = link.line - 1
    also: tuple[int, ...] = ()
    if link.form == DEFINED:
        users = uses.get(link.line, [])
        if not users:
            return UNUSED, 0, ()
        if len(users) > 1:
            return SHARED, 0, ()
        item, also = users[0].line - 1, (link.line,)
        link = users[0]
    if lay.kinds[item] != blocks.ITEM or any(x[1] != "anchor" and x[0] is not link for x in resolved[item]):
        return NOT_ALONE, 0, ()
    if named.get(item):  # a code span of its own line lists a memory too
        return HOLDS, item + 1, ()
    end, lazy = blocks.item_extent(lay, item)
    if lazy >= 0:
        return LAZY, lazy + 1, ()
    for j in range(item + 1, end):
        if j in dropped:
            continue
        if named.get(j) or any(x[1] != "anchor" for x in resolved[j]):
            return HOLDS, j + 1, ()
    return "", 0, tuple(sorted({*range(item + 1, end + 1), *also}))


# The evidence that a memory is a dead link's file renamed, strongest first: the
# link's text or the dead file's stem is the memory's `name` or stem, but for case,
# spacing and Unicode normalisation; the same but also for `-`, `_`, `*` and
# backticks. The strongest evidence that names any memory decides.
_LOOSE = lazy_regex.compile(r"[\s_\-*`]+")


def _exact(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text.replace("\\", "")).split()).casefold()


def _loose(text: str) -> str:
    return _LOOSE.sub(" ", unicodedata.normalize("NFC", text.replace("\\", ""))).strip().casefold()


def _memory_keys(m: Memory, tier: int) -> set[str]:
    key = _exact if tier == 1 else _loose
    return {k for k in (key(m.stem), key(m.name or "")) if k}


def _dead_keys(texts: Sequence[str], path: str, tier: int) -> set[str]:
    key = _exact if tier == 1 else _loose
    stem = path[:-3] if path.endswith(".md") else path
    return {k for k in (*map(key, texts), key(stem)) if k}


def _renames(
    dead: list[tuple[int, tuple[str, ...], str]], unlisted: Sequence[Memory]
) -> tuple[dict[int, tuple[tuple[str, ...], int, str | None]], set[str]]:
    """``_renames_pass`` until it settles: a memory one link is re-pointed to is no
    longer a candidate of the others, so a link left to the curator (two memories
    looked like its file) may have one left. Without this, the next fix re-pointed
    it, and a second run changed the index (hypothesis found `[api](api_old.md)`
    beside `[Note 1](note_one.md)`, with memories api.md and note_1.md named api).
    Each further pass re-points at least one more link, and there are seldom more
    than two."""
    result, claimed = _renames_pass(dead, unlisted)
    for _ in range(len(dead)):
        fixed = {target for _first, _count, target in result.values() if target}
        undecided = [d for d in dead if d[0] in result and result[d[0]][2] is None]
        rest = [m for m in unlisted if m.filename not in fixed]
        if not undecided or not fixed:
            break
        again, again_claimed = _renames_pass(undecided, rest)
        newly = {k: v for k, v in again.items() if v[2]}
        if not newly:
            break
        result.update(again)
        claimed = (claimed - {v[2] for v in newly.values()}) | again_claimed
    return result, claimed


def _renames_pass(
    dead: list[tuple[int, tuple[str, ...], str]], unlisted: Sequence[Memory]
) -> tuple[dict[int, tuple[tuple[str, ...], int, str | None]], set[str]]:
    """For dead links (position, link texts, dead path): (up to 3 memories that look like
    its file renamed, how many do, the one fix re-points it to or None); and the
    memories the links fix cannot re-point claim (the curator chooses among them).

    A dead link with one candidate that no other dead link has as its only candidate
    is re-pointed; with several, or one other links want too, the user chooses.
    Memories are looked up by key, not tried against every dead link: linear in
    links and memories however many share a name (only the smaller of a link's
    candidate lists is walked, a list is walked once per set of keys, and the claimed
    memories are gathered once per key)."""
    result: dict[int, tuple[tuple[str, ...], int, str | None]] = {}
    claimed: set[str] = set()
    if not dead or not unlisted:
        return result, claimed
    ordered = sorted(unlisted, key=lambda m: m.filename)
    taken: set[str] = set()
    pending = list(dead)
    for tier in (1, 2):
        by_key: dict[str, list[str]] = {}  # key -> the memories it names, in name order
        for m in ordered:
            if m.filename not in taken:
                for key in _memory_keys(m, tier):
                    by_key.setdefault(key, []).append(m.filename)
        as_sets: dict[str, set[str]] = {}
        known: dict[frozenset[str], tuple[tuple[str, ...], int]] = {}
        sole: dict[str, list[int]] = {}
        waiting = []
        open_keys: set[str] = set()  # keys of the links the curator has to settle
        for k, texts, path in pending:
            keys = frozenset(_dead_keys(texts, path, tier))
            got = known.get(keys)
            if got is None:
                got = known[keys] = _union(keys, by_key, as_sets)
            first, count = got
            if not count:
                waiting.append((k, texts, path))
                continue
            result[k] = (first, count, None)
            if count == 1:
                sole.setdefault(first[0], []).append(k)
            else:
                open_keys |= keys
        for name, claims in sole.items():
            if len(claims) == 1:
                result[claims[0]] = ((name,), 1, name)
                taken.add(name)
            else:
                claimed.add(name)
        for key in open_keys:
            claimed.update(name for name in by_key.get(key, ()) if name not in taken)
        pending = waiting
    return result, claimed


def _union(keys: frozenset[str], by_key: dict[str, list[str]], as_sets: dict[str, set[str]]) -> tuple[tuple[str, ...], int]:
    """(the first 3 in name order, how many) of the memories the keys' lists hold."""
    lists = sorted(((key, by_key[key]) for key in keys if key in by_key), key=lambda kv: (len(kv[1]), kv[0]))
    if not lists:
        return (), 0
    big_key, big = lists[-1]
    if len(lists) == 1:
        return tuple(big[:3]), len(big)
    big_set = as_sets.get(big_key)
    if big_set is None:
        big_set = as_sets[big_key] = set(big)
    extra = sorted({name for _key, names in lists[:-1] for name in names if name not in big_set})
    return tuple(heapq.nsmallest(3, [*big[:3], *extra])), len(big) + len(extra)


def listed_files(text: str, memories: Sequence[Memory], exists: Exists | None = None) -> set[str]:
    """File names of the memories the index lists (see ``survey``)."""
    return set(survey(text, memories, exists).listed)
