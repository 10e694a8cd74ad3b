"""The values a user picks from, each list written once: the agents memcheck knows,
the fail-on levels and the output formats.

The CLI's option choices, the default config, ``memcheck.agents`` and the Action read
them here. The config's JSON Schema stays a static file and repeats the agents and
fail-on levels in its enums; a test holds it to these. Nothing is imported: the CLI
reads this module at start-up, before it knows which command runs.
"""

from __future__ import annotations

# The agents of memcheck.agents' model, in the order reports list them; a config's
# `agents:` defaults to all of them.
AGENTS = ("claude-code", "codex", "amp", "cursor", "copilot", "gemini", "antigravity", "kiro", "cline")

# What makes check and fix exit 1 (``--fail-on`` / ``fail-on``): findings of this
# severity or worse. Warnings are shown but pass by default, as in yamllint.
FAIL_ON = ("error", "warning", "never")

# The reporters of memcheck.output, by --format name: each is the module
# memcheck.output.<name> (REPORTER_BY_NAME is made from this list). The CLI adds
# "auto", which picks one of them.
FORMATS = ("text", "json", "github", "sarif", "gitlab", "junit", "markdown")
