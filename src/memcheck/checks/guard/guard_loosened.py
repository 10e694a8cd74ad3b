"""GRD003: a change loosens the guard's own settings, or leaves them unreadable.

The rule only: the guard's engine (``memcheck.guard``) reports it, never ``memcheck check``.
"""

from __future__ import annotations

from memcheck.problem import CHANGE, ERROR, Rule

# Security severity 6.5: a change to the guard's own settings does not itself publish a
# secret, but opens the way for the changes after it to.
GRD003 = Rule(
    "GRD003",
    "guard-loosened",
    ERROR,
    False,
    "A change loosens the guard's own settings",
    """\
## What it does
Reports a change to `.memcheck.yaml` or `[tool.memcheck]` in `pyproject.toml` that
lets more through the guard than the settings before it: a path allowed
(`guard.allow`, a `!pattern`), a guard pattern removed, a category disabled, matching
made case-sensitive, or a `GRD` rule switched off (`ignore`, `select`,
`per-path-ignores`). Lint settings change freely. Settings that cannot be read (YAML
that does not parse, bytes that are not UTF-8, a link out of the repository) are
reported too, naming the commit and why: what they let through cannot be told.
So is a change that removes or weakens what runs memcheck: its hooks in
`.pre-commit-config.yaml` (a hook removed, run at fewer stages, given another
command or arguments) or its step in a GitHub workflow (removed, `guard: off`,
`fail-on: never`, a condition or `continue-on-error` added), whoever makes it.

## Why is this bad?
The change under review never decides its own policy: staged changes are judged by
the settings of HEAD, and a range by those of its base, so a commit that allows
`/.env` does not let its own `.env` through. Its loosening applies to what comes
after it, and so needs a reviewer's eye of its own. That review happens in the pull
request: at a person's own commit and push the hook reports a loosening as a warning
and lets it through (a team commits its first `guard.allow` without skipping the
hook); an agent's loosening, and settings that cannot be read, fail there too.

## Example
```console
$ git add .memcheck.yaml .env && CLAUDECODE=1 memcheck guard    # from an agent's shell
.env:1:1: GRD001 unstage it (git restore --staged -- .env) and rotate any secret it holds (guarded in every change, whoever makes it). added: guarded by category env (pattern .env); to allow it, put in .memcheck.yaml: guard: {allow: ["/.env"]}
.memcheck.yaml:1:1: GRD003 land this on its own and have it reviewed (SKIP=memcheck-guard at the hook; the override label in a pull request). loosens the guard: allows /.env; a change is judged by the settings before it
```

From a person's shell the GRD003 line is a warning: `a person's change passes at their
own commit and push (the pull request fails until a maintainer reviews it and adds the
override label). loosens the guard: ...`.

## Use instead
Commit the loosening on its own and have it reviewed; in a pull request, a
maintainer accepts it (the Action's override label). For an agent's commit of it,
skip the hook for that one commit: `SKIP=memcheck-guard git commit`.
""",
    scope=CHANGE,
    security_severity="6.5",
)
