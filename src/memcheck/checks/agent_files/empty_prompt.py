"""AGT015: a subagent or custom agent with no prompt below its frontmatter."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterator

from memcheck import lazy_regex
from memcheck.agents import kinds as agentkinds
from memcheck.checks.agent_files.kind_text import noun
from memcheck.problem import WARNING, Problem, Rule
from memcheck.text.document import Document

if TYPE_CHECKING:
    from memcheck.workspace.discover import Workspace

AGT015 = Rule(
    "AGT015",
    "empty-prompt",
    WARNING,
    False,
    "Subagent or custom agent has no prompt",
    """\
## What it does
Reports a subagent (Claude Code's `.claude/agents`, Cursor's `.cursor/agents`), a
Copilot custom agent or a prompt file with frontmatter and nothing below it. A prompt
file whose `agent` names a custom agent of the repository (`.github/agents/<name>.agent.md`)
runs that agent, whose body is its prompt: it is not reported.

## Why is this bad?
The body is the agent's instructions: its system prompt, or the prompt a prompt
file sends. Without one, the agent gets its name and description and nothing
about how to do the work.

## Example
```markdown
---
name: code-reviewer
description: Reviews a change for bugs.
---
```

## Use instead
```markdown
---
name: code-reviewer
description: Reviews a change for bugs.
---
You review the change you are given for bugs, missing tests and unclear names.
```
""",
)


def check(kind: agentkinds.Kind, doc: Document, ws: Workspace | None = None) -> Iterator[Problem]:
    if doc.frontmatter is not None and not doc.unterminated and not doc.body.strip() and not _runs_a_custom_agent(kind, doc, ws):
        yield AGT015.at(
            doc.path,
            1,
            1,
            f"nothing below the frontmatter: this {kind.agent_title} {noun(kind)} has no prompt, so it gets no instructions beyond its description; write them below the closing '---'",
        )


def _runs_a_custom_agent(kind: agentkinds.Kind, doc: Document, ws: Workspace | None) -> bool:
    """Whether ``doc`` is a prompt file whose `agent` names a custom agent of the
    repository (`.github/agents/<name>.agent.md`, one git lists: every clone has it)
    with a prompt of its own: that agent's body is the prompt it runs (spec-kit's
    prompt files hold nothing else; judged on an unseen repository)."""
    if ws is None or kind.id != _PROMPT_FILE or doc.frontmatter is None:
        return False
    named = doc.frontmatter.data.get("agent")
    if not isinstance(named, str) or not named.strip() or "/" in named:
        return False
    listed = ws.once(_listed)
    for ending in (".agent.md", ".md"):
        path = f"{_CUSTOM_AGENTS}/{named.strip()}{ending}"
        if path in listed:
            agent = ws.document(path)
            return agent.error is None and bool(_COMMENT.sub("", agent.body).strip())
    return False


def _listed(ws: Workspace) -> frozenset[str]:
    return frozenset(ws.tree_files)


_COMMENT = lazy_regex.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)  # (an agent whose body is a comment has no prompt either)
_PROMPT_FILE = "copilot-prompt"
_CUSTOM_AGENTS = ".github/agents"
