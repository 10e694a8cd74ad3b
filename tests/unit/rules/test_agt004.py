"""AGT004 missing-key: an agent file without a key its kind requires."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint

AGENTS = ".claude/agents"
REVIEWER = f"{AGENTS}/code-reviewer.md"


def test_the_docs_example_a_subagent_with_a_name_and_no_description_is_reported() -> None:
    files = {REVIEWER: "---\n" + example("AGT004") + "---\nYou review code.\n"}
    assert lint(files, select="AGT") == [(REVIEWER, 1, "AGT004")]
    (found,) = findings(files, select="AGT")
    assert found.message == "no description; add description to the frontmatter"


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({REVIEWER: example("AGT004", "Use instead")}, select="AGT") == []


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        pytest.param({f"{AGENTS}/r.md": "---\ndescription: Reviews.\n---\nx\n"}, [(f"{AGENTS}/r.md", 1, "AGT004")], id="subagent-no-name"),
        pytest.param({f"{AGENTS}/r.md": "---\nname: r\n---\nx\n"}, [(f"{AGENTS}/r.md", 1, "AGT004")], id="subagent-no-description"),
        pytest.param(
            {".github/agents/x.agent.md": "---\nname: X\n---\nx\n"},
            [(".github/agents/x.agent.md", 1, "AGT004")],
            id="copilot-agent-no-description",
        ),
        pytest.param({f"{AGENTS}/team/code-reviewer.md": example("AGT004", "Use instead")}, [], id="subagent-in-a-subfolder"),
    ],
)
def test_required_keys(files: dict[str, str], expected: list[tuple[str, int, str]]) -> None:
    assert lint(files, select="AGT") == expected
