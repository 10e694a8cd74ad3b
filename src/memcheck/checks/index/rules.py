"""The IDX rules: what each finds, why it matters, and what to write instead (the
text of each rule's page and of its SARIF help). The checks that report them are in
the package's __init__ (what every run asks) and judge.py (an index judged afresh)."""
from __future__ import annotations

from memcheck.problem import ERROR, STORE, WARNING, Rule

IDX001 = Rule("IDX001", "missing-index", ERROR, True, "Memory store has no MEMORY.md", """\
## What it does
Reports a memory store folder without a `MEMORY.md` index.

## Why is this bad?
Agents load only the index at session start; memories it does not list are never
seen.

## Example
`.claude/memory/` holding `user_prefs.md` and no `MEMORY.md`.

## Use instead
Run `memcheck fix`: it writes the index (in the `grouped` style unless
`index.style` says otherwise).

When a `MEMORY.md` one folder up or one folder down names most of the store's
memory files (`.claude/MEMORY.md` listing the files of `.claude/memory/`), it is
this store's index in the wrong folder: move it with the `git mv` the message
gives. `memcheck fix` then writes no second index beside it.
""", scope=STORE)

IDX002 = Rule("IDX002", "dead-entry", ERROR, True, "Index entry points at a file that does not exist", """\
## What it does
Reports a link in MEMORY.md whose target file is not in the repository.

## Why is this bad?
The agent is told a memory exists, tries to read it, and fails; the entry also
spends index lines that count against the cap.

## Example
```markdown
- [Old plan](project_old_plan.md) - deleted last week
```

## Use instead
Point the entry at the file's new name if it was renamed, restore the file, or
remove the line. `memcheck fix` re-points an entry whose file was renamed (an
unlisted memory with the entry's name, or the same file name but for case, Unicode
form, `-`, `_` and spaces; a `#fragment` is kept) and removes a list item, with its
wrapped lines and nested items, whose only link points at a missing memory file of
the store. A reference link (`[x][1]`) is reported at its definition (`[1]: x.md`);
a `[1]: x.md` line right under a list item or a paragraph line continues it, as
CommonMark reads it, and defines nothing.
Left for you, with the reason: a dead link to anything else (a subfolder's file, a
file of another kind, a file outside the store: it may name a file this clone
lacks), to a file git ignores (another clone may have it), in an entry's
description, with several memories that look like its file renamed (up to three
are named; fix adds none of them until you choose), or in a list item that holds more (another link, an unindented line).
""", scope=STORE)

IDX003 = Rule("IDX003", "unlisted-memory", ERROR, True, "Memory file is not listed in MEMORY.md", """\
## What it does
Reports a memory file that no line of the index lists. A line lists a memory when it
links to the memory's file; a line without links to files (as in link-less indexes,
`- user_prefs: ...`) lists a memory when it names the file (`user_prefs.md`) as a
word, or its stem or frontmatter `name` as a whole phrase: between punctuation (`:`,
`|`, `*`, a dash with spaces around it, brackets) or the start or end of the line.
So `- api: ...` and `| api |` list the memory named `api`; a line about "api tests"
does not, nor does one about `Note 10` list `Note 1`. Links count inline
(`[a](a.md#usage)`) and by reference (`[a][1]` with `[1]: a.md`). A code span that
holds exactly the file name or its path from the index (`` `user_prefs.md` ``,
`` `./user_prefs.md` ``) lists the memory on any line, links or not: an agent reading
the index learns the file exists. Only list items, table rows and paragraph lines
name memories: a name in a link's text lists nothing (the link says which file it
means), nor does a code span that holds more or less than the file (`` `user_prefs` ``,
`` `cat user_prefs.md` ``), and neither do headings, HTML comments, link definitions
and code blocks.

## Why is this bad?
Agents discover memories through the index only: an unlisted memory is never read.

## Example
`feedback_testing.md` saved by hand without an index line.

## Use instead
Run `memcheck fix`: it adds an entry in the form of the index's own entries (link
text, separator, bullet), with a description, in the section for the memory's type
when the index has type sections (`## User`, `## Feedback`, ...), or where its date
puts it in a list kept newest first. When the entry would take the index over its
line or byte cap, or push lines agents read today past it, `fix` does not write it
and the finding is not fixable: make room (merge memories, shorten entries), then
run `memcheck fix`.
""", scope=STORE)

