"""GRD002: a symlink a change adds or retargets points at a guarded path.

The rule only: the guard's engine (``memcheck.guard``) reports it, never ``memcheck check``.
"""

from __future__ import annotations

from memcheck.problem import CHANGE, ERROR, Rule

# Security severity 8.0, as GRD001: what reads or writes through the link touches the
# secret's place itself, and a link into a home folder publishes where the secrets live.
GRD002 = Rule(
    "GRD002",
    "guarded-symlink",
    ERROR,
    False,
    "A symlink points at a guarded path",
    """\
## What it does
Reports a symlink that a change adds or retargets when its target is a guarded path,
inside the repository or outside it (`../../.ssh/id_rsa`, `/home/me/.aws/credentials`),
read through the tree's other symlinks (`c -> e/shadow` with `e -> /etc` is
`/etc/shadow`), or a whole place where secrets are kept: `/`, a home folder, a
folder above the repository (`..`) or a process's folder (`/proc/self`).

## Why is this bad?
A symlink is a second name for its target: an agent, a tool or a build step that
reads or writes through the link touches the guarded file, and a link into the user's
home folder publishes where the secrets live.

## Example
```console
$ ln -s deploy.pem notes.txt && git add notes.txt && memcheck guard
notes.txt:1:1: GRD002 unstage it (git restore --staged -- notes.txt) and rotate any secret it holds (guarded in every change, whoever makes it). symlink added pointing to deploy.pem: guarded by category keys (pattern *.pem); ...
```

## Use instead
Do not link to secrets; read them from the environment at run time. If the link is
intended, allow the link's path in `.memcheck.yaml` with the line the message gives.
A link is judged by what it points at whatever its own name: `.env.example -> .env`
is reported, although `.env.example` itself is a template that guard allows.
""",
    scope=CHANGE,
    security_severity="8.0",
)
