"""GDN016: Codex cuts or drops AGENTS.md text past its 32 KiB budget."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import agents
from memcheck.agents import guidance_model, readers
from memcheck.paths import basename
from memcheck.problem import ERROR, TREE, Rule

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace

GDN016 = Rule(
    "GDN016",
    "codex-budget",
    ERROR,
    False,
    "Codex cuts or drops AGENTS.md text past its 32 KiB budget",
    """\
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
```console
$ wc -c AGENTS.md packages/api/AGENTS.md
20000 AGENTS.md
15000 packages/api/AGENTS.md
35000 total
```

## Use instead
Shorten the files on the way down, or move reference material into files read on
demand (a plain link, not pasted text).
```console
$ wc -c AGENTS.md packages/api/AGENTS.md
15000 AGENTS.md
15000 packages/api/AGENTS.md
30000 total
```
""",
    scope=TREE,
)


def check(ws: Workspace, model: readers.Reading) -> Iterator[Problem]:
    if model.facts.settings_of(agents.CODEX):
        return  # the repository sets its own project_doc_* for Codex: not the default reading
    chain = guidance_model.codex_budget(ws, model)
    read, cuts, budget = chain.read, chain.cuts, readers.codex_budget()
    for folder, cut in cuts.items():
        above = chain.above(folder)
        first_dropped = (
            cut.how == readers.DROPPED and not cut.blank and (above is None or cuts[above].how not in (readers.CUT, readers.DROPPED))
        )
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
            never_read = ", ".join(below[:5]) + (f" and {len(below) - 5} more" if len(below) > 5 else "")
            dropped = f"; it never reads {never_read} below it" if below else ""
            if cut.how == readers.CUT:
                what = f"Codex keeps the first {cut.kept:,} bytes of {name} and cuts it from line {cut.line} on{dropped}"
            else:
                what = f"Codex drops {name} whole, the files above having spent the budget{dropped}"
        line = 1 if cut.how == readers.DROPPED else cut.line
        yield GDN016.at(
            model.real.get(path, path),
            line,
            1,
            f"Codex reads at most {budget:,} bytes of AGENTS.md text from the root down, and here it comes to {total}: {what}; shorten the files on the way down",
        )