IDX004 = Rule("IDX004", "duplicate-entry", WARNING, False, "Two index entries point at the same file", """\
## What it does
Reports an index entry (a list item that starts with its link) for a memory file
that an earlier entry already lists. Notes that mention a file mid-sentence are not
entries.

## Why is this bad?
Duplicates waste index lines (agents stop reading at the cap) and often disagree
about the description.

## Example
```markdown
- [Testing](feedback_testing.md) - run pytest
- [Testing conventions](feedback_testing.md) - always run pytest first
```

## Use instead
Keep one entry per memory file.
""", scope=STORE)

IDX005 = Rule("IDX005", "link-escapes-store", WARNING, False, "Index link leaves the memory store", """\
## What it does
Reports links in MEMORY.md that are URLs, absolute paths, or use `..` to climb
above the repository. A link to another file of the repository (the project's
CLAUDE.md, its docs) is a cross-reference agents can follow, and passes.

## Why is this bad?
Agents resolve index links inside the repository; links above the repository root
and absolute paths point at files no clone has, and a URL is no memory of the store.

## Example
```markdown
- [Plans](../../../plans/INDEX.md) - every plan
```

## Use instead
Keep memories inside the store; point at other documents from the memory body.
""", scope=STORE)

IDX006 = Rule("IDX006", "index-out-of-date", ERROR, True, "MEMORY.md differs from its deterministic render", """\
## What it does
In `generate` mode, reports an index whose lines differ from what `memcheck fix`
renders from the store (entry order, names, descriptions, headings). Blank lines
are not compared: Markdown formatters add them around headings and lists, and
`fix` keeps them.

With `index.mode` unset, the mode is `generate` only for an index that reads as a
renderer wrote it (one style's headings and entries, in that style's order), so
this reports a render the store has moved on from; a hand-written list in its own
order is curated (sync mode), and not reported. `memcheck index STORE --explain`
says which mode was chosen, and why.

## Why is this bad?
Agents that keep a generated index rebuild all of it on every write; an index that drifted
from the store shows agents stale names and descriptions.

## Example
A grouped index listing `c.md` under `## User` after the memory's type became
`project`; in `generate` mode set in the config, an entry still showing a
description that the memory file has since changed.

## Use instead
Run `memcheck fix`, or `memcheck index STORE` to see the render.
""", scope=STORE)

IDX007 = Rule("IDX007", "over-line-cap", ERROR, False, "MEMORY.md is longer than the line cap", """\
## What it does
Reports an index with more lines than `index.max-lines` (default 200) and names
the entries past the cap.

## Why is this bad?
Agents load only the first 200 lines of MEMORY.md: everything after is invisible.
Claude Code 2.1.210 and later refuses a memory write that would leave its MEMORY.md
over its cap, so an index over it was written by hand or by another tool.

## Example
A 215-line index: its last 15 lines are never loaded.

## Use instead
Shorten descriptions, merge related memories, or move detail into memory bodies.
""")

IDX008 = Rule("IDX008", "over-byte-cap", ERROR, False, "MEMORY.md is larger than the byte cap", """\
## What it does
Reports an index larger than `index.max-bytes` (default 25,000) and names the
entries past the cap.

## Why is this bad?
Agents truncate MEMORY.md at 25,000 bytes: entries after that point are invisible.
Claude Code 2.1.210 and later refuses a memory write that would leave its MEMORY.md
over its cap, so an index over it was written by hand or by another tool.

## Example
An index of 180 lines with 200-character descriptions.

## Use instead
Shorten descriptions, merge related memories, or move detail into memory bodies.
""")

IDX009 = Rule("IDX009", "near-cap", WARNING, False, "MEMORY.md is close to a cap", """\
## What it does
Warns when an index reaches `index.warn-ratio` (default 90%) of its line or byte cap.

## Why is this bad?
The next few memories will fall past the cap, silently.

## Example
A 185-line index.

## Use instead
Consolidate now, while everything is still loaded.
""")

IDX010 = Rule("IDX010", "index-encoding", WARNING, True, "MEMORY.md has a BOM, CRLF or CR line endings or no final newline", """\
## What it does
Reports a byte-order mark, CRLF line endings, lone CR line endings (which most
tools read as one long line) or a missing final newline in MEMORY.md.

## Why is this bad?
Agents that rebuild the index write LF without BOM, so every rebuild shows as a
whole-file change; a BOM also counts against the byte cap.

## Example
An index saved by a Windows editor.

## Use instead
Run `memcheck fix`.
""")

