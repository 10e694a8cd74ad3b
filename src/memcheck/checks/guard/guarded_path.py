"""GRD001: a change touches a guarded path (a secret's place, or one guarded for everyone).

The rule only: the guard's engine (``memcheck.guard``) reports it, never ``memcheck check``.
"""

from __future__ import annotations

from memcheck.problem import CHANGE, ERROR, Rule

# Security severity 8.0: a change to a secret's place (an environment file, a key, a
# credentials file) publishes the secret, or opens the way to one.
GRD001 = Rule(
    "GRD001",
    "guarded-path",
    ERROR,
    False,
    "A change touches a guarded path",
    """\
## What it does
Reports a change that adds, modifies, deletes, renames (either side), copies (either
side), or changes the type or mode of a path in a guard category: environment files,
keys and certificates, credential and token files, SSH/AWS/GPG/Kubernetes settings,
editor settings, `.git/`, `node_modules/`, lock files and build outputs.
`memcheck guard --list` shows which tracked files are guarded today.

Deleting a secret's file (`git rm --cached .env`, to stop tracking one committed long
ago) is the remedy, not a leak: it is reported as a warning, which passes, saying that
the secret stays in the history and must be rotated. A rename is not a deletion (the
secret goes on under the new name), and a branch that adds the file and deletes it
again still fails.

## Why is this bad?
Agents commit what they touched. A committed secret stays in the history even when a
later commit deletes it, so a range is judged commit by commit. Lock files, installed
dependencies and build outputs are written by tools; a hand edit drifts from them.

## Example
```console
$ git add .env && memcheck guard
.env:1:1: GRD001 unstage it (git restore --staged -- .env) and rotate any secret it holds (guarded in every change, whoever makes it). added: guarded by category env (pattern .env); to allow it, put in .memcheck.yaml: guard: {allow: ["/.env"]}
```

## Use instead
Keep the file out of the commit (`git restore --staged .env`, add it to `.gitignore`)
and commit a template such as `.env.example` (allowed by default). If the path really
belongs in the repository, allow it in `.memcheck.yaml` with the line the message
gives, or turn a whole category off with `guard: {disable: [lockfiles]}`.
""",
    scope=CHANGE,
    security_severity="8.0",
)
