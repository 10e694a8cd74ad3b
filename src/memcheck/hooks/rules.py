"""`memcheck rules` and `memcheck rule CODE`."""
from __future__ import annotations

import json

import click

from memcheck.config import ConfigError
from memcheck.rules import all_rules


def rule_table() -> str:
    """The Markdown rule table (README.md holds the same; a test keeps them equal)."""
    rows = ["| Code | Name | Severity | Fixable | What it reports |", "| --- | --- | --- | --- | --- |"]
    for r in all_rules().values():
        rows.append(f"| {r.code} | {r.name} | {r.severity} | {'yes' if r.fixable else 'no'} | {r.summary} |")
    return "\n".join(rows) + "\n"


def list_rules(fmt: str) -> int:
    rules = all_rules().values()
    if fmt == "json":
        click.echo(json.dumps([r._asdict() for r in rules], indent=2, ensure_ascii=False))
    elif fmt == "markdown":
        click.echo(rule_table(), nl=False)
    else:
        for r in rules:
            fixable = "fixable" if r.fixable else "       "
            click.echo(f"{r.code}  {r.severity:<7}  {fixable}  {r.name}: {r.summary}")
    return 0


def show_rule(code: str) -> int:
    rule = all_rules().get(code.upper())
    if rule is None:
        raise ConfigError(f"no rule {code!r}; `memcheck rules` lists them")
    fix = "`memcheck fix` fixes it." if rule.fixable else "`memcheck fix` cannot fix it."
    click.echo(f"# {rule.code} {rule.name} ({rule.severity})\n\n{rule.summary}. {fix}\n\n{rule.doc.rstrip()}")
    return 0
