"""GRD005: a change turns a secret rule (SEC) or a hidden-text rule (HID) off for some
file, or drops files from the agent files.

The rule only: the guard's engine (``memcheck.guard``) reports it, never ``memcheck check``.
"""

from __future__ import annotations

from memcheck.problem import CHANGE, ERROR, Rule

# Security severity 6.5, as GRD003: turning the secret rules off publishes nothing itself,
# but lets a secret through unreported in the changes after it.
GRD005 = Rule(
    "GRD005",
    "secret-rules-off",
    ERROR,
    False,
    "A change turns a secret rule off",
    """\
## What it does
Reports a change to `.memcheck.yaml` or `[tool.memcheck]` in `pyproject.toml` that
turns a secret rule (`SEC`) or a hidden-text rule (`HID`) off for some file:
`ignore: [SEC]`, a `select` that leaves those rules out, an `exclude` pattern (memcheck
then reads nothing of those files), a `per-path-ignores` entry naming a `SEC` or `HID`
rule, or a guidance file name, memory store or skills root dropped from
`guidance.filenames`, `memory.stores` or `skills.roots` (those files are then no agent
files, and no rule reads them). Other lint settings change freely.

## Why is this bad?
A pull request that adds a token to a memory file, or an instruction in invisible
characters to `AGENTS.md`, could silence the rule that finds it in the same change.
The guard judges a change by the settings before it, and reports the change that
turns those rules off, so that it is reviewed on its own. (`memcheck check
--new-since` and the Action judge the change's secret and hidden-text findings by the
base's settings as well as its own, so the token or the hidden text is reported too.)

## Example
```console
$ git add .memcheck.yaml && memcheck guard
.memcheck.yaml:1:1: GRD005 land this on its own and have it reviewed (...). changes what the secret and hidden-text rules check: turns SEC001, SEC002, SEC003 off; a change is judged by the settings before it
```

## Use instead
Keep the secret rules on (a secret is removed and rotated, never suppressed). For a
hidden-text finding that is a false positive, a comment on that line
(`<!-- memcheck-disable-next-line HID003 -->`) silences it, in a change reviewed on
its own (`check --new-since` reports a finding that a comment of the same change
silences). If the setting is intended, commit it on its own and have it reviewed.
""",
    scope=CHANGE,
    security_severity="6.5",
)
