"""AGT010 bypass-permissions: a committed subagent that skips every permission prompt."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint, subagent

REVIEWER = ".claude/agents/reviewer.md"


def test_the_docs_example_is_reported() -> None:
    files = {REVIEWER: subagent(example("AGT010"))}
    assert lint(files, select="AGT") == [(REVIEWER, 4, "AGT010")]
    message = findings(files, select="AGT")[0].message
    assert "run every tool (any Bash command, any file write, any fetch) without asking" in message


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({REVIEWER: subagent(example("AGT010", "Use instead"))}, select="AGT") == []


@pytest.mark.parametrize("mode", ["default", "plan", "dontAsk", "auto"])
def test_other_modes_are_not_reported(mode: str) -> None:
    assert lint({REVIEWER: subagent(f"permissionMode: {mode}\n")}, select="AGT010") == []


def test_it_is_a_security_rule() -> None:
    from memcheck.checks.agent_files.bypass_permissions import AGT010

    assert AGT010.security_severity
