"""GDN: guidance files (SPEC §3, §4).

A guidance file is any file an agent loads as instructions: ``AGENTS.md`` and its
variants, ``AGENTS.override.md``, ``CLAUDE.md``, ``.claude/CLAUDE.md``,
``CLAUDE.local.md``, ``.claude/rules/**/*.md``, ``GEMINI.md``,
``.github/copilot-instructions.md``, ``.github/instructions/**/*.instructions.md``
and ``.cursor/rules/**/*.mdc``; and the instructions files whose schema is agent data
(``agentkinds``): Kiro steering and Cline rules. Who reads which, in what order, with what limits, is
``memcheck.agents``'s model; every finding that names an agent comes from it, through
the questions ``memcheck.guidance_model`` answers of it (also for `memcheck context`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

from memcheck import agentkinds, agents, expansion, guidance_kinds, guidance_model, links, readers
from memcheck.config import selected
from memcheck.expansion import Reach, imports, reach
from memcheck.paths import basename, parent
from memcheck.problem import ERROR, IMPORTS, TREE, WARNING, Problem, Rule, contained
from memcheck.text import mentions
from memcheck.text import patterns as globs
from memcheck.text.document import Document
from memcheck.text.frontmatter import frontmatter_problem, near_key, value_kind
from memcheck.workspace.agentfiles import find_agent_files
from memcheck.workspace.discover import Workspace

if TYPE_CHECKING:
    from memcheck.workspace.targets import Targets

GDN001 = Rule("GDN001", "unread-guidance", ERROR, False, "No configured agent reads this guidance file", """\
## What it does
Reports a guidance file that none of the agents in `agents:` reads (by default
every agent memcheck knows: `memcheck agents` lists them), judged per agent with
its default settings: `AGENT.md` beside `AGENTS.md` (Amp reads `AGENT.md` only in a
folder without `AGENTS.md`, and no other agent reads it), or a file only agents
outside `agents:` read (`.claude/rules` when Claude Code is not configured). A file
an agent reaches through an `@`-import of a file it reads counts as read. Where it
is not confirmed whether an agent reads a file (both `CLAUDE.md` and
`.claude/CLAUDE.md` in one folder, a case variant such as `agents.md`, an
`AGENTS.md` alone that Claude Code reads from release 2.1.277 on, a plain `.md` file
in `.cursor/rules`), nothing is reported; nor is a
file that another Markdown file of the repository cites (links to, `@`-mentions or
names by its path: a README's "see AGENT.md", a CLAUDE.md that says to follow it).
Such a file is a document in use: people and agents are pointed to it, and an agent
told to read it does.

## Why is this bad?
Nothing in the file reaches any agent, while its authors believe it does.

## Example
`AGENTS.md` and `AGENT.md` in the root, each written by hand.

## Use instead
Move what the unread file says into the file the agents read, and delete it; or,
if the repository also serves an agent that reads it, add that agent to `agents:`
(the message names such agents as an option). A `CLAUDE.md` over 4 MiB, which
Claude Code skips: shorten it.
""", scope=TREE)

GDN002 = Rule("GDN002", "case-collision", ERROR, False, "Guidance file names differ only by case", """\
## What it does
Reports guidance files or skills whose paths are equal when case is ignored
(`AGENTS.md` and `agents.md`, `Docs/AGENTS.md` and `docs/AGENTS.md`).

## Why is this bad?
macOS and Windows check them out into one file: one silently overwrites the other.

## Example
`AGENTS.md` and `Agents.md` in the same folder.

## Use instead
Merge them into one file with one name.
""", scope=TREE)

GDN003 = Rule("GDN003", "unreadable-guidance", ERROR, False, "Guidance file cannot be read: unreadable, binary, not UTF-8 or over 1 MiB", """\
## What it does
Reports a guidance file that cannot be read, is binary, is not UTF-8 or is over 1 MiB,
or that exhausts memcheck's stack or memory while it is checked.

## Why is this bad?
Agents read guidance as UTF-8 Markdown; anything else is skipped or garbled.

## Example
`AGENTS.md` saved as UTF-16.

## Use instead
Re-save it as UTF-8.
""")

GDN004 = Rule("GDN004", "invalid-frontmatter", ERROR, False, "Guidance frontmatter cannot be parsed", """\
## What it does
Reports guidance frontmatter that is never closed, is not valid YAML, is not a
mapping, or repeats a key; or that is past memcheck's bounds (more than 64 levels of
nesting, more than 20,000 values or 2,097,152 characters with aliases expanded, a
recursive alias).

## Why is this bad?
Agents that parse the frontmatter (for `globs` and `alwaysApply`) either fail or
read the file as applying everywhere.

## Example
```markdown
---
description: API rules: routes and handlers
---
```

