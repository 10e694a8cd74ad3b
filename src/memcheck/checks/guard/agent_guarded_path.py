"""GRD004: an agent's change touches a path guarded from agents (lock files, editor settings...).

The rule only: the guard's engine (``memcheck.guard``) reports it, never ``memcheck check``.
"""

from __future__ import annotations

from memcheck.problem import CHANGE, ERROR, Rule

# Security severity 5.0: an agent's change to a lock file or to IDE settings is a change
# nobody asked for, which may run commands on every machine, but publishes no secret.
GRD004 = Rule(
    "GRD004",
    "agent-guarded-path",
    ERROR,
    False,
    "An agent's change touches a path guarded from agents",
    """\
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
package-lock.json:1:1: GRD004 unstage it (git restore --staged -- package-lock.json) and have a person make this change (Claude Code made it: its shell sets CLAUDECODE=1; this file is guarded from agents' changes). modified: guarded by category lockfiles (pattern package-lock.json)
```

## Use instead
Have a person run the package manager or edit the settings. In a pull request, a
maintainer who accepts the agent's change adds the Action's override label (it never
lets a secret through). To guard these paths for everyone's changes, set
`guard: {everyone: true}`; to move one category, `guard: {tiers: {lockfiles: secrets}}`.
""",
    scope=CHANGE,
    security_severity="5.0",
)
