"""GRD005: a change turns a secret rule (SEC) off for some file.

The rule only: the guard's engine (``memcheck.guard``) reports it, never ``memcheck check``.
"""
from __future__ import annotations

from memcheck.problem import CHANGE, ERROR, Rule

# Security severity 6.5, as GRD003: turning the secret rules off publishes nothing itself,
# but lets a secret through unreported in the changes after it.
GRD005 = Rule("GRD005", "secret-rules-off", ERROR, False, "A change turns a secret rule off", """\
## What it does
Reports a change to `.memcheck.yaml` or `[tool.memcheck]` in `pyproject.toml` that
turns a secret rule (`SEC`) off for some file: `ignore: [SEC]`, a `select` that leaves
the secret rules out, an `exclude` pattern (memcheck then reads nothing of those files),
or a `per-path-ignores` entry naming a `SEC` rule. Other lint settings change freely.

## Why is this bad?
A pull request that adds a token to a memory file could silence the rule that finds it
in the same change. The guard judges a change by the settings before it, and reports
the change that turns the secret rules off, so that it is reviewed on its own.

## Example
```console
$ git add .memcheck.yaml && memcheck guard
.memcheck.yaml:1:1: GRD005 land this on its own and have it reviewed (...). changes the secret rules: turns SEC001, SEC002, SEC003 off; a change is judged by the settings before it
```

## Use instead
Keep the secret rules on, and suppress one finding where it is a false positive with a
comment on that line (`<!-- memcheck-disable-next-line SEC001 -->`). If the setting is
intended, commit it on its own and have it reviewed.
""", scope=CHANGE, security_severity="6.5")
