"""GDN015: agents read different guidance files in one folder, and they differ."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import agents
from memcheck.agents import expansion, guidance_model, readers
from memcheck.paths import join
from memcheck.problem import TREE, WARNING, Rule
from memcheck.workspace.skills import json_file

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

GDN015 = Rule(
    "GDN015",
    "guidance-drift",
    WARNING,
    False,
    "Agents read different guidance files in one folder, and they differ",
    """\
## What it does
Reports a folder where different agents read different files whose texts differ:
Claude Code reads `CLAUDE.md` (or `.claude/CLAUDE.md`), Codex `AGENTS.override.md`
or `AGENTS.md`, Amp, Cursor and Copilot `AGENTS.md`, Gemini CLI `GEMINI.md`. The
finding is on the file fewer agents read, and names the agents on each side. Files
with the same text (or the same but for a first heading that names the file itself,
`# CLAUDE.md` atop one and `# AGENTS.md` atop the other), a symlink (`CLAUDE.md -> AGENTS.md`), and a file that an
`@`-import brings in for the agents that read it (`CLAUDE.md` holding `@AGENTS.md`:
Claude Code follows it) are one set of instructions and are not reported. An import
only counts for agents that follow imports: Codex does not, so `AGENTS.md` holding
`@CLAUDE.md` still leaves Codex without `CLAUDE.md`. A Gemini CLI extension's
context file (`contextFileName` in the folder's `gemini-extension.json`, else its
`GEMINI.md`) is the extension's instructions to the sessions of everyone who installs
it, not the folder's guidance, and is not compared: a symlink would break the
extension.

## Why is this bad?
Each agent follows different rules, and an edit to one file silently misses the
others.

## Example
`AGENTS.md` and a hand-written `CLAUDE.md` with other build commands. In `AGENTS.md`:
```markdown
# Build

Run `make`.
```
and in `CLAUDE.md`:
```markdown
# Build

Run `ninja`.
```

## Use instead
Make `CLAUDE.md` a symlink to `AGENTS.md` (`ln -s AGENTS.md CLAUDE.md`) or a file
that starts with `@AGENTS.md` and adds only what is specific to Claude Code. When
`AGENTS.md` imports `CLAUDE.md`, move the imported text into `AGENTS.md` first (a
symlink would discard `AGENTS.md`'s own text). An `AGENTS.override.md` is meant to
differ: copy into it what Codex needs, or delete it. If the files are meant to say
different things, ignore this rule for the file (`per-path-ignores`). `CLAUDE.md`:
```markdown
@AGENTS.md

Use the Claude Code hooks in `.claude/settings.json`.
```
""",
    scope=TREE,
)


def check(ws: Workspace, model: readers.Reading) -> Iterator[Problem]:
    """Where agents read different files as one folder's instructions, each is
    compared with the one most agents read (a folder holds a handful of such files: a
    bounded number of comparisons)."""
    for folder, (main, *others) in ws.once(guidance_model.folder_sides_once):
        for other in others:
            yield from _compare(ws, folder, main, other)


def _compare(ws: Workspace, folder: str, main_side: guidance_model.Side, other_side: guidance_model.Side) -> Iterator[Problem]:
    main, main_path, main_readers = main_side
    other, other_path, other_readers = other_side
    if _extension_context(ws, folder).intersection((main, other)):
        return  # the extension's instructions to its users, meant to differ (a symlink would break it)
    if main in ws.outside_links or other in ws.outside_links:
        return  # a file memcheck does not follow: its text is not known (GDN018 says so)
    if main in ws.unsure_links or other in ws.unsure_links:
        return  # maybe a symlink to the other, checked out as text: no index to tell
    if guidance_model.same_text(ws, main, other) or _same_but_their_names(ws, main, other):
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
    share = f"make {oname} a symlink to {mname}" + (
        f", or start it with @{guidance_model.import_path(other_path, main_path)} and keep only what is specific to {agents.titles(other_readers)}"
        if follows
        else ""
    )
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


def _same_but_their_names(ws: Workspace, main: str, other: str) -> bool:
    """Whether the two files say the same below a first line that is a heading naming
    the file itself (`# CLAUDE.md` atop one, `# AGENTS.md` atop the other): every
    agent gets the same instructions."""
    texts = []
    for path in (main, other):
        first, _, rest = ws.document(path).text.partition("\n")
        if first.lstrip("#").strip().casefold() != path.rpartition("/")[2].casefold() or not first.startswith("#"):
            return False
        texts.append(rest)
    return texts[0] == texts[1]


def _extension_context(ws: Workspace, folder: str) -> frozenset[str]:
    """The context files of an agent extension whose manifest is in ``folder`` (Gemini
    CLI's `gemini-extension.json`: its `contextFileName`, else GEMINI.md; the agent
    data's ``[extensions]``): loaded for everyone who installs the extension."""
    found: set[str] = set()
    for a in agents.load():
        table = a.extra.get("extensions")
        if not isinstance(table, dict) or table.get("confirmed") is not True:
            continue
        data = json_file(ws, join(folder, str(table["manifest"])))
        if data is None:
            continue
        named = data.get(str(table["context_key"])) if isinstance(data, dict) else None
        names = [named] if isinstance(named, str) else named if isinstance(named, list) else [table["default_context"]]
        found.update(join(folder, n) for n in names if isinstance(n, str))
    return frozenset(found)