## Use instead
```markdown
---
description: "API rules: routes and handlers"
---
```
""")

GDN005 = Rule("GDN005", "frontmatter-type", ERROR, False, "Guidance frontmatter value has the wrong type or value", """\
## What it does
Checks each kind's frontmatter schema. `AGENTS.md`, its variants and `CLAUDE.md`:
`description` a string, `alwaysApply` a boolean, `globs` a list of strings (`!`
excludes). Cursor rules (`.cursor/rules/*.mdc`): `description` a string,
`alwaysApply` a boolean, `globs` a list or one comma-separated string. Claude Code
rules (`.claude/rules/*.md`): `paths` a list or one comma-separated string. Copilot
instructions (`*.instructions.md`): `applyTo` a comma-separated string (or a list),
`excludeAgent` `code-review` or `coding-agent`.

## Why is this bad?
`alwaysApply: "yes"` is a string, not `true`: a strict reader rejects it and a loose
one treats every non-empty string, even `"false"`, as true. A `globs` string is read
character by character by readers that expect a list.

## Example
```yaml
alwaysApply: "yes"
globs: src/**/*.ts
```

## Use instead
```yaml
alwaysApply: true
globs:
  - "src/**/*.ts"
```
""")

GDN006 = Rule("GDN006", "unknown-frontmatter-key", WARNING, False, "Guidance frontmatter key looks like a misspelt known key", """\
## What it does
Reports a frontmatter key that is not in its kind's schema but looks like a key
that is: equal to one when case, `-` and `_` are ignored (`alwaysapply`,
`apply_to`), or close to one by `difflib.SequenceMatcher` (ratio 0.8 or more after
that normalisation: `glob`, `path`, `descripton`). Other keys (`updated`, `owner`,
`generation`, ...) are the team's own and are not reported, nor are keys in
`guidance.allowed-keys`. The schemas: `AGENTS.md` and its variants `description`,
`alwaysApply`, `globs`; Claude Code rules `paths`; Copilot instructions `applyTo`,
`excludeAgent`; Cursor rules `description`, `globs`, `alwaysApply`.

## Why is this bad?
Keys are matched exactly: the misspelt setting is ignored and the real one keeps
its default (`alwaysapply: true` leaves the file applying only by its globs).

## Example
```yaml
glob: ["src/**"]
```

## Use instead
```yaml
globs: ["src/**"]
```
""")

GDN007 = Rule("GDN007", "invalid-glob", ERROR, False, "A globs pattern is not a valid glob", """\
## What it does
Reports a `globs`, `paths` or `applyTo` pattern that is empty or a lone `!`, has
unbalanced `[` `]` or `{` `}`, `***`, an empty range (`[z-a]`), or stands for more
than 1,000 patterns once its `{...}` are spelled out (Claude Code expands at most
1,000).

## Why is this bad?
Glob libraries reject such patterns or match nothing, so the guidance never applies.

## Example
```yaml
globs: ["src/[a-z*.ts"]
```

## Use instead
```yaml
globs: ["src/[a-z]*.ts"]
```
""")

GDN008 = Rule("GDN008", "glob-matches-nothing", WARNING, False, "A globs pattern matches no file here", """\
## What it does
Reports a `globs` (AGENTS.md, Cursor rules), `paths` (Claude Code rules) or
`applyTo` (Copilot instructions) pattern that names no file or folder of the
checkout, tried from the repository root, from the file's own folder, and, for a
pattern without `/`, as a file name at any depth. Every file counts, ignored and
untracked ones too: a workspace that clones its child repositories into a
git-ignored folder has rules for their files. An exclusion (`!pattern`) that
matches nothing excludes nothing and is not reported.

## Why is this bad?
The file applies to the files its patterns match: a pattern that matches nothing is
a typo or a leftover from a move, and the file never loads for those files.

## Example
```yaml
globs: ["scr/**/*.ts"]
```

## Use instead
```yaml
globs: ["src/**/*.ts"]
```
""")

GDN009 = Rule("GDN009", "missing-import", ERROR, False, "@-import names a file that does not exist", """\
## What it does
Reports an `@path` import (a token with a file extension, or starting with
`./`, `../` or `/`) whose file does not exist, or is a FIFO or other special file
no agent can read, resolved from the importing file's folder, in files read by an
agent that follows `@` imports (Claude Code, Gemini CLI, Amp) and in every file
their imports bring in (reported once, on the file that holds the import, however
many files import it). Mentions in code spans, fenced blocks and HTML comments,
e-mail addresses, package scopes (`@types/node`) and bare words (`@id`) are not
imports.
A glob mention (`@docs/*.md`, which Amp expands) is reported when no file of the
checkout matches it, ignored and untracked ones included.

## Why is this bad?
Agents expand imports into the prompt; a missing one is silently left as text, and
the rules it held never reach the agent.

## Example
```markdown
See @docs/missing-guide.md for the release process.
```

## Use instead
Fix the path, or put the text in backticks if it is not meant as an import.
""", scope=IMPORTS)

GDN010 = Rule("GDN010", "import-escapes-repository", WARNING, False, "@-import points outside the repository", """\
## What it does
Reports an `@` import of an absolute path or one that climbs above the repository
root with `..`. `@~/…` imports are the user's own files and are not reported.

