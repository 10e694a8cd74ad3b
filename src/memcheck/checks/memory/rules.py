"""The MEM rules: what each finds, why it matters, and what to write instead (the
text of each rule's page and of its SARIF help). The checks that report them are in
the package __init__, kept apart from this text so that either can grow."""
from __future__ import annotations

from memcheck.problem import ERROR, STORE, WARNING, Rule

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
""", scope=STORE)

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
""", scope=STORE)

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
""", scope=STORE)

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
""", scope=STORE)

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
""", scope=STORE)

# Security severity 7.0 (high): an agent loads whatever the link names (the index and
# skills at start-up), nobody reviews that file, and the message says when the place is
# one where secrets are kept (~/.ssh, ~/.aws, a .env): a credential put in the agent's
# context. High, as a literal password, rather than critical: the link holds no secret.
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
""", security_severity="7.0")

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
""", scope=STORE)

RULES = (MEM001, MEM002, MEM003, MEM004, MEM005, MEM006, MEM007, MEM008, MEM009, MEM010, MEM011, MEM012, MEM013, MEM014, MEM015, MEM016, MEM017, MEM018, MEM019, MEM021, MEM022, MEM023)
