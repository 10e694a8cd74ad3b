"""MEM: memory files (SPEC §3).

A memory file is a ``*.md`` file directly inside a memory store, other than
``MEMORY.md`` and ``README.md``. It needs YAML frontmatter with ``name``,
``description`` and a ``type`` from the closed taxonomy.
"""
from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Generator, Iterator, Mapping, NamedTuple, cast

from memcheck import links
from memcheck.paths import basename, join, name_trouble, parent, safe_name
from memcheck.problem import ERROR, WARNING, Problem, Rule, contained, escaped, some
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
    from memcheck.engine.targets import Targets

_EXAMPLE_OK = """```markdown
---
name: Review style
description: User wants concise review findings with file references first
type: user
---

Put blocking findings first and cite the file path.
```"""

MEM001 = Rule("MEM001", "unreadable-file", ERROR, False, "Memory file cannot be read as UTF-8 text", """\
## What it does
Reports a memory file that cannot be read, is binary, is not valid UTF-8 or is
larger than 1 MiB, or that exhausts memcheck's stack or memory while it is checked.

## Why is this bad?
Agents load memory files as UTF-8 Markdown. A file they cannot decode is either
skipped silently or garbles the context it is loaded into.

## Example
A `notes.md` saved as UTF-16 or Latin-1 by an editor, or a binary pasted into the store.

## Use instead
Re-save the file as UTF-8, or move non-Markdown files out of the memory folder.
""")

MEM002 = Rule("MEM002", "missing-frontmatter", ERROR, False, "Memory file has no frontmatter", f"""\
## What it does
Reports a memory file whose first line is not `---`, so it has no YAML frontmatter.

## Why is this bad?
The index is built from each file's `name`, `description` and `type`. Without
frontmatter, agents fall back to the file name and the memory's type is unknown.

## Example
```markdown
# Review style
Put blocking findings first.
```

## Use instead
{_EXAMPLE_OK}
`memcheck fix` never invents frontmatter: only you know what the memory is.
""")

MEM003 = Rule("MEM003", "unparsable-frontmatter", ERROR, False, "Frontmatter cannot be parsed", f"""\
## What it does
Reports frontmatter that is never closed by a second `---` line, is not a mapping,
or is neither valid YAML nor readable as `key: value` lines; and frontmatter past
the bounds memcheck reads YAML within, which is not read at all: collections nested
more than 64 levels deep, more than 20,000 values or 2,097,152 characters with each
alias counted as all it stands for (a YAML "billion laughs"), or an alias inside
what it refers to.

## Why is this bad?
No tool can read the memory's name, description or type from it.

## Example
```markdown
---
name: Review style
description: [unclosed
```

## Use instead
{_EXAMPLE_OK}
""")

MEM004 = Rule("MEM004", "frontmatter-not-strict-yaml", ERROR, False, "Frontmatter is not strict YAML; a value needs quotes", """\
## What it does
Reports frontmatter that strict YAML rejects but that still reads as `key: value`
lines, and names the value to quote. The usual cause is an unquoted `: ` inside a
value; another is a value that starts with a quoted string and goes on after it
(`name: "Deploy" notes`), which is quoted whole, in single quotes. The index is still
built from the `key: value` reading, as agents' line parsers do.

## Why is this bad?
Agents with a real YAML parser (and memcheck's schema checks) cannot read the file;
agents with line parsers can. The same memory means different things to different tools.

## Example
```yaml
description: Deploy target: Railway, not Vercel
```

## Use instead
```yaml
description: "Deploy target: Railway, not Vercel"
```
""")

MEM005 = Rule("MEM005", "duplicate-key", ERROR, False, "Frontmatter repeats a key", """\
## What it does
Reports a key that appears twice in the same frontmatter mapping.

## Why is this bad?
PyYAML and most agents silently keep the last value, so the first one is dead text
that readers still believe.

## Example
```yaml
name: Review style
type: user
type: feedback
```

## Use instead
Keep one `type:` line with the value you mean.
""")

