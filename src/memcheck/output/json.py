"""A JSON document: the problems, counts, and what `fix` rewrote."""
from __future__ import annotations

import json
from dataclasses import asdict
from typing import TYPE_CHECKING, Sequence, TextIO

from memcheck.output import counts, statistics
from memcheck.problem import Problem

if TYPE_CHECKING:
    from memcheck.output import ReportContext


def shown(p: Problem) -> dict[str, object]:
    found = p._asdict()
    del found["about"]  # for suppression only (see Problem)
    return found


def report(problems: Sequence[Problem], out: TextIO, ctx: ReportContext) -> None:
    if ctx.statistics:  # a list of counts per code, as ruff's --statistics --output-format json
        json.dump([asdict(c) for c in statistics(problems)], out, ensure_ascii=False, indent=2, sort_keys=True)
        out.write("\n")
        return
    errors, warnings, fixable = counts(problems)
    doc = {
        "version": 1,
        "problems": [shown(p) for p in problems],
        "summary": {"problems": len(problems), "errors": errors, "warnings": warnings, "fixable": fixable},
        "fixed": list(ctx.fixed),
    }
    if ctx.command == "fix":
        doc["changes"] = {path: ctx.changes[path] for path in ctx.fixed if path in ctx.changes}
    json.dump(doc, out, ensure_ascii=False, indent=2, sort_keys=True)
    out.write("\n")