## Why is this bad?
No other clone has the file: the agent gets the import on the author's machine only.

## Example
```markdown
@../../shared/rules.md
```

## Use instead
Copy the rules into the repository, or import them from `@~/…` deliberately.
""", scope=IMPORTS)

GDN011 = Rule("GDN011", "import-cycle", ERROR, False, "@-imports form a cycle", """\
## What it does
Reports a guidance file whose imports lead back to itself (`AGENTS.md` imports
`docs/rules.md`, which imports `AGENTS.md`).

## Why is this bad?
Agents stop at the repeat (or at the depth limit), so part of the chain is loaded
twice or not at all, depending on the tool.

## Example
`CLAUDE.md` with `@AGENTS.md` and `AGENTS.md` with `@CLAUDE.md`.

## Use instead
Import in one direction only.
""", scope=IMPORTS)

GDN012 = Rule("GDN012", "import-too-deep", ERROR, False, "@-import chain is deeper than the reading agent follows", """\
## What it does
Reports an `@` import chain longer than the agent that reads the file follows:
Claude Code follows 4 hops from a `CLAUDE.md`, `.claude/CLAUDE.md`,
`CLAUDE.local.md` or rule; Gemini CLI 5 from a `GEMINI.md`. It names the agent and
the file it never loads. `guidance.max-import-depth`, when set, is a house limit
for every guidance file.

## Why is this bad?
The agent stops expanding at its limit: files further down are never read.

## Example
`CLAUDE.md` → `a.md` → `b.md` → `c.md` → `d.md` → `e.md`.

## Use instead
Import the deep files directly from the guidance file.
""", scope=IMPORTS)

GDN013 = Rule("GDN013", "broken-link", WARNING, False, "Relative Markdown link points at a missing file", """\
## What it does
Reports `[text](path)` links, images and reference definitions with a relative
target that does not exist, resolved from the file's folder (outside code).
Definitions are read as CommonMark reads them: a `[text]: more` line inside a
paragraph is text, and so is one with more than a target and a title.

## Why is this bad?
Agents follow these links to read more; a dead link sends them looking for a file
that is gone, often after a rename.

## Example
```markdown
See [the API guide](docs/api.md).
```

## Use instead
Point the link at the file's current path, or remove it.
""")

GDN014 = Rule("GDN014", "over-budget", WARNING, False, "Guidance file is over its size budget", """\
## What it does
Warns when a guidance file has more lines than `guidance.max-lines` (500) or more
bytes than `guidance.max-bytes` (40,000), or when it and its imports come to more
than `guidance.max-tokens` (10,000) approximate tokens (bytes / 4).

## Why is this bad?
Guidance is loaded into every session: a long file crowds out the task, and
agents follow short, specific rules better than long ones.

## Example
A 900-line AGENTS.md that pastes the whole API reference.

## Use instead
Keep the rules short; move reference material into files the agent reads on demand
(a plain link, not an `@` import).
""", scope=IMPORTS)

GDN015 = Rule("GDN015", "guidance-drift", WARNING, False, "Agents read different guidance files in one folder, and they differ", """\
## What it does
Reports a folder where different agents read different files whose texts differ:
Claude Code reads `CLAUDE.md` (or `.claude/CLAUDE.md`), Codex `AGENTS.override.md`
or `AGENTS.md`, Amp, Cursor and Copilot `AGENTS.md`, Gemini CLI `GEMINI.md`. The
finding is on the file fewer agents read, and names the agents on each side. Files
with the same text, a symlink (`CLAUDE.md -> AGENTS.md`), and a file that an
`@`-import brings in for the agents that read it (`CLAUDE.md` holding `@AGENTS.md`:
Claude Code follows it) are one set of instructions and are not reported. An import
only counts for agents that follow imports: Codex does not, so `AGENTS.md` holding
`@CLAUDE.md` still leaves Codex without `CLAUDE.md`.

## Why is this bad?
Each agent follows different rules, and an edit to one file silently misses the
others.

## Example
`AGENTS.md` and a hand-written `CLAUDE.md` with other build commands.