MEM006 = Rule("MEM006", "missing-required-field", ERROR, False, "Required frontmatter field is missing or empty", f"""\
## What it does
Reports a memory file without a non-empty value for each key in `memory.required`
(default `name`, `description`, `type`; `metadata.type` counts for `type`). Where a
key of the file looks like a misspelling of the missing one (`Description:`), the
finding is on that key and says to rename it (MEM010 does not report it too); a
frontmatter with none of the fields (a session log kept in the store) is one finding,
not one per field and per unknown key.

## Why is this bad?
The index entry falls back to the file name, and an agent cannot tell when the
memory is relevant.

## Example
```yaml
---
name: Review style
type: user
---
```

## Use instead
{_EXAMPLE_OK}
""")

MEM007 = Rule("MEM007", "unknown-type", ERROR, False, "Memory type is outside the taxonomy", """\
## What it does
Reports a `type` (or `metadata.type`) that is not one of `memory.types`
(default `user`, `feedback`, `project`, `reference`).

## Why is this bad?
The taxonomy is closed: agents reject or drop unknown types (an index rebuilt by
type sections leaves them out of MEMORY.md entirely), so the memory is never seen.

## Example
```yaml
type: decision
```

## Use instead
```yaml
type: project
```
""")

MEM008 = Rule("MEM008", "wrong-value-type", ERROR, False, "Frontmatter value has the wrong type", """\
## What it does
Reports `name`, `description`, `type` and `agent_name` values that are not one-line
strings (a list, a mapping, a number, a multi-line name), and a `metadata` that is
not a mapping.

## Why is this bad?
Index renderers print these values on one line; anything else renders as Python
reprs or breaks the entry.

## Example
```yaml
name:
  - Review style
```

## Use instead
```yaml
name: Review style
```
""")

MEM009 = Rule("MEM009", "invalid-date", ERROR, False, "created/updated is not an ISO-8601 date, or updated precedes created", """\
## What it does
Reports `created` or `updated` values that are not ISO-8601 dates or datetimes, and
an `updated` earlier than `created`.

## Why is this bad?
Agents compute a memory's age from these fields to warn about stale memories; a
date they cannot parse makes every memory look fresh (or ancient).

## Example
```yaml
created: 03/25/2026
```

## Use instead
```yaml
created: 2026-03-25
```
""")

MEM010 = Rule("MEM010", "unknown-key", WARNING, False, "Memory frontmatter key looks like a misspelt known key", """\
## What it does
Reports a top-level frontmatter key one slip of the keyboard from a key the memory
schema defines or `memory.allowed-keys` allows: only case, `-` or `_` differ
(`Updated`), or one character is wrong, added, dropped or swapped with its neighbour
(`descripton`, `tpye`). Other keys (`lastReadAt`, `created_at`: what a team's own
memory tool writes) pass: agents ignore them. A key that looks like a misspelling of a required field that is missing
is reported by MEM006 instead, which says to rename it.

## Why is this bad?
Agents match keys exactly: the misspelt setting is never read.

## Example
```yaml
descripton: User wants concise reviews
```

## Use instead
Fix the spelling, or, if the key is meant, add it to `memory.allowed-keys` in
`.memcheck.yaml`.
""")

MEM011 = Rule("MEM011", "duplicate-name", ERROR, False, "Two memory files in one store share a name", """\
## What it does
Reports a memory whose `name` another file of the same store already uses.

## Why is this bad?
Agents that save memories by name (nano-claude-code's `MemorySave`) overwrite one
with the other; readers of the index cannot tell the two entries apart.

## Example
`review.md` and `review_style.md` both with `name: Review style`.

## Use instead
Merge the two memories, or give each a distinct name.
""")

