"""GDN: what one agent's own reading hides from it.

Each finding here follows from one agent's facts (``memcheck.agents``): a personal
``CLAUDE.local.md`` that makes Claude Code leave the team's ``AGENTS.md`` aside, a
file Codex never reads although the repository seems to count on it, and skills a
guidance file names for an agent that loads skills from elsewhere. Like the other
GDN rules, each names an agent only for a fact its sources confirm. One module per
rule; the family's one pass over the tree is ``_findings_once``, worked out once per
run (the package keeps the family's name: SARIF tags each rule with it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from memcheck import agents
from memcheck.agents import readers
from memcheck.checks.agent_reading import codex_never_reads, local_file_hides_agents_md, skill_out_of_sight
from memcheck.checks.agent_reading.codex_never_reads import GDN020
from memcheck.checks.agent_reading.local_file_hides_agents_md import GDN022
from memcheck.checks.agent_reading.skill_out_of_sight import GDN021
from memcheck.config import selected

if TYPE_CHECKING:
    from memcheck.problem import Problem
    from memcheck.workspace.discover import Workspace
    from memcheck.workspace.targets import Targets

RULES = (GDN020, GDN021, GDN022)


def check(ws: Workspace, targets: Targets) -> Iterator[Problem]:
    wanted = set(targets.guidance)
    if not wanted or ws.user:
        return
    for problem in ws.once(_findings_once):
        if problem.path in wanted:
            yield problem


def _findings_once(ws: Workspace) -> list[Problem]:
    on = selected(tuple(r.code for r in RULES), ws.config)
    model = readers.reading(ws)
    found: list[Problem] = []
    if GDN022.code in on and agents.CLAUDE_CODE in model.configured:
        found += ws.once(local_file_hides_agents_md.check_once)
    if GDN020.code in on and agents.CODEX in model.configured:
        found += codex_never_reads.check(ws, model)
    if GDN021.code in on:
        found += skill_out_of_sight.check(ws, model)
    return found
