"""AGT007: an agent file frontmatter key that looks like a misspelt known key."""

from __future__ import annotations

from typing import Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.problem import WARNING, Problem, Rule
from memcheck.text.frontmatter import near_key, normalized_key
from memcheck.text.frontmatter_reading import Frontmatter

AGT007 = Rule(
    "AGT007",
    "unknown-key",
    WARNING,
    False,
    "Agent file frontmatter key looks like a misspelt known key",
    """\
## What it does
Reports a frontmatter key of a subagent, custom agent or prompt file that is not
one the agent reads but looks like a misspelling of one (the same once case, `-` and
`_` are ignored, or nearly the same letters), never of its opposite
(`allowedTools` is not `disallowedTools`), and `allowed-tools`, the key skills and
slash commands list their tools under, where the file's is `tools`. Other keys are
not reported.

## Why is this bad?
Keys are matched exactly: `allowed_tools` or `permission-mode` leaves the real
setting unset.

## Example
```yaml
permission-mode: plan
```

## Use instead
```yaml
permissionMode: plan
```
""",
)


# A Claude Code subagent's allow-list written as a skill's or a slash command's
# (`allowed-tools`): Claude Code reads a subagent's from `tools` (on an unseen
# repository, five subagents listed their tools under `allowed-tools`). Other agents'
# files with the key are AGT011's.
_SKILLS_TOOLS_KEY = "allowed-tools"


def check(kind: agentkinds.Kind, path: str, fm: Frontmatter) -> Iterator[Problem]:
    """The keys of a parsed frontmatter that the kind does not know and that look like one it does."""
    known = tuple(sorted(kind.keys))
    near = near_key(known)
    for key in sorted(str(k) for k in fm.data if k not in kind.keys):
        if kind.agent == "claude-code" and "tools" in kind.keys and normalized_key(key) == normalized_key(_SKILLS_TOOLS_KEY):
            tools_key = next((str(k) for k in fm.data if normalized_key(str(k)) == "tools"), None)
            yield AGT007.at(path, fm.key_lines.get(key, 1), 1, _skills_tools_message(kind, key, tools_key))
            continue
        meant = near(key)
        if meant is not None:
            yield AGT007.at(
                path,
                fm.key_lines.get(key, 1),
                1,
                f"frontmatter key {key!r} looks like a misspelling of {meant!r}: {kind.agent_title} matches keys exactly, so this setting is ignored; rename it to {meant}",
            )


def _skills_tools_message(kind: agentkinds.Kind, key: str, tools_key: str | None) -> str:
    said = (
        f"frontmatter key {key!r} is how skills and slash commands list their tools"
        if key == _SKILLS_TOOLS_KEY
        else f"frontmatter key {key!r} looks like {_SKILLS_TOOLS_KEY}, the key skills and slash commands list their tools under"
    )
    # Beside a tools key (empty, or misspelt itself), renaming would write a second one
    # and deleting could leave the subagent every tool (an outside attack).
    if tools_key is None:
        fix = "rename it to tools"
    elif tools_key == "tools":
        fix = "move the tools it lists into the file's tools key, and delete it"
    else:  # (`Tools`, itself told to become tools)
        fix = f"list its tools and those of {tools_key!r} under one key, tools"

    return f"{said}; {kind.agent_title} reads this file's list of tools from tools, so this setting is ignored; {fix}"
