"""GRD: changes to paths an agent must never touch (SPEC §6).

The rules only. Guard has no ``check()``: it judges changes, not files, so ``memcheck
check`` never runs it; ``memcheck guard`` does (hooks/guard.py), through the guard
engine, memcheck.guard: its categories, which path a pattern guards, its policy and
its findings.
"""
from __future__ import annotations

from memcheck.problem import CHANGE, ERROR, Rule

# Security severity: a change to a secret's place (8.0), or to the guard's own settings
# (6.5), opens the way to one; an agent's change to a lock file or IDE settings is a
# change nobody asked for (5.0).
GRD001 = Rule("GRD001", "guarded-path", ERROR, False, "A change touches a guarded path", """\
## What it does
Reports a change that adds, modifies, deletes, renames (either side), copies (either
side), or changes the type or mode of a path in a guard category: environment files,
keys and certificates, credential and token files, SSH/AWS/GPG/Kubernetes settings,
editor settings, `.git/`, `node_modules/`, lock files and build outputs.
`memcheck guard --list` shows which tracked files are guarded today.

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
""", scope=CHANGE, security_severity="8.0")

GRD002 = Rule("GRD002", "guarded-symlink", ERROR, False, "A symlink points at a guarded path", """\
## What it does
Reports a symlink that a change adds or retargets when its target is a guarded path,
inside the repository or outside it (`../../.ssh/id_rsa`, `/home/me/.aws/credentials`).

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
""", scope=CHANGE, security_severity="8.0")

GRD003 = Rule("GRD003", "guard-loosened", ERROR, False, "A change loosens the guard's own settings", """\
## What it does
Reports a change to `.memcheck.yaml` or `[tool.memcheck]` in `pyproject.toml` that
lets more through the guard than the settings before it: a path allowed
(`guard.allow`, a `!pattern`), a guard pattern removed, a category disabled, matching
made case-sensitive, or a `GRD` rule switched off (`ignore`, `select`,
`per-path-ignores`). Lint settings change freely. Settings that cannot be read (YAML
that does not parse, bytes that are not UTF-8, a link out of the repository) are
reported too, naming the commit and why: what they let through cannot be told.

## Why is this bad?
The change under review never decides its own policy: staged changes are judged by
the settings of HEAD, and a range by those of its base, so a commit that allows
`/.env` does not let its own `.env` through. Its loosening applies to what comes
after it, and so needs a reviewer's eye of its own.

## Example
```console
$ git add .memcheck.yaml .env && memcheck guard
.env:1:1: GRD001 unstage it (git restore --staged -- .env) and rotate any secret it holds (guarded in every change, whoever makes it). added: guarded by category env (pattern .env); to allow it, put in .memcheck.yaml: guard: {allow: ["/.env"]}
.memcheck.yaml:1:1: GRD003 land this on its own and have it reviewed (SKIP=memcheck-guard at the hook; the override label in a pull request). loosens the guard: allows /.env; a change is judged by the settings before it
```

## Use instead
Commit the loosening on its own and have it reviewed; in a pull request, a
maintainer accepts it (the Action's override label). At commit time, skip the hook
for that one commit: `SKIP=memcheck-guard git commit`.
""", scope=CHANGE, security_severity="6.5")

GRD004 = Rule("GRD004", "agent-guarded-path", ERROR, False, "An agent's change touches a path guarded from agents", """\
## What it does
Reports a change an AI agent made to a path in a category of the agents tier: lock
files, editor and IDE settings, build outputs, `node_modules/`, `.git/`, agents'
personal files (`CLAUDE.local.md`), and the settings that make an agent or an editor
run commands (`.claude/settings.json` hooks, `.vscode/tasks.json`). A change is an
agent's when its commit's author, committer or trailers name an agent (Claude Code's
`Co-Authored-By: Claude <noreply@anthropic.com>`, the Copilot coding agent's account,
aider's ` (aider)` author suffix, ...), or, at commit time, when the commit is made from
an agent's shell (Claude Code sets `CLAUDECODE=1` there). `memcheck guard --signatures`
lists what is recognised, with sources. A person's change to these paths passes.

## Why is this bad?
These files are written by tools or belong to a person: an agent that rewrites a lock
file by hand, or adds a hook that runs a command at every session, changes what runs
on every machine without anyone deciding it. A person's lock-file bump or a team's
shared editor settings are routine work, so only an agent's change is stopped.

## Example
```console
$ CLAUDECODE=1 git commit -am "bump deps"
package-lock.json:1:1: GRD004 unstage it (git restore --staged -- package-lock.json) and have a person make this change (Claude Code made it: its shell sets CLAUDECODE=1; this file is guarded from agents' changes). modified: guarded by category lockfiles (pattern package-lock.json); ...
```

## Use instead
Have a person run the package manager or edit the settings. In a pull request, a
maintainer who accepts the agent's change adds the Action's override label (it never
lets a secret through). To guard these paths for everyone's changes, set
`guard: {everyone: true}`; to move one category, `guard: {tiers: {lockfiles: secrets}}`.
""", scope=CHANGE, security_severity="5.0")

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

RULES = (GRD001, GRD002, GRD003, GRD004, GRD005)