## Use instead
Make `CLAUDE.md` a symlink to `AGENTS.md` (`ln -s AGENTS.md CLAUDE.md`) or a file
that starts with `@AGENTS.md` and adds only what is specific to Claude Code. When
`AGENTS.md` imports `CLAUDE.md`, move the imported text into `AGENTS.md` first (a
symlink would discard `AGENTS.md`'s own text). An `AGENTS.override.md` is meant to
differ: copy into it what Codex needs, or delete it. If the files are meant to say
different things, ignore this rule for the file (`per-path-ignores`).
""", scope=TREE)

GDN016 = Rule("GDN016", "codex-budget", ERROR, False, "Codex cuts or drops AGENTS.md text past its 32 KiB budget", """\
## What it does
Codex reads at most 32 KiB (32,768 bytes, `project_doc_max_bytes`) of project
`AGENTS.md` text (one `AGENTS.override.md` or `AGENTS.md` per folder, from the
repository root down to the working folder, blank files skipped): the file that
crosses the budget is cut at it, and every file after it is dropped. The bytes of
the files count; the blank lines Codex puts between them do not. When the part of
the crossing file that fits is blank, Codex skips that file whole without spending
the budget and goes on with the next. This rule reports the file where the total
from the root crosses the budget, with where it is cut and which files below it
Codex never reads.

## Why is this bad?
Codex gives no sign: the end of the crossing file, and every deeper `AGENTS.md`,
are simply not in its prompt.

## Example
A root `AGENTS.md` of 20,000 bytes and `packages/api/AGENTS.md` of 15,000.

## Use instead
Shorten the files on the way down, or move reference material into files read on
demand (a plain link, not pasted text).
""", scope=TREE)

GDN017 = Rule("GDN017", "copilot-review-limit", WARNING, False, "Copilot code review reads only the first 4,000 characters", """\
## What it does
Reports `.github/copilot-instructions.md` and `.github/instructions/*.instructions.md`
files longer than 4,000 characters, unless they say `excludeAgent: code-review`,
naming the line from which Copilot code review no longer reads them, and which
other Copilot agents read the whole file (`excludeAgent: coding-agent` keeps the
coding agent out).

## Why is this bad?
Copilot code review reads only the first 4,000 characters of each instructions
file; rules past that point reach Copilot chat and the coding agent but never the
review.

## Example
A 9,000-character `copilot-instructions.md` whose review checklist is at the end.

## Use instead
Put what review must check first, or move it into a short path-specific
`.instructions.md` file.
""", scope=IMPORTS)

GDN018 = Rule("GDN018", "guidance-symlink-outside", WARNING, False, "Guidance file is a symlink out of the repository", """\
## What it does
Reports a guidance file (`CLAUDE.md`, `AGENTS.md`, ...) that is a symlink to a file
outside the repository, naming the agents that read it. memcheck never follows a
symlink out of the repository, so nothing in that file is checked.

## Why is this bad?
Agents follow the link and load whatever the path holds on each machine: other
clones may have another file there, or none, and no check sees what it says.

## Example
`CLAUDE.md -> /home/me/dotfiles/CLAUDE.md`

## Use instead
Keep the file in the repository (copy it in), or link to a file inside it.
""")

GDN019 = Rule("GDN019", "loads-nothing", WARNING, False, "Instructions file the agent loads nothing from", """\
## What it does
Reports a guidance, rule, instructions or steering file with no text (or only
frontmatter), a Copilot `.instructions.md` without `applyTo`, and a Kiro steering
file with `inclusion: fileMatch` but no `fileMatchPattern`.

## Why is this bad?
The agent loads nothing from an empty file, and applies one without its pattern to
no file: the instructions are never read.

## Example
`inclusion: fileMatch` alone.

## Use instead
`inclusion: fileMatch` and `fileMatchPattern: "src/**/*.ts"`.
""")

RULES = (GDN001, GDN002, GDN003, GDN004, GDN005, GDN006, GDN007, GDN008, GDN009, GDN010, GDN011, GDN012, GDN013, GDN014, GDN015, GDN016, GDN017, GDN018, GDN019)
_BY_WHAT = {"empty": GDN019, "missing": GDN019, "type": GDN005, "value": GDN005, "quoted": GDN005, "tool": GDN005, "glob-invalid": GDN007, "glob-dead": GDN008}


# ---------------------------------------------------------------- checks


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    yield from _check_kind_files(ws, targets.kind_files)
    wanted = set(targets.guidance)
    if not wanted:
        return
    if not ws.user:
        # Worked out once per run (a hook run may ask for some guidance files only).
        for problem in ws.once(tree_findings_once):
            if problem.path in wanted:
                yield problem
    for path in sorted(wanted):
        yield from contained(GDN003, path, check_file(ws, ws.document(path)))


def _check_kind_files(ws: Workspace, paths: Sequence[str]) -> Iterator[Problem]:
    kinds = {p: agentkinds.by_id(k) for p, k in find_agent_files(ws).kinds.items()} if paths else {}
    for path in sorted(p for p in paths if p in kinds and kinds[p].role == "guidance"):  # Kiro steering, Cline rules
        yield from contained(GDN003, path, _kind_findings(ws, kinds[path], ws.document(path), None))


def _kind_findings(ws: Workspace, kind: agentkinds.Kind | None, doc: Document, only: set[str] | None) -> Iterator[Problem]:
    """A file only the agent data knows (``only`` None), or what it adds to a guidance file."""
    if only is None and doc.error is not None:
        yield GDN003.at(doc.path, doc.error_line, 1, f"{basename(doc.path)} {doc.error}")
        return
    if only is None and kind is not None and (trouble := guidance_kinds.unparsable(kind, doc)) is not None:
        yield GDN004.at(doc.path, trouble.line, 1, trouble.message)._replace(severity=WARNING if trouble.fails_open else ERROR)
    for issue in guidance_kinds.file_issues(ws, kind, doc, not ws.user and ws.wants(GDN008.code)):
        if only is None or issue.what in only:
            yield _BY_WHAT[issue.what].at(doc.path, issue.line, 1, issue.message)
    if only is None:
        yield from _check_links(ws, doc)


def tree_findings_once(ws: Workspace) -> list[Problem]:
    return list(_tree_findings(ws))


def _tree_findings(ws: Workspace) -> Iterator[Problem]:
    """Findings about files together: who reads what (GDN001, GDN015), Codex's
    budget down each chain (GDN016), names that collide by case (GDN002)."""
    on = selected((GDN001.code, GDN015.code, GDN016.code), ws.config)
    if on:
        model = readers.reading(ws)
        if GDN001.code in on:
            yield from _unread(ws, model)
        if GDN015.code in on:
            yield from _drift(ws, model)
        if GDN016.code in on and agents.CODEX in model.configured:
            yield from _codex_budget(ws, model)
    for path, first in guidance_model.case_collisions(ws):
        yield GDN002.at(path, 1, 1, f"{path} and {first} differ only by case and collide on macOS and Windows checkouts; merge them into one file")


def _unread(ws: Workspace, model: readers.Reading) -> Iterator[Problem]:
    configured = model.configured
    by_folder: dict[str, list[str]] | None = None  # made at the first file that needs it
    unread = ws.once(guidance_model.unread_once)
    # A file other files cite (README's "see AGENT.md", a link from CLAUDE.md) is a
    # document in use, not stray instructions: deleting it would break those citations,
    # and an agent told to read it does.
    in_use = guidance_model.cited(ws, unread)
    for real in unread:
        names = model.names_of(real)
        name = basename(real)
        # Only the configured agents are spoken of; an agent outside `agents:` that
        # reads the file is named only in the plainly optional advice to add it.
        reasons = dict.fromkeys(why for p in names if p in model.direct for a in configured if (why := model.direct[p][a][1]))
        silent = [a for a in configured if not any(model.direct[p][a][1] for p in names if p in model.direct)]
        said = "; ".join(reasons)
        if silent:
            said += (", and " if said else "") + f"{agents.titles(silent)} {'does' if len(silent) == 1 else 'do'} not read it"
        if any(agents.CLAUDE_CODE in model.too_big.get(p, ()) for p in names) and agents.CLAUDE_CODE in configured:
            fix = "shorten it below 4 MiB"
        elif real in in_use:
            continue
        else:
            by_folder = by_folder if by_folder is not None else guidance_model.folder_files(model)
            into = guidance_model.read_beside(model, real, by_folder)
            fix = f"move what it says into {into}, and delete it" if into else f"move what it says into a file {agents.titles(configured)} {'reads' if len(configured) == 1 else 'read'}, and delete it"
        others = [a for a in agents.ALL if a not in configured and model.state(a, real) == agents.READS]
        if others:
            fix += f"; or, if this repository also serves {agents.titles(others)}, add {', '.join(others)} to agents:"
        yield GDN001.at(real, 1, 1, f"no configured agent reads {name}: {said}; {fix}")


def _drift(ws: Workspace, model: readers.Reading) -> Iterator[Problem]:
    """Where agents read different files as one folder's instructions, each is
    compared with the one most agents read (a folder holds a handful of such files: a
    bounded number of comparisons)."""
    for folder, (main, *others) in ws.once(guidance_model.folder_sides_once):
        for other in others:
            yield from _compare(ws, folder, main, other)


def _compare(ws: Workspace, folder: str, main_side: guidance_model.Side, other_side: guidance_model.Side) -> Iterator[Problem]:
    main, main_path, main_readers = main_side
    other, other_path, other_readers = other_side
    if main in ws.outside_links or other in ws.outside_links:
        return  # a file memcheck does not follow: its text is not known (GDN018 says so)
    if main in ws.unsure_links or other in ws.unsure_links:
        return  # maybe a symlink to the other, checked out as text: no index to tell
    if guidance_model.same_text(ws, main, other):
        return
    # An agent shares the other file's instructions when an @-import it follows brings
    # that file in; one side sharing the other's is one set of instructions. Only
    # agents confirmed NOT to get the other file are named.
    main_gets = {a: readers.gets(ws, a, main, other) for a in main_readers}
    other_gets = {a: readers.gets(ws, a, other, main) for a in other_readers}
    if all(v == agents.READS for v in other_gets.values()) or all(v == agents.READS for v in main_gets.values()):
        return
    main_short = [a for a, v in main_gets.items() if v == agents.NO]
    other_short = [a for a, v in other_gets.items() if v == agents.NO]
    if not main_short or not other_short:
        return
    mname, oname = readers.name_in(folder, main_path), readers.name_in(folder, other_path)
    model = readers.reading(ws)
    note = ""
    nofollow = [a for a in main_short if agents.agent(a).follows_imports == agents.NO]
    imported = bool(nofollow) and other in expansion.import_targets(ws, main)
    if imported:
        note = f" ({mname} imports @{guidance_model.import_path(main_path, other_path)}, but {agents.titles(nofollow)} {'does' if len(nofollow) == 1 else 'do'} not follow @-imports)"
    override = next(((n, p) for n, p in ((oname, other), (mname, main)) if model.kind.get(p) == agents.K_OVERRIDE), None)
    if override is not None and readers.is_blank(ws.document(override[1])):
        note += f" ({override[0]} is blank: Codex gets nothing from this folder)"
    follows = all(agents.agent(a).follows_imports == agents.READS for a in other_readers)
    share = f"make {oname} a symlink to {mname}" + (f", or start it with @{guidance_model.import_path(other_path, main_path)} and keep only what is specific to {agents.titles(other_readers)}" if follows else "")
    if override is not None:
        # An override exists to differ: never advise making it the file it overrides.
        name, path = override
        beside, beside_path = (mname, main) if path == other else (oname, other)
        delete = f"delete {name} or " if model.kind.get(beside_path) == agents.K_AGENTS else ""  # then Codex reads that AGENTS.md
        fix = f"if Codex should follow {beside} too, {delete}copy what Codex needs into {name} (Codex follows no @-imports); if the override is meant to differ, ignore this rule for it (per-path-ignores)"
    elif imported:
        # The importing file has text of its own: a symlink to the other would discard it.
        fix = f"if they should say the same, put what {oname} says into {mname} in place of the import, then {share}"
    else:
        fix = f"if they should say the same, {share}"
    verb_o = "reads" if len(other_short) == 1 else "read"
    verb_m = "reads" if len(main_short) == 1 else "read"
    yield GDN015.at(
        other,
        1,
        1,
        f"{oname} and {mname} differ: {agents.titles(other_short)} {verb_o} {oname} and not {mname}, while {agents.titles(main_short)} {verb_m} {mname} and not {oname}{note}; {fix}",
    )


def _codex_budget(ws: Workspace, model: readers.Reading) -> Iterator[Problem]:
    if model.facts.settings_of(agents.CODEX):
        return  # the repository sets its own project_doc_* for Codex: not the default reading
    chain = guidance_model.codex_budget(ws, model)
    read, cuts, budget = chain.read, chain.cuts, readers.codex_budget()
    for folder, cut in cuts.items():
        above = chain.above(folder)
        first_dropped = cut.how == readers.DROPPED and not cut.blank and (above is None or cuts[above].how not in (readers.CUT, readers.DROPPED))
        if cut.how not in (readers.CUT, readers.CUT_BLANK) and not first_dropped:
            continue
        path, name = read[folder], basename(read[folder])
        total = f"{cut.spent:,} bytes above it plus {cut.size:,} of its own" if cut.spent else f"{cut.size:,} bytes"
        if cut.how == readers.CUT_BLANK:
            what = f"the {budget - cut.spent:,} bytes of {name} that fit are blank, so Codex skips the whole file and goes on with them left for the files below"
        else:
            # Below a file cut or dropped the budget is spent: every file there is dropped.
            # Those ranges do not overlap, so each folder is listed once over all findings.
            below = chain.below(folder)
            shown = ", ".join(below[:5]) + (f" and {len(below) - 5} more" if len(below) > 5 else "")
            dropped = f"; it never reads {shown} below it" if below else ""
            if cut.how == readers.CUT:
                what = f"Codex keeps the first {cut.kept:,} bytes of {name} and cuts it from line {cut.line} on{dropped}"
            else:
                what = f"Codex drops {name} whole, the files above having spent the budget{dropped}"
        line = 1 if cut.how == readers.DROPPED else cut.line
        yield GDN016.at(model.real.get(path, path), line, 1, f"Codex reads at most {budget:,} bytes of AGENTS.md text from the root down, and here it comes to {total}: {what}; shorten the files on the way down")


def check_file(ws: Workspace, doc: Document) -> Iterator[Problem]:
    path = doc.path
    kind = guidance_model.file_kind(ws, path)
    if path in ws.outside_links:
        yield GDN018.at(path, 1, 1, guidance_model.outside_link_message(ws, path))
        return
    if doc.error is not None:
        yield GDN003.at(path, doc.error_line, 1, f"{basename(path)} {doc.error}{guidance_model.claude_skips(ws, doc, kind)}")
        return
    schema = agents.schema_of(kind) if kind is not None else None
    if schema is not None:
        yield from _check_frontmatter(ws, doc, schema, kind or "")
    # An empty AGENTS.override.md still hides its folder's AGENTS.md from Codex: not empty for nothing.
    yield from _kind_findings(ws, agentkinds.kind_of_path(path, "guidance"), doc, {"missing"} if kind == agents.K_OVERRIDE else {"empty", "missing"})
    read_by = guidance_model.readers(ws, path)
    reached, followed = guidance_model.followed_imports(ws, path, read_by)
    if followed:
        yield from _check_imports(ws, doc, reached, read_by)
    yield from _check_links(ws, doc)
    yield from _check_size(ws, doc, reached, ws.config.guidance.max_import_depth or guidance_model.BUDGET_DEPTH)
    if kind in (agents.K_COPILOT, agents.K_COPILOT_PATH) and read_by.get(agents.COPILOT) == agents.READS:
        yield from _check_copilot_review(doc)


def _check_frontmatter(ws: Workspace, doc: Document, schema: agents.Frontmatter, kind: str) -> Iterator[Problem]:
    path = doc.path
    trouble = frontmatter_problem(doc)
    fm = doc.frontmatter
    if trouble is not None:
        # Cursor takes `key: value` lines that strict YAML rejects (its own editor writes
        # `globs: *.ts`): only frontmatter that no reading makes sense of is reported.
        if not (schema.lenient and fm is not None and fm.fallback and not fm.duplicates):
            yield GDN004.at(path, trouble[0], 1, trouble[1])
            return
    if fm is None:
        return
    data = fm.data

    def line_of(key: str) -> int:
        return fm.key_lines.get(key, 1)

    allowed = set(schema.keys) | set(ws.config.guidance.allowed_keys)
    for key in sorted(str(k) for k in data if k not in allowed):
        near = near_key(schema.keys)(key)  # one set of matchers per schema, not per file
        if near is not None:
            yield GDN006.at(path, line_of(key), 1, f"frontmatter key {key!r} looks like a misspelling of {near!r}: keys are matched exactly, so this setting is ignored; rename it to {near} (or add {key} to guidance.allowed-keys)")
    if "description" in schema.keys and "description" in data and not isinstance(data["description"], str) and data["description"] is not None:
        yield GDN005.at(path, line_of("description"), 1, f"description is a {value_kind(data['description'])}; write it as one line of text")
    if "alwaysApply" in schema.keys and "alwaysApply" in data:
        value = data["alwaysApply"]
        lenient_ok = schema.lenient and fm.fallback and isinstance(value, str) and value.strip().lower() in ("true", "false")
        if not isinstance(value, bool) and not lenient_ok:
            hint = f"write alwaysApply: {str(value).strip().lower() in ('yes', 'true', 'on', '1')} (a YAML boolean, unquoted)".replace("True", "true").replace("False", "false")
            yield GDN005.at(path, line_of("alwaysApply"), 1, f"alwaysApply is the {value_kind(value)} {value!r}, not a boolean; {hint}")
    if "excludeAgent" in schema.keys and "excludeAgent" in data:
        value = data["excludeAgent"]
        if not isinstance(value, str) or value.strip() not in agents.words(agents.COPILOT, "exclude_agent") + agents.words(agents.COPILOT, "exclude_agent_unconfirmed"):
            yield GDN005.at(path, line_of("excludeAgent"), 1, f"excludeAgent is {value!r}; Copilot knows code-review and coding-agent")
    if schema.globs_key is not None:
        yield from _check_globs(ws, doc, schema, kind, line_of(schema.globs_key))


def _check_globs(ws: Workspace, doc: Document, schema: agents.Frontmatter, kind: str, line: int) -> Iterator[Problem]:
    fm = doc.frontmatter
    assert fm is not None and schema.globs_key is not None
    key, path = schema.globs_key, doc.path
    value = fm.data.get(key)
    if value is None:
        return
    patterns: list[str] = []
    if isinstance(value, str) and schema.globs_form != "list":
        patterns = globs.split_list(value)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, str):
                patterns.append(item)
            else:
                yield GDN005.at(path, line, 1, f"{key} holds the {value_kind(item)} {item!r}; every pattern must be a string")
    else:
        form = "a list of patterns (globs: [\"src/**/*.ts\"])" if schema.globs_form == "list" else "a list of patterns or one comma-separated string"
        yield GDN005.at(path, line, 1, f"{key} is a {value_kind(value)}; write it as {form}")
        return
    owner = agents.owner_of(path, kind)
    folder = parent(path) if kind in agents.folder_kinds() else owner
    for broken in guidance_kinds.broken_patterns(ws, patterns, folder, not ws.user and ws.wants(GDN008.code)):
        if broken.bad is not None:
            yield GDN007.at(path, line, 1, f"glob {broken.pattern!r} {broken.bad}")
        else:
            yield GDN008.at(path, line, 1, f"{key} pattern {broken.pattern!r}: no file here matches it (ignored files included), so this file never applies by it; fix the pattern or remove it")


def _guidance_set(ws: Workspace) -> frozenset[str]:
    return frozenset(ws.guidance)


def _check_imports(ws: Workspace, doc: Document, reached: Reach, read_by: dict[str, int]) -> Iterator[Problem]:
    path = doc.path
    for imp in imports(ws, doc):
        if imp.kind in (mentions.ABSOLUTE, mentions.OUTSIDE):
            yield GDN010.at(path, imp.line, imp.col, f"@{imp.token} points outside the repository, so other clones do not have it; move the file into the repository or import it from @~/ deliberately")
        elif expansion.is_glob_mention(imp):
            if not ws.user and not guidance_model.glob_matches(ws, imp.target):
                yield GDN009.at(path, imp.line, imp.col, f"@{imp.token}: no file here matches it; fix the pattern, or put it in backticks if it is not an import")
        elif imp.kind == mentions.PATH and not ws.exists(imp.target):
            if ws.is_inside_root(imp.target):  # through a symlink out of the repository: not followed, so not known
                yield _missing_import(path, imp)
        elif imp.kind == mentions.PATH and (special := ws.special_kind(imp.target)) is not None:
            yield GDN009.at(path, imp.line, imp.col, f"@{imp.token} imports {imp.target}, which is {special}, not a file agents can read; import a regular file")
    # A file reached by imports is loaded with this one: its missing imports are
    # reported on it, once however many files import it (the same finding).
    for where, imp in reached.missing:
        if where != path:
            yield _missing_import(where, imp)
    guidance = ws.once(_guidance_set)  # not a set per file: that is quadratic
    reported: set[frozenset[str]] = set()
    for hop, cycle in reached.cycles:
        members = frozenset(cycle)
        # A cycle through other guidance files is reported on them; this file only
        # reports cycles it is part of, or ones no guidance file owns.
        if members in reported or (path not in members and members & guidance):
            continue
        reported.add(members)
        yield GDN011.at(path, hop.line, hop.col, f"import cycle {' -> '.join(cycle)}; import in one direction only")
    yield from _check_depth(ws, doc, read_by)


def _missing_import(path: str, imp: expansion.Import) -> Problem:
    return GDN009.at(path, imp.line, imp.col, f"@{imp.token} imports {imp.target}, which does not exist; fix the path, or put it in backticks if it is not an import")


def _check_depth(ws: Workspace, doc: Document, read_by: dict[str, int]) -> Iterator[Problem]:
    path = doc.path
    roots = guidance_model.reads_as_root(ws, path, read_by)
    for agent in ws.config.agents:
        facts = agents.agent(agent)
        depth = facts.import_depth
        if depth is None or facts.follows_imports == agents.NO or agent not in roots:
            continue
        for hop, chain in _never_loaded(reach(ws, path, depth))[:1]:
            yield GDN012.at(path, hop.line, hop.col, f"import chain {' -> '.join(chain)} is {len(chain) - 1} hops deep, and {agents.title(agent)} follows {depth}, so it never loads {chain[-1]}; import it from a shallower file")
    house = ws.config.guidance.max_import_depth
    if house is not None:
        for hop, chain in _never_loaded(reach(ws, path, house))[:1]:
            yield GDN012.at(path, hop.line, hop.col, f"import chain {' -> '.join(chain)} is {len(chain) - 1} hops deep, over guidance.max-import-depth {house}; import {chain[-1]} from a shallower file")


def _never_loaded(reached: Reach) -> list[tuple[expansion.Import, tuple[str, ...]]]:
    # A file too deep down one chain that a shorter chain (a direct import) loads is
    # loaded all the same: only the others are never loaded.
    return [(hop, chain) for hop, chain in reached.too_deep if chain[-1] not in reached.visited()]


def _check_links(ws: Workspace, doc: Document) -> Iterator[Problem]:
    for line, col, message in links.dead_links(ws, doc):
        yield GDN013.at(doc.path, line, col, message)


def _check_size(ws: Workspace, doc: Document, reached: Reach, depth: int) -> Iterator[Problem]:
    cfg = ws.config.guidance
    path = doc.path
    lines = len(doc.lines) - (1 if doc.text.endswith("\n") else 0)
    if lines > cfg.max_lines:
        yield GDN014.at(path, cfg.max_lines + 1, 1, f"{basename(path)} has {lines} lines, over guidance.max-lines {cfg.max_lines}; move reference material into files read on demand")
    if doc.size > cfg.max_bytes:
        yield GDN014.at(path, 1, 1, f"{basename(path)} is {doc.size} bytes, over guidance.max-bytes {cfg.max_bytes}; move reference material into files read on demand")
    files, tokens = reached.loaded(depth)
    if tokens > cfg.max_tokens:
        with_imports = f" with its {files - 1} import(s)" if files > 1 else ""
        yield GDN014.at(path, 1, 1, f"{basename(path)}{with_imports} loads about {tokens} tokens, over guidance.max-tokens {cfg.max_tokens}; shorten it or turn @-imports into plain links")


def _check_copilot_review(doc: Document) -> Iterator[Problem]:
    cut = guidance_model.copilot_review_cut(doc)
    if cut is None:
        return
    line, others = cut
    limit = agents.number(agents.COPILOT, 'review_chars')
    yield GDN017.at(doc.path, line, 1, f"Copilot code review reads only the first {limit:,} characters of this file, which has {len(doc.text):,}: from line {line} on, review never sees it ({others}); put what review must check first, or shorten the file")
