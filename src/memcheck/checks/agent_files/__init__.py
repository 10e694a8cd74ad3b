"""AGT: agents defined in files: Claude Code subagents (``.claude/agents/**/*.md``),
Cursor subagents (``.cursor/agents/*.md``), Copilot custom agents (``.github/agents/*.agent.md``) and Copilot prompt files
(``.github/prompts/*.prompt.md``). Each kind's frontmatter schema is agent data
(``resources/agents/*.toml``, read by ``agentkinds``); the checks here are the same
for every kind. One module per rule; the pass over each file, which parses it and asks
the agent data once, is here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck.agents import kinds as agentkinds
from memcheck.checks.agent_files import (
    agent_memory_ignored,
    bypass_permissions,
    deprecated_key,
    empty_prompt,
    ignored_key,
    invalid_frontmatter,
    invalid_value,
    key_ignored_by_host,
    missing_frontmatter,
    missing_key,
    missing_skill,
    prompt_too_long,
    tool_allowed_and_denied,
    unknown_hook_event,
    unknown_key,
    unknown_tool,
    unreadable_agent_file,
)
from memcheck.checks.agent_files.agent_memory_ignored import AGT017
from memcheck.checks.agent_files.bypass_permissions import AGT010
from memcheck.checks.agent_files.deprecated_key import AGT013
from memcheck.checks.agent_files.empty_prompt import AGT015
from memcheck.checks.agent_files.ignored_key import AGT011
from memcheck.checks.agent_files.invalid_frontmatter import AGT003
from memcheck.checks.agent_files.invalid_value import AGT005
from memcheck.checks.agent_files.key_ignored_by_host import AGT012
from memcheck.checks.agent_files.missing_frontmatter import AGT002
from memcheck.checks.agent_files.missing_key import AGT004
from memcheck.checks.agent_files.missing_skill import AGT016
from memcheck.checks.agent_files.prompt_too_long import AGT014
from memcheck.checks.agent_files.tool_allowed_and_denied import AGT009
from memcheck.checks.agent_files.unknown_hook_event import AGT008
from memcheck.checks.agent_files.unknown_key import AGT007
from memcheck.checks.agent_files.unknown_tool import AGT006
from memcheck.checks.agent_files.unreadable_agent_file import AGT001
from memcheck.problem import Problem, contained
from memcheck.text.document import Document
from memcheck.workspace.agentfiles import find_agent_files
from memcheck.workspace.discover import Workspace

if TYPE_CHECKING:
    from memcheck.workspace.targets import Targets

RULES = (
    AGT001,
    AGT002,
    AGT003,
    AGT004,
    AGT005,
    AGT006,
    AGT007,
    AGT008,
    AGT009,
    AGT010,
    AGT011,
    AGT012,
    AGT013,
    AGT014,
    AGT015,
    AGT016,
    AGT017,
)

# The rule that reports each kind of issue the agent data finds (``agentkinds.validate``).
_BY_WHAT = {
    what: rule
    for rule, whats in ((AGT004, missing_key.WHAT), (AGT005, invalid_value.WHAT), (AGT006, unknown_tool.WHAT))
    for what in sorted(whats)
}


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    if not targets.kind_files:
        return
    kinds = find_agent_files(ws).kinds
    for path in sorted(targets.kind_files):
        kind_id = kinds.get(path)
        if kind_id is None:
            continue
        kind = agentkinds.by_id(kind_id)
        if kind.role == "agent" and kind.confirmed:
            yield from contained(AGT001, path, check_file(kind, ws.document(path), ws))


def check_file(kind: agentkinds.Kind, doc: Document, ws: Workspace | None = None) -> Iterator[Problem]:
    """One agent file's findings: unreadable (AGT001) or without frontmatter (AGT002)
    ends it; then its frontmatter parsed (AGT003), judged against its kind's schema once
    (AGT004-006), its keys (AGT007-013), its body (AGT014, AGT015) and, with a
    workspace, what it names in the tree (AGT016, AGT017)."""
    if doc.error is not None:
        yield unreadable_agent_file.check(doc)
        return
    if not doc.has_frontmatter:
        yield from missing_frontmatter.check(kind, doc, ws)
        return
    yield from invalid_frontmatter.check(kind, doc)
    fm = doc.frontmatter
    if fm is None or fm.yaml_error is not None:
        return
    for issue in agentkinds.validate(kind, fm.data):
        yield _BY_WHAT[issue.what].at(doc.path, fm.key_lines.get(issue.key, 1), 1, issue.message)
    yield from unknown_key.check(kind, doc.path, fm)
    for rule in (unknown_hook_event, tool_allowed_and_denied, bypass_permissions, ignored_key, key_ignored_by_host, deprecated_key):
        yield from rule.check(kind, doc.path, fm)
    yield from prompt_too_long.check(kind, doc)
    yield from empty_prompt.check(kind, doc, ws)
    if ws is not None:
        yield from missing_skill.check(ws, kind, doc.path, fm)
        yield from agent_memory_ignored.check(ws, kind, doc.path, fm)