IDX011 = Rule("IDX011", "unreadable-index", ERROR, False, "MEMORY.md cannot be read as UTF-8 text", """\
## What it does
Reports a MEMORY.md that cannot be read, is binary, is not UTF-8 or is over 1 MiB,
or is a FIFO or other special file (never opened, and never replaced by `fix`),
or is not a file memcheck reads and writes: a folder, or a symlink that points at
nothing (`memcheck fix` never writes through one). A symlink out of the repository
is `IDX014`.

## Why is this bad?
Agents cannot load it at session start.

## Example
An index saved as UTF-16.

## Use instead
Re-save it as UTF-8, or delete it and run `memcheck fix`.
""")

IDX012 = Rule("IDX012", "ignored-index", WARNING, False, "MEMORY.md is ignored by git", """\
## What it does
Reports a store's MEMORY.md that is on disk but that git ignores, while the store's
memory files are committed (added with `git add -f` into an ignored folder).

## Why is this bad?
Every other clone gets the memory files without their index, and agents there load
no MEMORY.md at session start: none of the memories is seen.

## Example
`.claude/` in `.gitignore`, `.claude/memory/*.md` committed with `git add -f`,
and `.claude/memory/MEMORY.md` written by `memcheck fix` but never added.

## Use instead
Commit it: `git add -f .claude/memory/MEMORY.md`, or stop ignoring the store's folder.
""")

IDX013 = Rule("IDX013", "index-symlink", WARNING, False, "MEMORY.md is a symlink that `memcheck fix` will not write through", """\
## What it does
Reports a store's MEMORY.md that is a symlink (to another file of the repository)
when the index has something `memcheck fix` would fix: fix never writes through a
symlink, so those findings are not fixable here.

## Why is this bad?
`memcheck fix` leaves the index as it is, and the findings stay until someone edits
the file the link points at.

## Example
`.claude/memory/MEMORY.md -> ../../docs/memory-index.md`, with a memory the index
does not list.

## Use instead
Edit the file the link points at (`memcheck index STORE` prints what fix would
write), or replace the link with a regular file and run `memcheck fix`.
""", scope=STORE)

# Security severity 7.0 (high), as for a memory that links out: an agent loads whatever the link names (the index and
# skills at start-up), nobody reviews that file, and the message says when the place is
# one where secrets are kept (~/.ssh, ~/.aws, a .env): a credential put in the agent's
# context. High, as a literal password, rather than critical: the link holds no secret.
IDX014 = Rule("IDX014", "index-symlink-outside", ERROR, False, "MEMORY.md is a symlink out of the repository", """\
## What it does
Reports a store's MEMORY.md that is a symlink to a place outside the repository,
and says when that place is one where secrets are kept (a path `memcheck guard`
stops a symlink pointing at). memcheck never follows the link, and `memcheck fix`
never writes through it or replaces it.

## Why is this bad?
Agents load the index at the start of every session, without being asked: they
follow the link and read whatever the path holds on the machine they run on.
`MEMORY.md -> /proc/self/environ` puts the machine's environment, tokens and keys
included, into every session's context. Other clones get another file there, or
none, and no index of their memories.

## Example
`.claude/memory/MEMORY.md -> /home/me/notes/MEMORY.md`

## Use instead
Make MEMORY.md a regular file in the repository: remove the link, then run
`memcheck fix` to write the index from the store's memories.
""", security_severity="7.0")

IDX015 = Rule("IDX015", "placeholder-description", WARNING, True, "Index entries carry a placeholder instead of a description", """\
## What it does
Reports an index whose entries say nothing about their memories: a placeholder
where the description goes (`---`, `TODO`, `TBD`, `...`, `N/A`), or the same text on
every entry (three or more) that is not the memories' own description. This is what
a generator leaves when it cannot read the memories' frontmatter. One finding per
index, on the first such entry, naming how many there are.

## Why is this bad?
Agents read the index to decide which memory to open; an entry that says `TODO`
tells them nothing, so they open every memory or none.

## Example
```markdown
- [Deploy](deploy.md) — TODO
- [Testing](testing.md) — TODO
```

## Use instead
Run `memcheck fix`: it fills in each memory's own `description` (or, without one, the
first sentence of its body), keeping the entry's link and separator. A memory whose
frontmatter does not parse keeps its placeholder until it does (its MEM finding
says what to fix).
""", scope=STORE)

RULES = (IDX001, IDX002, IDX003, IDX004, IDX005, IDX006, IDX007, IDX008, IDX009, IDX010, IDX011, IDX012, IDX013, IDX014, IDX015)