MEM012 = Rule("MEM012", "non-slug-filename", WARNING, False, "Memory file name breaks links or checkouts", """\
## What it does
Reports a memory file name that holds whitespace, a character Windows does not allow
in a file name (`<>:"|?*\\` and control characters), or one that Markdown link
targets treat specially (`()[]#%` and backquotes); and two memories of one store
whose names differ only by case. Capital letters alone and letters outside ASCII
are fine: agents and links handle them, and other tools look for some such names as
they are (`SOUL.md`, `LAST_SESSION.md`).

## Why is this bad?
A space or a parenthesis breaks the `[name](file.md)` link that agents write into
MEMORY.md; a `?` or `:` makes the checkout fail on Windows; `Notes.md` and
`notes.md` are one file on macOS and Windows, so one overwrites the other.

## Example
`Review Style.md`

## Use instead
`Review-Style.md` (or `review_style.md`)
""")

MEM013 = Rule("MEM013", "empty-body", WARNING, False, "Memory file has no content after its frontmatter", """\
## What it does
Reports a memory file whose body (everything after the frontmatter) is blank.

## Why is this bad?
An agent that opens the memory finds nothing beyond the index line: the memory is
either unfinished or should be deleted.

## Example
```markdown
---
name: Review style
description: Concise reviews
type: user
---
```

## Use instead
Write the memory's content below the frontmatter, or delete the file.
""")

MEM014 = Rule("MEM014", "multiline-description", ERROR, False, "Description spans several lines", """\
## What it does
Reports a `description` that holds line breaks (a YAML block scalar or a quoted
value over several lines).

## Why is this bad?
The description becomes one line of MEMORY.md; agents' line parsers read only its
first line, or nothing at all (`>-`).

## Example
```yaml
description: >-
  User wants concise
  review findings
```

## Use instead
```yaml
description: User wants concise review findings
```
""")

MEM015 = Rule("MEM015", "long-description", WARNING, False, "Memories of a store have descriptions longer than the configured maximum", """\
## What it does
Reports the memories whose `description` is longer than
`memory.description-max-length` characters (default 300): one finding per store, on
its MEMORY.md, naming the memories (the first five, and how many more), since one
habit (an agent that writes long descriptions) usually explains them all. A
`memcheck-disable-file MEM015` comment in MEMORY.md quiets it for the store; in the
memory's own file, when it is the only one.

## Why is this bad?
Every description is loaded into every session through MEMORY.md; long ones push
the index toward its 200-line / 25,000-byte cap, past which agents see nothing.

## Example
A description that retells the whole memory.

## Use instead
One sentence that says when the memory matters; keep the detail in the body.
""")

MEM016 = Rule("MEM016", "stale-memory", WARNING, False, "Memory not updated within the configured number of days", """\
## What it does
Reports a memory whose `updated` (or else `created`) date is older than
`memory.stale-after-days`. Off by default (0): CI must not turn red by the calendar alone.

## Why is this bad?
Old project memories describe decisions that may no longer hold.

## Example
`updated: 2024-01-02` with `stale-after-days: 180`.

## Use instead
Review the memory; update its content and `updated`, or delete it.
""")

MEM017 = Rule("MEM017", "byte-order-mark", WARNING, False, "Memory file starts with a UTF-8 byte-order mark", """\
## What it does
Reports a memory file that begins with a UTF-8 BOM.

## Why is this bad?
Line parsers that expect `---` on the first line see `\\ufeff---` and find no frontmatter.

## Example
A file saved by an editor set to "UTF-8 with BOM".

## Use instead
Save the file as UTF-8 without BOM.
""")

MEM018 = Rule("MEM018", "crlf-line-endings", WARNING, False, "Memory files of a store use CRLF line endings", """\
## What it does
Reports the memory files with Windows (CRLF) line endings: one finding per store, on
its MEMORY.md, naming the files (the first five, and how many more), since one
cause (an editor, or a checkout without `.gitattributes`) usually explains them all.
A `memcheck-disable-file MEM018` comment in MEMORY.md quiets it for the store; in the
file's own text, when it is the only one.

## Why is this bad?
Agents that keep memory stores split frontmatter with `^---\\n`; with CRLF their regex does not match
and the memory loses its frontmatter.

## Example
A file committed from Windows without `core.autocrlf`.

## Use instead
Convert to LF (`dos2unix`), and add `*.md text eol=lf` to `.gitattributes`.
""")

