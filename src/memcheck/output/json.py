"""A JSON document: the problems, counts, and what `fix` rewrote."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Sequence, TextIO

from memcheck.output import counts, statistics
from memcheck.problem import Problem, json_text, several

if TYPE_CHECKING:
    from memcheck.output import ReportContext


def shown(p: Problem) -> dict[str, object]:
    found = p._asdict()
    del found["about"]  # for suppression only (see Problem)
    files = several(p)
    if files:  # a finding about several files names a few in its message: here, every one
        found["files"] = sorted(files)
    return found


def report(problems: Sequence[Problem], out: TextIO, ctx: ReportContext) -> None:
    if ctx.statistics:  # a list of counts per code, as ruff's --statistics --output-format json
        out.write(json_text(json.dumps([c._asdict() for c in statistics(problems)], ensure_ascii=False, indent=2, sort_keys=True)) + "\n")
        return
    errors, warnings, fixable = counts(problems)
    summary: dict[str, object] = {"problems": len(problems), "errors": errors, "warnings": warnings, "fixable": fixable}
    if ctx.fail_on is not None:
        summary["fail_on"] = ctx.fail_on
    if ctx.checked is not None:  # what check or fix looked at, as the text summary says it
        checked = ctx.checked
        summary["checked"] = {
            "guidance": checked.guidance,
            "stores": checked.stores,
            "memories": checked.memories,
            "skills": checked.skills,
            "others": checked.others,
        }
        if checked.accepted:  # the baseline's, not listed
            summary["accepted"] = checked.accepted
        if checked.stale:  # the baseline's entries that matched nothing on a whole tree
            summary["stale_baseline_entries"] = checked.stale
    if ctx.older is not None:  # only what the change brings is listed
        summary.update(new_since=ctx.older.ref, older=ctx.older.total)
    if ctx.override is not None:  # guard's override label: whether it counts, or why not
        summary["override"] = ctx.override._asdict()
    doc: dict[str, object] = {"version": 1, "problems": [shown(p) for p in problems], "summary": summary, "fixed": list(ctx.fixed)}
    if ctx.indexes is not None:
        doc["indexes"] = list(ctx.indexes)
    if ctx.command == "fix":
        # Every index fix wrote, and those it left as they were with entries that do not fit.
        doc["changes"] = {
            path: ctx.changes[path] for path in (*ctx.fixed, *sorted(set(ctx.changes) - set(ctx.fixed))) if path in ctx.changes
        }
    # json_text: the characters json.dumps leaves raw that a terminal acts on (ESC
    # it escapes already; C1, U+2028 it does not) are escapes too.
    out.write(json_text(json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True)) + "\n")
