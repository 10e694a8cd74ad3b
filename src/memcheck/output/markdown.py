"""Markdown for a page a person reads: a CI job summary, a pull-request comment.

The counts, then the findings one by one grouped by file (up to ``SHOWN``: a job
summary is cut at 1 MiB and a comment at 64 KiB), the findings counted per rule, and
each MEMORY.md index checked with a bar against its caps. Guard's is a section to
follow it, the guarded paths a change touches: what fails, and what the override label
does about it. The GitHub Action writes the two as its job summary.

Text that comes from the files checked (paths, keys, quoted values) is never markup:
a path is a code span, a message has every ASCII punctuation mark backslash-escaped,
and control characters are shown as ``\\uXXXX``; so a file name cannot add a link, an
image or HTML to the page, nor break out of a table cell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, TextIO

from memcheck import lazy_regex
from memcheck.output import BASELINE_FILE, counts
from memcheck.problem import ERROR, Problem, visible_name

if TYPE_CHECKING:
    from memcheck.output import CapUsage, ReportContext

# Findings listed one by one; past this, a count of the rest. GitHub shows only 10
# error and 10 warning annotations a step, so the job summary is where a reviewer reads them.
SHOWN = 200
BAR_WIDTH = 20
_MARKUP = lazy_regex.compile(r"[!-/:-@\[-`{-~]")  # ASCII punctuation: what CommonMark lets a backslash escape


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'s' * (n != 1)}"


def bar(value: int, cap: int, width: int = BAR_WIDTH) -> str:
    filled = width if cap <= 0 else min(width, round(width * value / cap))
    return "█" * filled + "░" * (width - filled)


def visible(text: str) -> str:
    """Control characters (a raw ESC, a newline in a file name) as escapes one can read."""
    return "".join(ch if ch.isprintable() or ch == " " else f"\\u{ord(ch):04x}" for ch in text)


def code(text: str) -> str:
    """A code span that holds any text (table cells too): nothing in it is markup, and
    a character that draws nothing (a file name's zero-width space) shows as its escape."""
    text = visible(visible_name(text)).replace("|", "\\|")
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def cell(text: str) -> str:
    """Text as literal Markdown: every ASCII punctuation character backslash-escaped,
    so nothing becomes a link (``[x](https://...)``, a bare URL), HTML, emphasis or a
    break out of the table cell; GitHub's renderer reads an escaped character as
    text, and a URL split by escapes is no longer linked."""
    return _MARKUP.sub(r"\\\g<0>", visible(text.replace("\n", " ")))


def headline(problems: Sequence[Problem], ctx: ReportContext) -> str:
    errors, warnings, fixable = counts(problems)
    line = f"**{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}**"
    if ctx.older is not None:
        line += f" new since {code(ctx.older.ref)}"
    if fixable:
        line += f" ({fixable} fixable with `memcheck fix`)"
    return line + (f"; fail-on: {ctx.fail_on}" if ctx.fail_on is not None else "")


def older(ctx: ReportContext) -> list[str]:
    if ctx.older is None or not ctx.older.total:
        return []
    n, adopt = ctx.older.total, ctx.older.baseline or BASELINE_FILE
    return [
        f"{_plural(n, 'older finding')} (in files the change does not touch, or there before it) {'are' if n != 1 else 'is'} not listed "
        f"and do{'es' * (n == 1)} not fail: `--all` lists and judges {'them' if n != 1 else 'it'}. To adopt them as they are, record them in a "
        f"baseline, which every run then leaves out: `memcheck check --write-baseline {adopt}`, commit the file, and add `baseline: {adopt}` to `.memcheck.yaml`.",
        "",
    ]


def findings(problems: Sequence[Problem], limit: int = SHOWN) -> list[str]:
    """The findings one by one, grouped by file in line order; past ``limit`` (in the
    report's order) a count of the rest."""
    out: list[str] = []
    listed = problems[:limit]
    for path in sorted({p.path for p in listed}):
        out += [f"#### {code(path)}", "", "| Line | Rule | Severity | Message |", "| ---: | --- | --- | --- |"]
        out += [f"| {p.line} | {p.code} | {p.severity} | {cell(p.message)} |" for p in listed if p.path == path]
        out.append("")
    rest = len(problems) - len(listed)
    if rest:
        out.append(f"… and {_plural(rest, 'more finding')} (every other format of `memcheck check` lists them all).")
    elif out:
        out.pop()
    return out or ["No findings."]


def by_rule(problems: Sequence[Problem]) -> list[str]:
    from memcheck.checks import all_rules

    found: dict[str, int] = {}
    for p in problems:
        found[p.code] = found.get(p.code, 0) + 1
    if not found:
        return ["No findings."]
    rules = all_rules()
    out = ["| Rule | Name | Severity | Findings |", "| --- | --- | --- | ---: |"]
    for rule_code, n in sorted(found.items()):
        rule = rules.get(rule_code)
        out.append(f"| {rule_code} | {rule.name if rule else ''} | {rule.severity if rule else ''} | {n} |")
    return out


def _usage(value: int, cap: int, unit: str) -> str:
    pct = round(100 * value / cap) if cap > 0 else 100
    return f"`{bar(value, cap)}` {value:,} / {cap:,} {unit} ({pct}%){' ⛔' if value > cap else ''}"


def caps(indexes: Sequence[CapUsage]) -> list[str]:
    if not indexes:
        return ["No MEMORY.md index checked."]
    out = ["| Index | Lines | Bytes |", "| --- | --- | --- |"]
    for i in indexes:
        lines, size, max_lines, max_bytes = (int(str(i[k])) for k in ("lines", "bytes", "max_lines", "max_bytes"))
        out.append(f"| {code(str(i['path']))} | {_usage(lines, max_lines, 'lines')} | {_usage(size, max_bytes, 'bytes')} |")
    return out


def guarded(problems: Sequence[Problem], ctx: ReportContext) -> list[str]:
    """Guard's section: what fails, what the override label does (or why it does not
    count), and the guarded paths touched."""
    from memcheck.guard.override import OVERRIDABLE

    if not problems:
        return ["### Guarded paths", "", f"No guarded path touched{f' ({ctx.judged})' if ctx.judged else ''}.", ""]
    label = ctx.override
    name = code(label.label) if label else ""
    secrets = any(p.code not in OVERRIDABLE and p.severity == ERROR for p in problems)  # no label lets a secret through
    if label and label.counts and any(p.code in OVERRIDABLE for p in problems):
        still = "; a secret is never let through, and still fails" if secrets else ""
        verdict = f"The pull request carries the override label {name}: an agent's change and a reviewed loosening are reported, not failing{still}."
    elif not any(p.severity == ERROR for p in problems):  # (a secret's file no longer tracked: a warning)
        verdict = "Reported, not failing."
    elif label and not secrets:
        verdict = "These fail the job. " + (
            f"The pull request carries the override label {name}, which does not count here: {cell(label.refused)}."
            if label.refused
            else f"A maintainer who accepts them adds the label {name} to the pull request, and the job passes with them reported."
        )
    else:
        why = "a secret is never let through, and still fails, whatever the label" if secrets else "no override label is set"
        verdict = f"These fail the job; {why}, so the guarded paths must leave the pull request."
    out = ["### Guarded paths", "", verdict, "", *([f"In {ctx.judged}:", ""] if ctx.judged else [])]
    out += ["| Path | Rule | Finding |", "| --- | --- | --- |"]
    return [*out, *(f"| {code(p.path)} | {p.code} | {cell(p.message)} |" for p in problems), ""]


def report(problems: Sequence[Problem], out: TextIO, ctx: ReportContext) -> None:
    if ctx.command == "guard":
        out.write("\n".join(guarded(problems, ctx)))
        return
    page = ["## memcheck", "", headline(problems, ctx), "", *older(ctx)]
    if ctx.fixed:  # `memcheck fix`
        page += ["### Rewritten", "", *(f"- {code(path)}" for path in ctx.fixed), ""]
    page += ["### Findings", "", *findings(problems), "", "### Findings by rule", "", *by_rule(problems), ""]
    if ctx.indexes is not None:  # check's: fix and guard measure no index
        page += ["### Index caps", "", *caps(ctx.indexes), ""]
    out.write("\n".join(page))
