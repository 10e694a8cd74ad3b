"""SKL003 invalid-frontmatter: skill frontmatter that cannot be parsed."""

from __future__ import annotations

import pytest
from conftest import example, findings, lint

CLAUDE = ".claude/skills/deploy/SKILL.md"
AGENTS = ".agents/skills/deploy/SKILL.md"


def _skill(fields: str) -> str:
    return f"---\nname: deploy\n{fields}---\n\nBody.\n"


def test_the_docs_example_is_a_warning_where_claude_code_still_loads_the_skill() -> None:
    (found,) = findings({CLAUDE: _skill(example("SKL003"))})
    assert (found.path, found.line, found.code, found.severity) == (CLAUDE, 3, "SKL003", "warning")
    assert found.message.startswith(
        "the skill loads with no name or description in Claude Code 2.1.186+ and not at all in agents that need them: "
    )


def test_the_docs_use_instead_is_not_reported() -> None:
    assert lint({CLAUDE: _skill(example("SKL003", "Use instead"))}) == []


def test_the_example_is_an_error_in_a_skill_claude_code_does_not_load() -> None:
    (found,) = findings({AGENTS: _skill(example("SKL003"))})
    assert (found.path, found.line, found.code, found.severity) == (AGENTS, 3, "SKL003", "error")
    assert found.message.startswith("agents that parse the frontmatter see no name or description: ")


@pytest.mark.parametrize(
    ("text", "line"),
    [
        pytest.param("---\nname: deploy\n", 1, id="never-closed"),
        pytest.param("---\nname: deploy\nname: deploy\ndescription: d\n---\n", 3, id="a-key-twice"),
    ],
)
def test_frontmatter_never_closed_or_with_a_key_twice_is_an_error_even_where_claude_code_loads_it(text: str, line: int) -> None:
    (found,) = [p for p in findings({CLAUDE: text}) if p.code == "SKL003"]
    assert (found.line, found.severity) == (line, "error")


def test_no_rule_that_reads_the_fields_runs_on_yaml_that_does_not_parse() -> None:
    # No description is seen either (SKL006), nor the misspelt key (SKL010): SKL003 says why.
    assert lint({CLAUDE: "---\nname: deploy\ndescripton: Deploy: now\n---\n"}) == [(CLAUDE, 3, "SKL003")]


def test_a_quoted_start_followed_by_more_text_gets_the_whole_value_quoted_as_the_hint() -> None:
    (found,) = findings({CLAUDE: _skill('description: "Deploys" the app to production\n')})
    assert found.line == 3 and "quote the value of" not in found.message
    assert found.message.endswith("quote the whole value: description: '\"Deploys\" the app to production'"), found.message
