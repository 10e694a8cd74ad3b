"""``path:line:col: CODE message``, then a summary line.

A message quotes keys, values and paths from the files checked: it is printed with
its control characters escaped (``problem.escaped``) and each path through
``problem.shown``, here rather than in each rule, so no rule can forget it and no
file can drive the terminal or the CI log that shows the report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, TextIO

from memcheck.output import BASELINE_FILE, Checked, Older, counts, statistics
from memcheck.problem import Problem, escaped, shown

if TYPE_CHECKING:
    from memcheck.output import FixRecord, ReportContext

_RED, _YELLOW, _BOLD, _DIM, _RESET = "\033[31m", "\033[33m", "\033[1m", "\033[2m", "\033[0m"


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def summary(problems: Sequence[Problem], older: Older | None = None, checked: Checked | None = None) -> str:
    """The closing line: what was found (and, for check and fix, in what), or that
    there was nothing to check."""
    if checked is not None and checked.nothing() and not problems:
        return NOTHING_TO_CHECK[checked.scope]
    since = "" if older is None else f" new since {escaped(older.ref)}"
    looked_at = "" if checked is None or checked.nothing() else f" in {what_was_checked(checked)}"
    if not problems:
        line = f"No problems found{since}{looked_at}"
    else:
        errors, warnings, fixable = counts(problems)
        line = f"Found {_plural(len(problems), 'problem')} ({_plural(errors, 'error')}, {_plural(warnings, 'warning')}){since}{looked_at}"
        if fixable:
            line += f"; {fixable} fixable with `memcheck fix`"
    if older is not None and older.total:
        adopt = f"memcheck check --write-baseline {shown(older.baseline or BASELINE_FILE)}"
        line += f"; {_plural(older.total, 'older finding')} not shown (`--all` shows them; `{adopt}` adopts them)"
    if checked is not None and checked.accepted:
        line += f"; {checked.accepted} accepted by the baseline"
    if checked is not None and checked.stale:
        # Left in, an entry accepts its finding again if it comes back: a regression.
        entries = "entry of the baseline matches" if checked.stale == 1 else "entries of the baseline match"
        rewrite = f"memcheck check --write-baseline {shown(checked.baseline or BASELINE_FILE)}"
        line += f"; {checked.stale} {entries} no finding now (mended since: `{rewrite}` drops {'it' if checked.stale == 1 else 'them'})"
    if checked is not None and checked.examples:
        first, more = checked.examples[0], len(checked.examples) - 1
        others = f" and {more} more" if more else ""
        line += (
            f"; passed over {escaped(first.message)} at {shown(first.path)}:{first.line}{others}: "
            "a documented example key, not a secret (a real one is SEC002)"
        )
    if checked is not None and checked.adopt and problems:
        line += (
            f"; to fail only on new ones, adopt these: `memcheck check --write-baseline {BASELINE_FILE}`, "
            f"then `baseline: {BASELINE_FILE}` in the config"
        )
    return line + "."


# A run that found no agent file exits 0 and says so, in the words of what it was given.
NOTHING_TO_CHECK = {
    "tree": "No agent files found (guidance files, memory stores, skills): nothing to check.",
    "paths": "No agent files in the paths given: nothing to check.",
    "change": "The change touches no agent files: nothing to check.",
}


def what_was_checked(checked: Checked) -> str:
    """``3 guidance files, 1 store (12 memories) and 2 skills``, leaving out what there was none of."""
    parts = []
    if checked.guidance:
        parts.append(_plural(checked.guidance, "guidance file"))
    if checked.stores:
        parts.append(f"{_plural(checked.stores, 'store')} ({_plural(checked.memories, 'memory', 'memories')})")
    if checked.skills:
        parts.append(_plural(checked.skills, "skill"))
    if checked.others:
        parts.append(_plural(checked.others, "other agent file"))
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


def _names(names: Sequence[str]) -> str:
    shown_names = ", ".join(shown(n) for n in names[:5])
    return shown_names + (f" and {len(names) - 5} more" if len(names) > 5 else "")


def what_changed(changes: FixRecord) -> str:
    """``added 2 (a.md, b.md); re-pointed 1 (old.md -> new.md); removed 1 (gone.md);
    rewrote 1 (c.md)``, or "" when fix did none of these (a BOM dropped)."""
    done = []
    if changes["added"]:
        done.append(f"added {len(changes['added'])} ({_names(changes['added'])})")
    if changes["repointed"]:
        moves = [f"{m['from']} -> {m['to']}" for m in changes["repointed"]]
        done.append(f"re-pointed {len(moves)} ({_names(moves)})")
    if changes["removed"]:
        done.append(f"removed {len(changes['removed'])} ({_names(changes['removed'])})")
    if changes.get("rewrote"):
        done.append(f"rewrote {len(changes['rewrote'])} ({_names(changes['rewrote'])})")
    if changes.get("filled"):
        done.append(
            f"filled in {len(changes['filled'])} description{'' if len(changes['filled']) == 1 else 's'} ({_names(changes['filled'])})"
        )
    return "; ".join(done)


def fixed_and_refused(ctx: ReportContext) -> list[str]:
    """The indexes fix wrote, then those it left as they were but for entries that do not fit."""
    return [*ctx.fixed, *sorted(set(ctx.changes) - set(ctx.fixed))]


def fix_lines(path: str, changes: FixRecord | None, written: bool = True) -> list[str]:
    """``Fixing PATH``, with what fix added, re-pointed, removed and filled in there,
    and a line of its own when entries it added fall past a cap, where agents never
    read them, or when entries do not fit under the caps and it did not write them."""
    if not changes:
        return [f"Fixing {shown(path)}"] if written else []
    done = what_changed(changes)
    lines = [f"Fixing {shown(path)}" + (f": {done}" if done else "")] if written else []
    caps = changes["caps"]
    refused = changes.get("refused", [])
    if refused:
        lines.append(
            f"  warning: {len(refused)} new {'entry' if len(refused) == 1 else 'entries'} not written to {shown(path)}: no room under its "
            f"{caps['lines']:,}-line / {caps['bytes']:,}-byte cap, where agents stop reading: {_names(refused)}; "
            "make room (merge or shorten entries), then run `memcheck fix` (IDX003)"
        )
    past = changes["past_cap"]
    if past:
        lines.append(
            f"  warning: {len(past)} new {'entry' if len(past) == 1 else 'entries'} past the {caps['lines']}-line / {caps['bytes']}-byte cap of "
            f"{shown(path)}, where agents never read {'it' if len(past) == 1 else 'them'}: {_names(past)}; shorten the index (IDX007, IDX008)"
        )
    return lines


def fix_report(ctx: ReportContext) -> list[str]:
    """What fix did to each index; with ``-q`` only the warnings of entries it left
    unread or unwritten, which fail the run."""
    lines = [line for path in fixed_and_refused(ctx) for line in fix_lines(path, ctx.changes.get(path), path in ctx.fixed)]
    return [line.strip() for line in lines if line.startswith("  warning: ")] if ctx.quiet else lines


def closing(problems: Sequence[Problem], ctx: ReportContext) -> str:
    """The summary line, or nothing with ``-q``."""
    return "" if ctx.quiet else summary(problems, ctx.older, ctx.checked) + "\n"


def report(problems: Sequence[Problem], out: TextIO, ctx: ReportContext) -> None:
    for line in fix_report(ctx):
        out.write(line + "\n")
    if ctx.statistics:
        rows = statistics(problems)
        width = max((len(str(r.count)) for r in rows), default=1)
        for r in rows:
            out.write(f"{r.count:>{width}}  {r.code}  {'[*] ' if r.fixable else '    '}{r.name}".rstrip() + "\n")
        out.write(closing(problems, ctx))
        return
    for p in problems:
        code = p.code
        if ctx.color:
            colour = _RED if p.severity == "error" else _YELLOW
            where = f"{_BOLD}{shown(p.path)}{_RESET}:{p.line}:{p.col}:"
            code = f"{colour}{code}{_RESET}"
            fix = f" {_DIM}[*]{_RESET}" if p.fixable else ""
        else:
            where = f"{shown(p.path)}:{p.line}:{p.col}:"
            fix = " [*]" if p.fixable else ""
        out.write(f"{where} {code} {escaped(p.message)}{fix}\n")
    out.write(closing(problems, ctx))