MEM019 = Rule("MEM019", "value-cut-by-comment", WARNING, False, "YAML reads part of a value as a comment", """\
## What it does
Reports an unquoted value containing ` #`: YAML treats the rest of the line as a
comment, while agents' line parsers keep it.

## Why is this bad?
The value silently differs between tools: `description: fix PR #36` is `fix PR` to YAML.

## Example
```yaml
description: Follow-up to PR #36
```

## Use instead
```yaml
description: "Follow-up to PR #36"
```
""")

MEM021 = Rule("MEM021", "broken-link", WARNING, False, "Memory link or [[wiki]] link points at nothing", """\
## What it does
Reports, in a memory file's body or its `description` (which the store's
MEMORY.md shows beside the memory's entry), a relative Markdown link whose target
does not exist (resolved from the store's folder), and a `[[wiki]]` link (`[[name]]`,
`[[name|text]]`, `[[name#heading]]`, `[[folder/name]]`) that names nothing: not a
memory of the same store, by file stem (`[[deploy-notes]]` for `deploy-notes.md`) or
`name`, and not, as in a note vault (Obsidian's), a Markdown file of the repository
by its stem or the end of its path (`[[Deploy Runbook]]`, `[[adr/0001-queue]]`),
another file by its name (`![[diagram.png]]`), or a path from the memory's folder
(`[[../notes/x]]`). Names are compared without case, as Obsidian finds them.
Links in code spans, fenced blocks and HTML comments are not read, and definitions
are read as CommonMark reads them: a `[text]: more` line inside a paragraph is text,
and so is one with more than a target and a title.

## Why is this bad?
Agents follow these links to related memories; a dead one, usually left by a
rename or a deleted memory, points them at nothing.

## Example
```markdown
See [[deploy_notes]] for the rollout steps.
```
in a store whose file is `deploy-notes.md`.

## Use instead
```markdown
See [[deploy-notes]] for the rollout steps.
```
""")

MEM022 = Rule("MEM022", "memory-symlink-outside", ERROR, False, "Memory file is a symlink out of the repository", """\
## What it does
Reports a memory file (a `*.md` file in a memory store) that is a symlink to a place
outside the repository, and says when that place is one where secrets are kept (a
path `memcheck guard` stops a symlink pointing at). memcheck never follows the link,
so nothing in the file is checked, and `memcheck fix` never lists it in MEMORY.md.

## Why is this bad?
An agent that reads the memory follows the link and loads whatever the path holds
on the machine it runs on: `runtime.md -> /proc/self/environ`, listed in MEMORY.md
as "read first", puts the machine's environment, tokens and keys included, into
the agent's context. Other clones have another file there, or none.

## Example
`.claude/memory/runtime.md -> /proc/self/environ`

## Use instead
Keep the memory in the repository as a regular file (copy in what it should say),
or link to a file inside the repository.
""")

MEM023 = Rule("MEM023", "duplicate-memory", WARNING, False, "Two memories of one store say the same thing", """\
## What it does
Reports a memory whose body is another memory's of the same store (case and
whitespace aside), or whose description is the same and whose body nearly so (80%
of its words alike, in order). The later file, by name, is reported and names the
earlier one.

## Why is this bad?
The store's MEMORY.md lists both, and agents load its first 200 lines: a memory
saved twice under two names spends that budget twice, and the two copies drift
apart as each is edited.

## Example
`feedback_testing.md` and `feedback_tests.md`, both "Run the integration tests
against a real database, never mocks."

## Use instead
Keep one, merge what the other adds into it, and delete the other.
""")

RULES = (MEM001, MEM002, MEM003, MEM004, MEM005, MEM006, MEM007, MEM008, MEM009, MEM010, MEM011, MEM012, MEM013, MEM014, MEM015, MEM016, MEM017, MEM018, MEM019, MEM021, MEM022, MEM023)

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
    if not doc.body.strip():
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
