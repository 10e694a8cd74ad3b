"""What the AGT rules share beyond the agent data: how a finding names a kind of agent
file, and the well-formed subagent their docs show."""

from __future__ import annotations

from memcheck.agents import kinds as agentkinds

EXAMPLE_OK = """```markdown
---
name: code-reviewer
description: "Reviews a change for bugs: use after editing code."
tools: Read, Grep, Glob
model: sonnet
---
You review code. ...
```"""


def noun(kind: agentkinds.Kind) -> str:
    """What the file is, without its agent's name: "subagent" of "Claude Code subagent"."""
    return kind.title.removeprefix(kind.agent_title).strip() or kind.title
