"""`memcheck rules` and `memcheck rule CODE`."""

from __future__ import annotations

import json

import click

from memcheck.checks import all_rules
from memcheck.config import ConfigError
from memcheck.problem import Rule


def rule_table(linked: bool = False) -> str:
    """The Markdown rule table (`memcheck rules --format markdown`);
    ``linked``, each code links its page, as docs/rules/README.md has it."""
    rows = ["| Code | Name | Severity | Fixable | What it reports |", "| --- | --- | --- | --- | --- |"]
    for r in all_rules().values():
        code = f"[{r.code}]({r.code}.md)" if linked else r.code
        rows.append(f"| {code} | {r.name} | {r.severity} | {'yes' if r.fixable else 'no'} | {r.summary} |")
    return "\n".join(rows) + "\n"


def list_rules(fmt: str) -> int:
    rules = all_rules().values()
    if fmt == "json":
        # The fields by name: a rule carries more than its listing shows (its scope, its
        # security severity), and what `--format json` prints is a contract.
        listed = [
            {"code": r.code, "name": r.name, "severity": r.severity, "fixable": r.fixable, "summary": r.summary, "doc": r.doc}
            for r in rules
        ]
        click.echo(json.dumps(listed, indent=2, ensure_ascii=False))
    elif fmt == "markdown":
        click.echo(rule_table(), nl=False)
    else:
        for r in rules:
            fixable = "fixable" if r.fixable else "       "
            click.echo(f"{r.code}  {r.severity:<7}  {fixable}  {r.name}: {r.summary}")
    return 0


def rule_text(rule: Rule) -> str:
    """What `memcheck rule CODE` prints, and its page in docs/rules/ holds."""
    fix = "`memcheck fix` fixes it." if rule.fixable else "`memcheck fix` cannot fix it."
    return f"# {rule.code} {rule.name} ({rule.severity})\n\n{rule.summary}. {fix}\n\n{rule.doc.rstrip()}\n"


def rule_pages() -> dict[str, str]:
    """The pages of docs/rules/, by file name: one per rule, and README.md listing them."""
    pages = {f"{r.code}.md": f"{rule_text(r)}\n[All rules](README.md)\n" for r in all_rules().values()}
    intro = (
        "# Rules\n\n"
        "Every rule memcheck reports, with a page of its own: what it reports, why, an example and\n"
        "what to write instead. `memcheck rule CODE` prints the same page; `memcheck rules` lists them.\n"
        "These pages are generated from the rules' own documentation: `python docs/generate.py`.\n\n"
    )
    pages["README.md"] = intro + rule_table(linked=True)
    return pages


def show_rule(code: str) -> int:
    rule = all_rules().get(code.upper())
    if rule is None:
        raise ConfigError(f"no rule {code!r}; `memcheck rules` lists them")
    click.echo(rule_text(rule), nl=False)
    return 0
